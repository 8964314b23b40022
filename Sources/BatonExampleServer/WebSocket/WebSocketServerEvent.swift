/// Something that happened on one of the example server's WebSockets, recorded so tests can
/// check what the client did.
public enum WebSocketServerEvent: Sendable, Equatable {
    /// A socket was upgraded; the negotiated subprotocol (nil: none acceptable).
    case connected(subprotocol: String?)
    /// `connection_init` arrived with this payload (as JSON text; nil: no payload).
    case initialized(payload: String?)
    /// An operation started: `subscribe` or `start`.
    case operationStarted(id: String)
    /// The client stopped an operation: `complete` or `stop`.
    case operationStoppedByClient(id: String)
    /// The server completed an operation (all results sent).
    case operationCompleted(id: String)
    case pingReceived
    case pongReceived
    /// Legacy `connection_terminate`.
    case terminatedByClient
    /// The server closed a socket with this code.
    case closedByServer(code: UInt16)
    /// A socket's session ended (the connection is gone).
    case disconnected
}
