import BatonAPI
import Foundation
import HTTPTypes

/// The HTTP transport: a chain of ``GraphQLInterceptor``s ending in an ``HTTPClient``.
///
/// Each request goes through the interceptors in order (then the persisted-query step, when
/// one is configured); the last step sends it by GraphQL over HTTP: a JSON `POST`, a `GET` with
/// the request in the URL for queries when `useGETForQueries`, or a `multipart/form-data` `POST`
/// when it carries files. It asks for `application/graphql-response+json` or `application/json`,
/// and also `multipart/mixed` when the document uses `@defer` or `@stream`. The response is
/// checked by status and content type and parsed into a ``GraphQLResponse``; a `multipart/mixed`
/// one is read part by part as it arrives.
public struct RequestChainNetworkTransport: UploadingNetworkTransport {
    public let url: URL
    public let headerFields: HTTPFields
    /// The chain as it runs: the interceptors given, then ``PersistedQueryInterceptor`` when
    /// `autoPersistQueries` or `persistedQueriesOnly` is set.
    public let interceptors: [any GraphQLInterceptor]
    public let httpClient: any HTTPClient
    public let timeout: Duration?
    /// Queries go as `GET` (mutations never do).
    public let useGETForQueries: Bool
    /// The incremental formats asked for, in order of preference.
    public let incrementalDeliveryFormats: [IncrementalDeliveryFormat]

    /// - Parameters:
    ///   - useGETForQueries: send queries as `GET` by the GraphQL-over-HTTP encoding.
    ///   - autoPersistQueries: Apollo's automatic persisted queries: the hash first, the
    ///     document only when the server asks for it.
    ///   - useGETForPersistedQueryRetry: send that retry with the document as `GET` (queries).
    ///   - persistedQueriesOnly: send only operation ids, never documents, for servers that
    ///     know the operations from the codegen's operation manifest.
    ///   - incrementalDeliveryFormats: the `multipart/mixed` formats to ask for, preferred first.
    public init(
        url: URL, headerFields: HTTPFields = [:], interceptors: [any GraphQLInterceptor] = [],
        httpClient: any HTTPClient = URLSessionHTTPClient(), timeout: Duration? = nil,
        useGETForQueries: Bool = false, autoPersistQueries: Bool = false, useGETForPersistedQueryRetry: Bool = false,
        persistedQueriesOnly: Bool = false,
        incrementalDeliveryFormats: [IncrementalDeliveryFormat] = [.specDraft, .deferSpec20220824]
    ) {
        self.url = url
        self.headerFields = headerFields
        var chain = interceptors
        if persistedQueriesOnly {
            chain.append(PersistedQueryInterceptor(mode: .persistedOnly))
        } else if autoPersistQueries {
            chain.append(PersistedQueryInterceptor(mode: .automatic(useGETForRetry: useGETForPersistedQueryRetry)))
        }
        self.interceptors = chain
        self.httpClient = httpClient
        self.timeout = timeout
        self.useGETForQueries = useGETForQueries
        self.incrementalDeliveryFormats = incrementalDeliveryFormats
    }

    public func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse {
        let result = try await execute(request(for: operation))
        guard result.streamedBody != nil else {
            return try GraphQLHTTPResponseReader.read(result, operationName: Operation.operationName)
        }
        var last: GraphQLResponse?
        for try await response in IncrementalResponseReader.responses(result, operationName: Operation.operationName) {
            last = response
        }
        guard let last else {
            throw BatonError.incompleteResponse(operationName: Operation.operationName, reason: "the response has no parts")
        }
        return last
    }

    public func responses<Operation: GraphQLOperation>(for operation: Operation) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let request = request(for: operation)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let result = try await execute(request)
                    if result.streamedBody == nil {
                        continuation.yield(try GraphQLHTTPResponseReader.read(result, operationName: Operation.operationName))
                    } else {
                        for try await response in IncrementalResponseReader.responses(result, operationName: Operation.operationName) {
                            continuation.yield(response)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func upload<Operation: GraphQLOperation>(operation: Operation, files: [GraphQLFile]) async throws -> GraphQLResponse {
        var request = request(for: operation)
        request.files = files
        request.usesGET = false
        let result = try await execute(request)
        return try GraphQLHTTPResponseReader.read(result, operationName: Operation.operationName)
    }

    private func request<Operation: GraphQLOperation>(for operation: Operation) -> GraphQLRequest {
        var request = GraphQLRequest(operation: operation, url: url, headerFields: headerFields)
        request.timeout = timeout
        request.usesGET = useGETForQueries && Operation.operationType == .query
        return request
    }

    private func execute(_ request: GraphQLRequest) async throws -> HTTPResult {
        try await run(request, from: interceptors[...])
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

    /// The chain's last step: GraphQL over HTTP.
    private func sendOverHTTP(_ request: GraphQLRequest) async throws -> HTTPResult {
        var fields = request.headerFields
        if fields[.accept] == nil {
            var ranges = ["application/graphql-response+json", "application/json;q=0.9"]
            if request.acceptsIncrementalDelivery {
                ranges.insert(contentsOf: incrementalDeliveryFormats.map(\.acceptRange), at: 0)
            }
            fields[.accept] = ranges.joined(separator: ", ")
        }
        let httpRequest: HTTPRequest
        let body: HTTPRequestBody?
        do {
            if !request.files.isEmpty {
                let multipart = MultipartUploadRequest.body(for: request)
                fields[.contentType] = multipart.contentType
                // Servers with CSRF prevention (Apollo Server) refuse multipart requests without it.
                fields[HTTPField.Name("Apollo-Require-Preflight")!] = "true"
                httpRequest = HTTPRequest(method: .post, url: request.url, headerFields: fields)
                body = try Self.checkedBody(multipart, request: request)
            } else if request.usesGET && request.operationType == .query {
                httpRequest = HTTPRequest(method: .get, url: Self.getURL(for: request), headerFields: fields)
                body = nil
            } else {
                fields[.contentType] = "application/json"
                httpRequest = HTTPRequest(method: .post, url: request.url, headerFields: fields)
                body = .data(request.bodyJSON.serializedData())
            }
        }
        do {
            if request.acceptsIncrementalDelivery {
                let (response, chunks) = try await httpClient.stream(httpRequest, body: body, timeout: request.timeout)
                let contentType = response.headerFields[.contentType].map(GraphQLHTTPResponseReader.mediaType(of:))
                if contentType == "multipart/mixed" {
                    return HTTPResult(response: response, body: Data(), streamedBody: chunks)
                }
                var data = Data()
                for try await chunk in chunks { data.append(chunk) }
                return HTTPResult(response: response, body: data)
            }
            let (response, data) = try await httpClient.send(httpRequest, body: body, timeout: request.timeout)
            return HTTPResult(response: response, body: data)
        } catch let error as BatonError {
            throw error
        } catch {
            throw BatonError.network(operationName: request.operationName, underlying: error)
        }
    }

    /// The multipart body, after checking that its files can be read.
    private static func checkedBody(_ multipart: MultipartFormBody, request: GraphQLRequest) throws -> HTTPRequestBody {
        for case .file(let url) in request.files.map(\.content) {
            do {
                let handle = try FileHandle(forReadingFrom: url)
                try handle.close()
            } catch {
                throw BatonError.unreadableFile(operationName: request.operationName, fileURL: url, underlying: error)
            }
        }
        do {
            return try multipart.requestBody()
        } catch {
            let url = request.files.compactMap { if case .file(let url) = $0.content { url } else { nil } }.first
            throw BatonError.unreadableFile(
                operationName: request.operationName, fileURL: url ?? request.url, underlying: error)
        }
    }

    /// The URL of a GET request: `query`, `operationName`, `variables` and `extensions` (JSON)
    /// as query parameters, percent-encoded so `+`, `&` and `=` survive.
    static func getURL(for request: GraphQLRequest) -> URL {
        var parameters: [(String, String)] = []
        if request.sendsDocument { parameters.append(("query", request.document)) }
        parameters.append(("operationName", request.operationName))
        if !request.variables.isEmpty { parameters.append(("variables", JSONValue.object(request.variables).serializedString())) }
        if !request.extensions.isEmpty { parameters.append(("extensions", JSONValue.object(request.extensions).serializedString())) }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let query = parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")"
        }.joined(separator: "&")
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let existing = components?.percentEncodedQuery.map { $0 + "&" } ?? ""
        components?.percentEncodedQuery = existing + query
        return components?.url ?? request.url
    }
}
