import BatonAPI
import Foundation
import HTTPTypes

/// The HTTP transport: a chain of ``GraphQLInterceptor``s ending in an ``HTTPClient``.
///
/// Each request goes through the interceptors in order; the last step writes the GraphQL over
/// HTTP POST body (`application/json`), asks for `application/graphql-response+json` or
/// `application/json`, and sends it. The response is then checked by status and content type
/// and parsed into a ``GraphQLResponse``.
public struct RequestChainNetworkTransport: NetworkTransport {
    public let url: URL
    public let headerFields: HTTPFields
    public let interceptors: [any GraphQLInterceptor]
    public let httpClient: any HTTPClient
    public let timeout: Duration?

    public init(
        url: URL, headerFields: HTTPFields = [:], interceptors: [any GraphQLInterceptor] = [],
        httpClient: any HTTPClient = URLSessionHTTPClient(), timeout: Duration? = nil
    ) {
        self.url = url
        self.headerFields = headerFields
        self.interceptors = interceptors
        self.httpClient = httpClient
        self.timeout = timeout
    }

    public func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse {
        var request = GraphQLRequest(operation: operation, url: url, headerFields: headerFields)
        request.timeout = timeout
        let result = try await run(request, from: interceptors[...])
        return try GraphQLHTTPResponseReader.read(result, operationName: Operation.operationName)
    }

    private func run(_ request: GraphQLRequest, from remaining: ArraySlice<any GraphQLInterceptor>) async throws -> HTTPResult {
        guard let interceptor = remaining.first else {
            return try await sendOverHTTP(request)
        }
        let rest = remaining.dropFirst()
        return try await interceptor.intercept(request) { next in
            try await run(next, from: rest)
        }
    }

    /// The chain's last step: GraphQL over HTTP, POST with a JSON body.
    private func sendOverHTTP(_ request: GraphQLRequest) async throws -> HTTPResult {
        var fields = request.headerFields
        fields[.contentType] = "application/json"
        if fields[.accept] == nil {
            fields[.accept] = "application/graphql-response+json, application/json;q=0.9"
        }
        let httpRequest = HTTPRequest(method: .post, url: request.url, headerFields: fields)
        let body = request.bodyJSON.serializedData()
        do {
            let (response, data) = try await httpClient.send(httpRequest, body: body, timeout: request.timeout)
            return HTTPResult(response: response, body: data)
        } catch let error as BatonError {
            throw error
        } catch {
            throw BatonError.network(operationName: request.operationName, underlying: error)
        }
    }
}
