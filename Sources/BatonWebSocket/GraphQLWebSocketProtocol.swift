/// The GraphQL-over-WebSocket protocols, by the name they go by in `Sec-WebSocket-Protocol`.
public enum GraphQLWebSocketProtocol: String, Sendable, CaseIterable {
    /// graphql-ws's `graphql-transport-ws`: `connection_init`/`connection_ack`, `ping`/`pong`,
    /// `subscribe`/`next`/`error`/`complete`, close codes 4400–4499.
    case graphqlTransportWS = "graphql-transport-ws"
    /// The legacy subscriptions-transport-ws protocol, named `graphql-ws`: `connection_init`/
    /// `connection_ack`/`ka`, `start`/`data`/`error`/`complete`/`stop`, `connection_terminate`.
    case graphqlWS = "graphql-ws"

    /// The value of the `Sec-WebSocket-Protocol` header that asks for this protocol.
    public var subprotocol: String { rawValue }
}
