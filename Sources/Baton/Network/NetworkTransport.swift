import BatonAPI
import HTTPTypes

/// A GraphQL response as the transport received it, before it is read into typed data: the
/// parsed body and, for HTTP, the response head.
public struct GraphQLResponse: Sendable {
    public let body: JSONObject
    public let httpResponse: HTTPResponse?

    public init(body: JSONObject, httpResponse: HTTPResponse? = nil) {
        self.body = body
        self.httpResponse = httpResponse
    }
}

/// Sends operations to a server and returns the raw response. ``BatonClient`` reads it into
/// typed results (and, with a store, normalizes it).
public protocol NetworkTransport: Sendable {
    func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse
}
