/// The GraphQL-over-WebSocket protocols the example server speaks.
enum GraphQLWebSocketSubprotocol: String, Sendable {
    /// graphql-ws's graphql-transport-ws.
    case graphqlTransportWS = "graphql-transport-ws"
    /// The legacy subscriptions-transport-ws protocol.
    case graphqlWS = "graphql-ws"

    /// The first protocol the client asks for (in its `Sec-WebSocket-Protocol` values, in order)
    /// that the server speaks; nil when none is (the socket is then closed with 4406).
    static func negotiate(_ headerValues: [String]) -> Self? {
        headerValues
            .flatMap { $0.split(separator: ",") }
            .lazy
            .compactMap { Self(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
            .first
    }
}
