import BatonAPI
import Foundation
import HTTPTypes
import Logging

/// The HTTP transport: a chain of ``GraphQLInterceptor``s ending in an ``HTTPClient``.
///
/// Each request goes through the interceptors in order, then the persisted-query step (when
/// one is configured), then the wire interceptors, which see each request as it goes on the wire
/// (a persisted query's hash-only request and its retry with the document are two requests
/// there); the last step sends it by GraphQL over HTTP: a JSON `POST`, a `GET` with
/// the request in the URL for queries when `useGETForQueries`, or a `multipart/form-data` `POST`
/// when it carries files. It asks for `application/graphql-response+json` or `application/json`,
/// and also `multipart/mixed` when the document uses `@defer` or `@stream`. The response is
/// checked by status and content type and parsed into a ``GraphQLResponse``; a `multipart/mixed`
/// one is read part by part as it arrives.
///
/// `timeout` bounds each attempt: the whole response must arrive within it (an incremental
/// response's head, then each of its chunks), else ``BatonError/timedOut(operationName:after:)``.
/// `limits` (``ResponseLimits``) bound the whole operation, retries and every part of an
/// incremental response included, by `operationTimeout` (subscriptions excepted), and what is
/// read of a response by `maxResponseBytes`; the HTTP client follows at most `maxRedirects`
/// redirects and drops credentials and the headers of `sensitiveData` on one to another origin.
/// A `retryPolicy` sends failed queries again (``RetryPolicy``). Requests and responses are
/// logged through `logger` with the secrets of `sensitiveData` redacted (`SensitiveData`).
///
/// With a `subscriptionProtocol`, subscriptions run over HTTP too, through the same chain (so
/// the same interceptors add the same credentials): Apollo's multipart protocol or GraphQL over
/// Server-Sent Events (``HTTPSubscriptionProtocol``). Without one, ``subscribe(subscription:)``
/// fails with ``BatonError/subscriptionsUnsupported(operationName:transport:)``.
public struct RequestChainNetworkTransport: UploadingNetworkTransport, SubscriptionNetworkTransport {
    /// The GraphQL endpoint.
    public let url: URL
    /// Header fields sent with every request.
    public let headerFields: HTTPFields
    /// The chain as it runs: the interceptors given, then ``PersistedQueryInterceptor`` when
    /// `autoPersistQueries` or `persistedQueriesOnly` is set, then the wire interceptors.
    public let interceptors: [any GraphQLInterceptor]
    /// What sends the HTTP requests (``URLSessionHTTPClient`` by default).
    public let httpClient: any HTTPClient
    /// How long each attempt may take; `nil` leaves it to the HTTP client's own timeout.
    public let timeout: Duration?
    /// How failed requests are sent again; `nil` never retries.
    public let retryPolicy: RetryPolicy?
    /// How much of a response is read and how long an operation may take (``ResponseLimits``).
    public let limits: ResponseLimits
    /// The headers and variables never logged.
    public let sensitiveData: SensitiveData
    private let log: RequestLog
    /// Queries go as `GET` (mutations never do).
    public let useGETForQueries: Bool
    /// The incremental formats asked for, in order of preference.
    public let incrementalDeliveryFormats: [IncrementalDeliveryFormat]
    /// How subscriptions run over HTTP; `nil`: they do not.
    public let subscriptionProtocol: HTTPSubscriptionProtocol?
    /// Whose instrument injects the current span's context into each request, and where the
    /// bytes received are counted.
    public let telemetry: (any OperationTelemetry)?

    /// - Parameters:
    ///   - url: the GraphQL endpoint.
    ///   - headerFields: header fields sent with every request.
    ///   - interceptors: the app's interceptors, first in the chain.
    ///   - httpClient: what sends the HTTP requests.
    ///   - timeout: how long each attempt may take; `nil` leaves it to the HTTP client.
    ///   - useGETForQueries: send queries as `GET` by the GraphQL-over-HTTP encoding.
    ///   - autoPersistQueries: Apollo's automatic persisted queries: the hash first, the
    ///     document only when the server asks for it.
    ///   - useGETForPersistedQueryRetry: send that retry with the document as `GET` (queries).
    ///   - persistedQueriesOnly: send only operation ids, never documents, for servers that
    ///     know the operations from the codegen's operation manifest.
    ///   - incrementalDeliveryFormats: the `multipart/mixed` formats to ask for, preferred first.
    ///   - subscriptionProtocol: run subscriptions over HTTP by this protocol (`nil`: refuse them).
    ///   - wireInterceptors: interceptors at the wire end of the chain, after Baton's own steps
    ///     (persisted queries): each sees every request exactly as it is sent over HTTP, and its
    ///     HTTP result as it came back (a signature over the body, wire logging, metrics).
    ///   - retryPolicy: send failed queries again (first in the chain, so each attempt runs
    ///     through every interceptor).
    ///   - sensitiveData: headers and variables whose values are redacted in logs.
    ///   - limits: the bounds kept against the server: response and part sizes, error paths, and
    ///     the whole operation's time (``ResponseLimits``).
    ///   - logger: where requests, responses, failures and retries are logged.
    ///   - telemetry: the tracer whose instrument injects the operation's span context into each
    ///     request (W3C `traceparent` with an OpenTelemetry tracer), and the metrics that count
    ///     the bytes received (`BatonTelemetry` in `BatonInstrumentation`; `nil`: none); give the
    ///     client the same.
    public init(
        url: URL, headerFields: HTTPFields = [:], interceptors: [any GraphQLInterceptor] = [],
        httpClient: any HTTPClient = URLSessionHTTPClient(), timeout: Duration? = nil,
        useGETForQueries: Bool = false, autoPersistQueries: Bool = false, useGETForPersistedQueryRetry: Bool = false,
        persistedQueriesOnly: Bool = false,
        incrementalDeliveryFormats: [IncrementalDeliveryFormat] = [.specDraft, .deferSpec20220824],
        subscriptionProtocol: HTTPSubscriptionProtocol? = nil,
        wireInterceptors: [any GraphQLInterceptor] = [],
        retryPolicy: RetryPolicy? = nil, sensitiveData: SensitiveData = .default, limits: ResponseLimits = .default,
        logger: Logger = Logger(label: "Baton.HTTP"), telemetry: (any OperationTelemetry)? = nil
    ) {
        self.limits = limits
        self.url = url
        self.headerFields = headerFields
        let log = RequestLog(logger: logger, sensitiveData: sensitiveData)
        self.log = log
        self.retryPolicy = retryPolicy
        self.sensitiveData = sensitiveData
        var chain = interceptors
        if let retryPolicy {
            chain.insert(RetryInterceptor(policy: retryPolicy) { log.willRetry($0, attempt: $1, delay: $2, reason: $3) }, at: 0)
        }
        if persistedQueriesOnly {
            chain.append(PersistedQueryInterceptor(mode: .persistedOnly))
        } else if autoPersistQueries {
            chain.append(PersistedQueryInterceptor(mode: .automatic(useGETForRetry: useGETForPersistedQueryRetry)))
        }
        chain += wireInterceptors
        self.interceptors = chain
        self.httpClient = httpClient
        self.timeout = timeout
        self.useGETForQueries = useGETForQueries
        self.incrementalDeliveryFormats = incrementalDeliveryFormats
        self.subscriptionProtocol = subscriptionProtocol
        self.telemetry = telemetry
    }

    /// Sends the operation through the chain; an incremental response is merged into one.
    public func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse {
        let request = request(for: operation)
        return try await withOperationDeadline(request) {
            let result = try await execute(request)
            guard result.streamedBody != nil else {
                return try Self.readWhole(result, for: request)
            }
            var last: GraphQLResponse?
            for try await response in IncrementalResponseReader.responses(
                result, operationName: Operation.operationName, limits: request.limits)
            {
                last = response
            }
            guard let last else {
                throw BatonError.incompleteResponse(operationName: Operation.operationName, reason: "the response has no parts")
            }
            return last
        }
    }

    /// Runs `body` within ``ResponseLimits/operationTimeout``: the whole operation, retries and
    /// every part of an incremental response included, however steadily its bytes come.
    private func withOperationDeadline<T: Sendable>(
        _ request: GraphQLRequest, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let limit = request.limits.operationTimeout
        let operationName = request.operationName
        return try await withDeadline(limit, timeoutError: { BatonError.timedOut(operationName: operationName, after: limit ?? .zero) }, body)
    }

    /// Sends the operation and yields each response part, merged so far, as it arrives; a part is
    /// read only when the consumer has taken the one before.
    public func responses<Operation: GraphQLOperation>(for operation: Operation) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let request = request(for: operation)
        return BackPressuredStream.make(capacity: 1) { send in
            try await withOperationDeadline(request) {
                let result = try await execute(request)
                if result.streamedBody == nil {
                    let response = try Self.readWhole(result, for: request)
                    _ = await send(response)
                    return
                }
                for try await response in IncrementalResponseReader.responses(
                    result, operationName: Operation.operationName, limits: request.limits)
                {
                    guard await send(response) else { return }
                }
            }
        }
    }

    /// A whole (not streamed) response read by the GraphQL-over-HTTP rules, its errors' paths
    /// checked against the request's limits.
    private static func readWhole(_ result: HTTPResult, for request: GraphQLRequest) throws -> GraphQLResponse {
        let response = try GraphQLHTTPResponseReader.read(result, operationName: request.operationName)
        try request.limits.checkErrorPaths(in: response.body, operationName: request.operationName)
        return response
    }

    /// Sends the operation with files by the GraphQL multipart request spec (always a `POST`).
    public func upload<Operation: GraphQLOperation>(operation: Operation, files: [GraphQLFile]) async throws -> GraphQLResponse {
        var request = request(for: operation)
        request.files = files
        request.usesGET = false
        let uploadRequest = request
        return try await withOperationDeadline(uploadRequest) {
            let result = try await execute(uploadRequest)
            return try Self.readWhole(result, for: uploadRequest)
        }
    }

    /// Runs a subscription over HTTP by ``subscriptionProtocol``: one `POST`, its events read from
    /// the response body as they arrive; cancelling the consumer closes the connection. A plain
    /// GraphQL response instead of a stream (a request error) is delivered as the one result.
    public func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        guard let subscriptionProtocol else {
            let error = BatonError.subscriptionsUnsupported(
                operationName: Subscription.operationName, transport: String(describing: Self.self))
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        var subscriptionRequest = request(for: subscription)
        subscriptionRequest.usesGET = false
        subscriptionRequest.subscriptionProtocol = subscriptionProtocol
        let request = subscriptionRequest
        let name = Subscription.operationName
        // Back-pressure end to end: an event is read from the body only when the consumer has
        // taken the one before.
        return BackPressuredStream.make(capacity: 1) { send in
            let result = try await execute(request)
            guard result.streamedBody != nil else {
                let response = try Self.readWhole(result, for: request)
                _ = await send(response)
                return
            }
            guard (200..<300).contains(result.response.status.code) else {
                throw BatonError.httpStatus(
                    operationName: name, status: result.response.status.code,
                    contentType: result.response.headerFields[.contentType], bodyExcerpt: "", errors: [])
            }
            let contentType = result.response.headerFields[.contentType].map(GraphQLHTTPResponseReader.mediaType(of:))
            let events =
                contentType == "text/event-stream"
                ? ServerSentEventSubscriptionReader.responses(result, operationName: name, limits: request.limits)
                : MultipartSubscriptionReader.responses(result, operationName: name, limits: request.limits)
            for try await response in events {
                guard await send(response) else { return }
            }
        }
    }

    private func request<Operation: GraphQLOperation>(for operation: Operation) -> GraphQLRequest {
        var request = GraphQLRequest(operation: operation, url: url, headerFields: headerFields)
        request.timeout = timeout
        request.limits = limits
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
            if let subscriptionProtocol = request.subscriptionProtocol {
                ranges = [subscriptionProtocol.acceptHeader]
            }
            fields[.accept] = ranges.joined(separator: ", ")
        }
        if !httpClient.propagatesTraceContext { telemetry?.inject(into: &fields) }
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
        let start = ContinuousClock.now
        log.willSend(request, httpRequest)
        do {
            var result = try await exchange(httpRequest, body: body, for: request)
            log.didReceive(request, result.response, bytes: result.streamedBody == nil ? result.body.count : nil, since: start)
            let name = request.operationName
            let type = request.operationType
            if let telemetry = self.telemetry, telemetry.countsBytesReceived {
                if let streamed = result.streamedBody {
                    result.streamedBody = Self.counted(streamed) { telemetry.recordBytesReceived($0, operationName: name, operationType: type) }
                } else {
                    telemetry.recordBytesReceived(result.body.count, operationName: name, operationType: type)
                }
            }
            return result
        } catch {
            let failure = Self.classify(error, for: request)
            log.didFail(request, failure, since: start)
            throw failure
        }
    }

    /// Sends the request and waits for its response within the request's timeout: the whole
    /// body, or for a `multipart/mixed` one its head, then each chunk.
    private func exchange(_ httpRequest: HTTPRequest, body: HTTPRequestBody?, for request: GraphQLRequest) async throws -> HTTPResult {
        let httpClient = self.httpClient
        let timeout = request.timeout
        let operationName = request.operationName
        let timedOut: @Sendable () -> any Error = { BatonError.timedOut(operationName: operationName, after: timeout ?? .zero) }
        let isSubscription = request.subscriptionProtocol != nil
        let maxBytes = request.limits.maxResponseBytes
        let options = HTTPRequestOptions(
            timeout: timeout, maxResponseBytes: isSubscription ? nil : maxBytes, maxRedirects: request.limits.maxRedirects,
            sensitiveHeaderNames: sensitiveData.headerNames, maxUnreadBytes: request.limits.maxUnreadBytes)
        let tooLarge = BatonError.responseTooLarge(operationName: operationName, limit: maxBytes)
        guard request.acceptsIncrementalDelivery || isSubscription else {
            let (response, data) = try await withDeadline(timeout, timeoutError: timedOut) {
                try await httpClient.send(httpRequest, body: body, options: options)
            }
            // An HTTP client written before the options may not have stopped at the limit.
            guard data.count <= maxBytes else { throw tooLarge }
            return HTTPResult(response: response, body: data)
        }
        let (response, chunks) = try await withDeadline(timeout, timeoutError: timedOut) {
            try await httpClient.stream(httpRequest, body: body, options: options)
        }
        // A subscription may be quiet for longer than any timeout between its events: only its
        // response head is bounded (heartbeats keep its connection alive), and only its events'
        // sizes (`maxPartBytes`), not its whole length.
        let contentType = response.headerFields[.contentType].map(GraphQLHTTPResponseReader.mediaType(of:))
        let isStreamed = contentType == "multipart/mixed" || (isSubscription && contentType == "text/event-stream")
        var stream = Self.idleLimited(chunks, limit: isSubscription ? nil : timeout, timeoutError: timedOut, for: request)
        if !(isSubscription && isStreamed) { stream = Self.sizeLimited(stream, maxBytes: maxBytes, error: tooLarge) }
        if isStreamed {
            return HTTPResult(response: response, body: Data(), streamedBody: stream)
        }
        let whole = stream
        return try await withDeadline(timeout, timeoutError: timedOut) {
            var data = Data()
            for try await chunk in whole { data.append(chunk) }
            return HTTPResult(response: response, body: data)
        }
    }

    /// `chunks`, failing with `error` once they add up to more than `maxBytes` (whether or not
    /// the HTTP client stopped there itself).
    static func sizeLimited(
        _ chunks: AsyncThrowingStream<Data, any Error>, maxBytes: Int, error: BatonError
    ) -> AsyncThrowingStream<Data, any Error> {
        // Back-pressured: a chunk is read from `chunks` only when the one before was taken.
        BackPressuredStream.make(capacity: 1) { send in
            var total = 0
            for try await chunk in chunks {
                total += chunk.count
                guard total <= maxBytes else { throw error }
                guard await send(chunk) else { return }
            }
        }
    }

    /// A failure as the caller sees it: cancellation as `CancellationError`, a timeout as
    /// ``BatonError/timedOut(operationName:after:)``, other transport errors as ``BatonError/network(operationName:underlying:)``.
    static func classify(_ error: any Error, for request: GraphQLRequest) -> any Error {
        if error is BatonError || error is CancellationError { return error }
        if let limit = error as? HTTPClientLimitError {
            let name = request.operationName
            switch limit {
            case .responseTooLarge(let bytes): return BatonError.responseTooLarge(operationName: name, limit: bytes)
            case .tooManyRedirects(let count): return BatonError.tooManyRedirects(operationName: name, limit: count)
            case .redirectRefused(let status, let location, let reason):
                return BatonError.redirectRefused(operationName: name, status: status, location: location, reason: reason)
            case .consumerFellBehind(let bytes): return BatonError.consumerFellBehind(operationName: name, limit: bytes)
            }
        }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled where Task.isCancelled: return CancellationError()
            case .timedOut: return BatonError.timedOut(operationName: request.operationName, after: request.timeout ?? .zero)
            default: break
            }
        }
        if Task.isCancelled { return CancellationError() }
        return BatonError.network(operationName: request.operationName, underlying: error)
    }

    /// `chunks`, failing with `timeoutError()` when no chunk arrives for `limit`, and with its
    /// own failures classified as for the response head.
    static func idleLimited(
        _ chunks: AsyncThrowingStream<Data, any Error>, limit: Duration?, timeoutError: @escaping @Sendable () -> any Error,
        for request: GraphQLRequest
    ) -> AsyncThrowingStream<Data, any Error> {
        // Back-pressured: a chunk is read only when the one before was taken, and only the wait
        // for the server counts against `limit`, not the wait for the consumer.
        return BackPressuredStream.make(capacity: 1) { send in
            var iterator = chunks.makeAsyncIterator()
            do {
                while true {
                    let box = UncheckedSendableBox(iterator)
                    let (next, advanced) = try await withDeadline(limit, timeoutError: timeoutError) {
                        var iterator = box.value
                        let chunk = try await iterator.next()
                        return (chunk, UncheckedSendableBox(iterator))
                    }
                    iterator = advanced.value
                    guard let next else { return }
                    guard await send(next) else { return }
                }
            } catch {
                throw classify(error, for: request)
            }
        }
    }

    /// `chunks`, reporting each chunk's size to `count` as it passes.
    static func counted(
        _ chunks: AsyncThrowingStream<Data, any Error>, count: @escaping @Sendable (Int) -> Void
    ) -> AsyncThrowingStream<Data, any Error> {
        BackPressuredStream.make(capacity: 1) { send in
            for try await chunk in chunks {
                count(chunk.count)
                guard await send(chunk) else { return }
            }
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

    /// RFC 3986's unreserved characters: what a GET request's parameter values keep unescaped.
    static let unreservedCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The URL of a GET request: `query`, `operationName`, `variables` and `extensions` (JSON)
    /// as query parameters, percent-encoded so `+`, `&` and `=` survive.
    static func getURL(for request: GraphQLRequest) -> URL {
        var parameters: [(String, String)] = []
        if request.sendsDocument { parameters.append(("query", request.document)) }
        parameters.append(("operationName", request.operationName))
        if !request.variables.isEmpty { parameters.append(("variables", JSONValue.object(request.variables).serializedString())) }
        if !request.extensions.isEmpty { parameters.append(("extensions", JSONValue.object(request.extensions).serializedString())) }
        let query = parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: unreservedCharacters) ?? "")"
        }.joined(separator: "&")
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let existing = components?.percentEncodedQuery.map { $0 + "&" } ?? ""
        components?.percentEncodedQuery = existing + query
        return components?.url ?? request.url
    }
}

/// Carries a stream iterator into the task that waits for its next element; only one task uses
/// it at a time.
private struct UncheckedSendableBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
