import BatonAPI

/// Why a WebSocket operation ended without its results. GraphQL errors the server reports for
/// an operation (`error` messages) are not these: they arrive as a result whose `errors` are set.
public enum WebSocketTransportError: Error, Sendable, CustomStringConvertible {
    /// The server closed the socket with a code that reconnecting cannot fix (4400 bad request,
    /// 4401 unauthorized, 4403 forbidden, 4406 subprotocol not acceptable, 4409 subscriber
    /// already exists, 4429 too many initialisation requests, …), or with any code once
    /// reconnecting is off or used up.
    case closed(code: GraphQLWebSocketCloseCode, reason: String?)
    /// The server refused the connection (legacy `connection_error`), with its payload.
    case connectionRejected(payload: JSONValue?)
    /// The server answered the upgrade request with `status` instead of 101, and with `body`
    /// (its first kilobyte, cut with "…"), if any. A 4xx refusal (401, 403 — such as a
    /// cross-origin refusal —, 404, …) fails every operation at once, as reconnecting cannot fix
    /// it; 408, 429 and 5xx are retried as the reconnect policy says.
    case upgradeRefused(status: Int, body: String?)
    /// The socket could not be opened (connection refused, TLS, an invalid handshake) or broke
    /// without a close frame.
    case connectionFailed(underlying: any Error)
    /// No `connection_ack` came within the configured time.
    case acknowledgementTimeout(Duration)
    /// The connection and its HTTP upgrade did not complete within
    /// ``WebSocketTransportConfiguration/upgradeTimeout``.
    case upgradeTimeout(Duration)
    /// The server broke the WebSocket protocol: a frame or message larger than the configured
    /// maximum, a text message that is not valid UTF-8, a malformed frame. Not retried: the
    /// server would do it again.
    case protocolViolation(reason: String)
    /// The server stopped answering pings within the configured time.
    case pongTimeout(Duration)
    /// The server sent something the protocol does not allow.
    case invalidMessage(reason: String)
    /// Computing the `connection_init` payload failed.
    case connectionPayloadFailed(underlying: any Error)
    /// Reconnecting gave up; `lastError` is why the last attempt failed.
    case reconnectAttemptsExhausted(attempts: Int, lastError: any Error)
    /// The connection dropped while a mutation was in flight; mutations are never sent twice.
    case connectionLost(operationName: String, underlying: any Error)
    /// The server completed the operation without sending a result.
    case noResult(operationName: String)
    /// ``WebSocketNetworkTransport/disconnect()`` ended the operation.
    case disconnected
    /// The operation's consumer left `bufferedEvents` events (as many as the configured
    /// ``WebSocketTransportConfiguration/maxBufferedEvents``, or fewer holding
    /// ``WebSocketTransportConfiguration/maxBufferedEventBytes``) untaken for `waited`
    /// (``WebSocketTransportConfiguration/slowConsumerTimeout``) while the server sent more: the
    /// operation is stopped on the server (`complete`) rather than buffered without bound.
    /// Other operations on the socket go on.
    case consumerFellBehind(operationName: String, bufferedEvents: Int, waited: Duration)

    /// The close code, when the server closed the socket (also inside exhausted reconnects).
    public var closeCode: GraphQLWebSocketCloseCode? {
        switch self {
        case .closed(let code, _): code
        case .reconnectAttemptsExhausted(_, let error as WebSocketTransportError): error.closeCode
        case .connectionLost(_, let error as WebSocketTransportError): error.closeCode
        default: nil
        }
    }

    /// The HTTP status of a refused upgrade (also inside exhausted reconnects).
    public var upgradeStatus: Int? {
        switch self {
        case .upgradeRefused(let status, _): status
        case .reconnectAttemptsExhausted(_, let error as WebSocketTransportError): error.upgradeStatus
        case .connectionLost(_, let error as WebSocketTransportError): error.upgradeStatus
        default: nil
        }
    }

    /// Whether a refused upgrade with this status fails for good: a 4xx other than 408 (request
    /// timeout) and 429 (too many requests).
    static func upgradeRefusalIsFatal(status: Int) -> Bool {
        (400..<500).contains(status) && status != 408 && status != 429
    }

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .closed(let code, let reason):
            "the server closed the WebSocket: \(code)" + (reason.map { ": \($0)" } ?? "")
        case .connectionRejected(let payload):
            "the server refused the connection" + (payload.map { ": \($0)" } ?? "")
        case .upgradeRefused(let status, let body):
            "the server refused the WebSocket upgrade with HTTP status \(status)"
                + (body.map { $0.isEmpty ? "" : ": \($0)" } ?? "")
        case .connectionFailed(let underlying):
            "the WebSocket connection failed: \(underlying)"
        case .acknowledgementTimeout(let duration):
            "no connection_ack within \(duration)"
        case .upgradeTimeout(let duration):
            "the WebSocket upgrade did not complete within \(duration)"
        case .protocolViolation(let reason):
            "the server broke the WebSocket protocol: \(reason)"
        case .pongTimeout(let duration):
            "no pong within \(duration)"
        case .invalidMessage(let reason):
            "the server sent an invalid message: \(reason)"
        case .connectionPayloadFailed(let underlying):
            "the connection_init payload could not be made: \(underlying)"
        case .reconnectAttemptsExhausted(let attempts, let lastError):
            "gave up reconnecting after \(attempts) attempts: \(lastError)"
        case .connectionLost(let name, let underlying):
            "\(name): the connection dropped while the mutation was in flight: \(underlying)"
        case .noResult(let name):
            "\(name): the server completed the operation without a result"
        case .disconnected:
            "the transport was disconnected"
        case .consumerFellBehind(let name, let count, let waited):
            "\(name): the consumer left \(count) events untaken for \(waited) while the server sent more"
        }
    }
}
