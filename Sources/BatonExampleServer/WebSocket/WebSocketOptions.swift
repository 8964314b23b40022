/// How the example server runs GraphQL over WebSocket on `/graphql`.
public struct WebSocketOptions: Sendable {
    /// How long a socket may stay open without `connection_init` before it is closed with 4408.
    public var connectionInitTimeout: Duration
    /// When set, `connection_init` must carry `{"token": <this>}`; otherwise the socket is closed
    /// with 4403 (after a `connection_error` in the legacy protocol).
    public var requiredConnectionToken: String?
    /// Legacy graphql-ws only: send `ka` this often after the ack. `nil`: only the one after the ack.
    public var keepAliveInterval: Duration?

    public init(
        connectionInitTimeout: Duration = .seconds(3),
        requiredConnectionToken: String? = nil,
        keepAliveInterval: Duration? = nil
    ) {
        self.connectionInitTimeout = connectionInitTimeout
        self.requiredConnectionToken = requiredConnectionToken
        self.keepAliveInterval = keepAliveInterval
    }
}
