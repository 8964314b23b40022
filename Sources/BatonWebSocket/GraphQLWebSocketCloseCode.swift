/// A WebSocket close code, with names for the ones graphql-transport-ws defines.
public struct GraphQLWebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent in the close frame.
    public let rawValue: UInt16

    /// Any close code, named or not.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the socket closed as it should (an idle socket closed, say).
    public static let normalClosure = Self(rawValue: 1000)
    /// 1001: the peer is going away (a server shutting down).
    public static let goingAway = Self(rawValue: 1001)
    /// The peer went away without a close frame (never sent on the wire).
    public static let abnormalClosure = Self(rawValue: 1006)
    /// 4004: the server's message could not be read (graphql-ws's client code).
    public static let badResponse = Self(rawValue: 4004)
    /// 4005: the client failed internally (graphql-ws's client code).
    public static let internalClientError = Self(rawValue: 4005)
    /// A message the protocol does not allow (unknown type, bad format, a message before the ack).
    public static let badRequest = Self(rawValue: 4400)
    /// A `subscribe` before the connection was acknowledged.
    public static let unauthorized = Self(rawValue: 4401)
    /// The server refused the `connection_init` payload.
    public static let forbidden = Self(rawValue: 4403)
    /// None of the subprotocols asked for is served.
    public static let subprotocolNotAcceptable = Self(rawValue: 4406)
    /// No `connection_init` arrived in time.
    public static let connectionInitialisationTimeout = Self(rawValue: 4408)
    /// A `subscribe` reused the id of a subscription still running.
    public static let subscriberAlreadyExists = Self(rawValue: 4409)
    /// More than one `connection_init`.
    public static let tooManyInitialisationRequests = Self(rawValue: 4429)
    /// The client closed the socket because it stopped answering (pong timeout).
    public static let terminated = Self(rawValue: 4499)
    /// 4500: the server failed internally.
    public static let internalServerError = Self(rawValue: 4500)
    /// The client closed the socket because no `connection_ack` came in time.
    public static let connectionAcknowledgementTimeout = Self(rawValue: 4504)

    /// Whether reconnecting cannot help: the server said the client is wrong or not allowed,
    /// as graphql-ws's own client decides (4403 Forbidden included, since Baton sends the same
    /// payload again).
    public var isFatal: Bool {
        [
            Self.badResponse, .internalClientError, .badRequest, .unauthorized, .forbidden,
            .subprotocolNotAcceptable, .subscriberAlreadyExists, .tooManyInitialisationRequests, .internalServerError,
        ].contains(self)
    }

    /// The code with its name, `4403 (forbidden)`.
    public var description: String {
        let name: String? =
            switch self {
            case .normalClosure: "normal closure"
            case .goingAway: "going away"
            case .abnormalClosure: "abnormal closure"
            case .badResponse: "bad response"
            case .internalClientError: "internal client error"
            case .badRequest: "bad request"
            case .unauthorized: "unauthorized"
            case .forbidden: "forbidden"
            case .subprotocolNotAcceptable: "subprotocol not acceptable"
            case .connectionInitialisationTimeout: "connection initialisation timeout"
            case .subscriberAlreadyExists: "subscriber already exists"
            case .tooManyInitialisationRequests: "too many initialisation requests"
            case .terminated: "terminated"
            case .internalServerError: "internal server error"
            case .connectionAcknowledgementTimeout: "connection acknowledgement timeout"
            default: nil
            }
        return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}
