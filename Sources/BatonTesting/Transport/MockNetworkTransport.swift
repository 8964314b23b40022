import Baton
import BatonAPI
import BatonStore

/// A transport for tests that never touches the network: it answers each operation with the
/// next response enqueued for its type, else with its handler, and records every request it
/// saw. Give it to a real `BatonClient` (and store) to test an app's GraphQL code with no server.
///
/// ```swift
/// let transport = MockNetworkTransport()
/// let client = BatonClient(networkTransport: transport)
/// transport.enqueue(try HeroQuery.Data.from(Mock<Query>(hero: Mock<Droid>(name: "R2-D2"))), for: HeroQuery.self)
/// let result = try await client.fetch(query: HeroQuery())
/// #expect(transport.requests.map(\.operationName) == ["Hero"])
/// ```
///
/// Subscriptions receive every response enqueued for their type, in order, then finish.
/// Thread-safe: its state is behind a lock, so tests may enqueue while the client sends.
public final class MockNetworkTransport: UploadingNetworkTransport, SubscriptionNetworkTransport, Sendable {
    /// Answers an operation no enqueued response is waiting for: returns a response body
    /// (`["data": …]`) or throws the transport error to report.
    public typealias Handler = @Sendable (MockRequest) async throws -> JSONObject

    private enum Reply: Sendable {
        case body(JSONObject, HTTPResponse? = nil)
        case failure(any Error)
    }

    private struct State {
        var replies: [ObjectIdentifier: [Reply]] = [:]
        var requests: [MockRequest] = []
        var handler: Handler?
    }

    private let state: Locked<State>

    /// A transport with nothing enqueued, answering from `handler` (if given) when nothing is.
    public init(handler: Handler? = nil) {
        state = Locked(State(handler: handler))
    }

    /// Replaces the handler; `nil` removes it.
    public func setHandler(_ handler: Handler?) {
        state.withLock { $0.handler = handler }
    }

    /// Enqueues a response body (`data`, `errors`, `extensions`) for the next operation of this type.
    public func enqueue<Operation: GraphQLOperation>(body: JSONObject, for operation: Operation.Type) {
        append(.body(body), for: operation)
    }

    /// Enqueues a response body with an HTTP head (its status and header fields: a
    /// `Cache-Control` the client should honour) for the next operation of this type.
    public func enqueue<Operation: GraphQLOperation>(body: JSONObject, headerFields: HTTPFields, status: HTTPResponse.Status = .ok, for operation: Operation.Type) {
        append(.body(body, HTTPResponse(status: status, headerFields: headerFields)), for: operation)
    }

    /// Enqueues data (built with its initializer or `Data.from(mock)`), and GraphQL errors beside
    /// it, for the next operation of this type.
    public func enqueue<Operation: GraphQLOperation>(_ data: Operation.Data, errors: [GraphQLError] = [], for operation: Operation.Type) {
        var body: JSONObject = ["data": .object(data.jsonObject)]
        if !errors.isEmpty { body["errors"] = .list(errors.map(Self.json)) }
        append(.body(body), for: operation)
    }

    /// Enqueues GraphQL errors with no data (`"data": null`) for the next operation of this type.
    public func enqueue<Operation: GraphQLOperation>(errors: [GraphQLError], for operation: Operation.Type) {
        append(.body(["data": .null, "errors": .list(errors.map(Self.json))]), for: operation)
    }

    /// Enqueues a transport failure: the next operation of this type throws `error`.
    public func enqueue<Operation: GraphQLOperation>(failure error: any Error, for operation: Operation.Type) {
        append(.failure(error), for: operation)
    }

    /// Every request seen so far, in the order they were sent.
    public var requests: [MockRequest] {
        state.withLock { $0.requests }
    }

    /// The operations of one type seen so far, in order.
    public func requests<Operation: GraphQLOperation>(of type: Operation.Type) -> [Operation] {
        requests.compactMap { $0.operation(as: type) }
    }

    /// How many enqueued responses are still waiting, for every operation type.
    public var pendingResponseCount: Int {
        state.withLock { $0.replies.values.reduce(0) { $0 + $1.count } }
    }

    /// Forgets the recorded requests (enqueued responses stay).
    public func clearRequests() {
        state.withLock { $0.requests.removeAll() }
    }

    /// Answers with the next response enqueued for the operation's type, else the handler's.
    public func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse {
        try await answer(MockRequest(operation: operation), type: Operation.self)
    }

    /// Answers an upload as ``send(operation:)`` does; the request records the files.
    public func upload<Operation: GraphQLOperation>(operation: Operation, files: [GraphQLFile]) async throws -> GraphQLResponse {
        try await answer(MockRequest(operation: operation, files: files), type: Operation.self)
    }

    /// Every response enqueued for the subscription's type, in order, then the end (or the first
    /// enqueued failure).
    public func subscribe<Subscription: GraphQLSubscription>(subscription: Subscription) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let request = MockRequest(operation: subscription)
        let replies = state.withLock { state in
            state.requests.append(request)
            return state.replies.removeValue(forKey: ObjectIdentifier(Subscription.self)) ?? []
        }
        return AsyncThrowingStream { continuation in
            for reply in replies {
                switch reply {
                case .body(let body, let head):
                    continuation.yield(GraphQLResponse(body: body, httpResponse: head))
                case .failure(let error):
                    continuation.finish(throwing: error)
                    return
                }
            }
            continuation.finish()
        }
    }

    private func append<Operation: GraphQLOperation>(_ reply: Reply, for operation: Operation.Type) {
        state.withLock { $0.replies[ObjectIdentifier(operation), default: []].append(reply) }
    }

    private func answer<Operation: GraphQLOperation>(_ request: MockRequest, type: Operation.Type) async throws -> GraphQLResponse {
        let key = ObjectIdentifier(type)
        let (reply, handler) = state.withLock { state -> (Reply?, Handler?) in
            state.requests.append(request)
            guard var queue = state.replies[key], !queue.isEmpty else { return (nil, state.handler) }
            let reply = queue.removeFirst()
            state.replies[key] = queue.isEmpty ? nil : queue
            return (reply, state.handler)
        }
        switch reply {
        case .body(let body, let head)?:
            return GraphQLResponse(body: body, httpResponse: head)
        case .failure(let error)?:
            throw error
        case nil:
            guard let handler else { throw MockNetworkTransportError(operationName: request.operationName) }
            return GraphQLResponse(body: try await handler(request))
        }
    }

    /// A GraphQL error as a response's `errors` carry it.
    static func json(_ error: GraphQLError) -> JSONValue {
        var object: JSONObject = ["message": .string(error.message)]
        if let locations = error.locations {
            object["locations"] = .list(locations.map { ["line": .int($0.line), "column": .int($0.column)] })
        }
        if let path = error.path {
            object["path"] = .list(
                path.components.map { component in
                    switch component {
                    case .key(let key): return .string(key)
                    case .index(let index): return .int(index)
                    }
                })
        }
        if let extensions = error.extensions { object["extensions"] = .object(extensions) }
        return .object(object)
    }
}
