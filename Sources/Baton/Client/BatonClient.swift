import BatonAPI
import Dispatch
import Foundation
import HTTPTypes
import Logging
@_exported import BatonStore
// An interceptor or an HTTPClient works with HTTPTypes' `HTTPFields`, `HTTPRequest` and
// `HTTPResponse`: `import Baton` is enough to write one.
@_exported import HTTPTypes

/// The client apps talk to: fetch queries, perform mutations, watch the store.
///
/// ```swift
/// let client = BatonClient(url: URL(string: "http://127.0.0.1:4000/graphql")!)
/// let result = try await client.fetch(query: HeroNameQuery(episode: .empire))
/// print(result.data?.hero?.name ?? "none", result.errors ?? [], result.source)
/// ```
///
/// Every server response is normalized into ``store`` (unless the cache policy says not to),
/// so every query and watcher sees one consistent truth. A transport or parse failure throws a
/// ``BatonError``; a response with GraphQL `errors` is a result whose `errors` are set, with any
/// partial `data`.
public final class BatonClient: Sendable {
    public let networkTransport: any NetworkTransport
    /// The normalized store that server responses are published to.
    public let store: Store

    /// A client over HTTP to `url`, with optional fixed headers, interceptors, a preflight step
    /// that runs after them (before the persisted-query step), and a store (in memory by default,
    /// made with `sensitiveData`). `timeout`, `useGETForQueries`, `autoPersistQueries`,
    /// `useGETForPersistedQueryRetry`, `persistedQueriesOnly`, `wireInterceptors`, `retryPolicy`,
    /// `sensitiveData` and `logger` are those of ``RequestChainNetworkTransport``:
    /// `wireInterceptors` run last, after the persisted-query step, and see each request as it
    /// goes on the wire. A store passed in keeps its
    /// own ``Store/sensitiveData``: give it the same.
    public convenience init(
        url: URL,
        store: Store? = nil,
        headerFields: HTTPFields = [:],
        interceptors: [any GraphQLInterceptor] = [],
        httpClient: any HTTPClient = URLSessionHTTPClient(),
        timeout: Duration? = nil,
        useGETForQueries: Bool = false,
        autoPersistQueries: Bool = false,
        useGETForPersistedQueryRetry: Bool = false,
        persistedQueriesOnly: Bool = false,
        wireInterceptors: [any GraphQLInterceptor] = [],
        retryPolicy: RetryPolicy? = nil,
        sensitiveData: SensitiveData = .default,
        logger: Logger = Logger(label: "Baton.HTTP"),
        preflight: PreflightInterceptor.Decide? = nil
    ) {
        var chain = interceptors
        if let preflight { chain.append(PreflightInterceptor(preflight)) }
        self.init(
            networkTransport: RequestChainNetworkTransport(
                url: url, headerFields: headerFields, interceptors: chain, httpClient: httpClient, timeout: timeout,
                useGETForQueries: useGETForQueries, autoPersistQueries: autoPersistQueries,
                useGETForPersistedQueryRetry: useGETForPersistedQueryRetry, persistedQueriesOnly: persistedQueriesOnly,
                wireInterceptors: wireInterceptors, retryPolicy: retryPolicy, sensitiveData: sensitiveData, logger: logger),
            store: store ?? Store(sensitiveData: sensitiveData))
    }

    public init(networkTransport: any NetworkTransport, store: Store = Store()) {
        self.networkTransport = networkTransport
        self.store = store
    }

    /// Fetches a query as `cachePolicy` says. With `.returnCacheDataAndFetch`, this returns the
    /// cached data when there is some and fetches in the background (watchers see the response);
    /// use ``fetchResults(query:cachePolicy:)`` to get both results.
    public func fetch<Query: GraphQLQuery>(
        query: Query, cachePolicy: CachePolicy = .default
    ) async throws -> GraphQLResult<Query.Data> {
        switch cachePolicy {
        case .returnCacheDataElseFetch:
            if let cached = cachedResult(for: query, requireFresh: true) { return cached }
            return try await fetchFromServer(query, writeToStore: true)
        case .fetchIgnoringCacheData:
            return try await fetchFromServer(query, writeToStore: true)
        case .fetchIgnoringCacheCompletely:
            return try await fetchFromServer(query, writeToStore: false)
        case .returnCacheDataDontFetch:
            guard let cached = cachedResult(for: query, requireFresh: false) else {
                throw BatonError.cacheMiss(operationName: Query.operationName)
            }
            return cached
        case .returnCacheDataAndFetch:
            guard let cached = cachedResult(for: query, requireFresh: false) else {
                return try await fetchFromServer(query, writeToStore: true)
            }
            Task { _ = try? await self.fetchFromServer(query, writeToStore: true) }
            return cached
        }
    }

    /// Every result `cachePolicy` gives, in order: with `.returnCacheDataAndFetch`, the cached
    /// result (when there is one) and then the server's. An incremental response (`@defer`,
    /// `@stream`) gives one result per part, each normalized into the store; deferred fragments
    /// that have not arrived read as `nil`.
    public func fetchResults<Query: GraphQLQuery>(
        query: Query, cachePolicy: CachePolicy = .default
    ) -> AsyncThrowingStream<GraphQLResult<Query.Data>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    switch cachePolicy {
                    case .returnCacheDataAndFetch:
                        if let cached = self.cachedResult(for: query, requireFresh: false) { continuation.yield(cached) }
                        try await self.fetchIncrementally(query, writeToStore: true) { continuation.yield($0) }
                    case .returnCacheDataElseFetch:
                        if let cached = self.cachedResult(for: query, requireFresh: true) {
                            continuation.yield(cached)
                        } else {
                            try await self.fetchIncrementally(query, writeToStore: true) { continuation.yield($0) }
                        }
                    case .fetchIgnoringCacheData, .fetchIgnoringCacheCompletely:
                        try await self.fetchIncrementally(query, writeToStore: cachePolicy == .fetchIgnoringCacheData) {
                            continuation.yield($0)
                        }
                    case .returnCacheDataDontFetch:
                        continuation.yield(try await self.fetch(query: query, cachePolicy: cachePolicy))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Performs a mutation and publishes its response to the store.
    public func perform<Mutation: GraphQLMutation>(mutation: Mutation) async throws -> GraphQLResult<Mutation.Data> {
        let response = try await networkTransport.send(operation: mutation)
        let result = try response.result(for: mutation, source: .server)
        publish(response, for: mutation, fetched: false)
        return readBackIfNeeded(result, for: mutation)
    }

    /// Fetches a query as `cachePolicy` says, then emits again each time the store changes what
    /// it reads (a mutation, another query, a cache write). Its records are retained while the
    /// sequence is consumed. A failed fetch ends the sequence with the error.
    public func watch<Query: GraphQLQuery>(
        query: Query, cachePolicy: CachePolicy = .default
    ) -> AsyncThrowingStream<GraphQLResult<Query.Data>, any Error> {
        AsyncThrowingStream { continuation in
            let descriptor = OperationDescriptor(operation: query)
            let variables = query.variablesJSON
            let token = store.retain(descriptor)
            let quiet = Locked(false)
            let (_, subscription) = store.subscribe(descriptor) { read in
                guard !quiet.withLock({ $0 }), !read.isMissing, let object = read.data,
                    let data = try? Query.Data(jsonObject: object, variables: variables)
                else { return }
                continuation.yield(GraphQLResult(data: data, errors: nil, extensions: nil, source: .cache))
            }
            let task = Task {
                do {
                    let fresh = self.store.check(descriptor) == .available
                    var fetch = true
                    switch cachePolicy {
                    case .returnCacheDataElseFetch:
                        if fresh, let cached = self.cachedResult(for: query, requireFresh: false) {
                            continuation.yield(cached)
                            fetch = false
                        }
                    case .returnCacheDataAndFetch:
                        if let cached = self.cachedResult(for: query, requireFresh: false) { continuation.yield(cached) }
                    case .returnCacheDataDontFetch:
                        fetch = false
                        if let cached = self.cachedResult(for: query, requireFresh: false) {
                            continuation.yield(cached)
                        } else {
                            throw BatonError.cacheMiss(operationName: Query.operationName)
                        }
                    case .fetchIgnoringCacheData, .fetchIgnoringCacheCompletely:
                        break
                    }
                    if fetch {
                        let response = try await self.networkTransport.send(operation: query)
                        let result = try response.result(for: query, source: .server)
                        if cachePolicy != .fetchIgnoringCacheCompletely {
                            // The watcher would see this publish as a change: the server result says it.
                            quiet.withLock { $0 = true }
                            self.publish(response, for: query, fetched: true)
                            quiet.withLock { $0 = false }
                        }
                        continuation.yield(result)
                    }
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                task.cancel()
                subscription.cancel()
                token.release()
            }
        }
    }

    /// Fetches a query and delivers the outcome on `queue`; with `.returnCacheDataAndFetch`
    /// the handler is called for the cached result and again for the server's.
    @discardableResult
    public func fetch<Query: GraphQLQuery>(
        query: Query,
        cachePolicy: CachePolicy = .default,
        queue: DispatchQueue = .main,
        resultHandler: @escaping @Sendable (Result<GraphQLResult<Query.Data>, any Error>) -> Void
    ) -> any Cancellable {
        let task = Task {
            do {
                for try await result in self.fetchResults(query: query, cachePolicy: cachePolicy) {
                    queue.async { resultHandler(.success(result)) }
                }
            } catch {
                queue.async { resultHandler(.failure(error)) }
            }
        }
        return TaskCancellable(task: task)
    }

    /// Performs a mutation and delivers the outcome on `queue`. Cancel through the returned handle.
    @discardableResult
    public func perform<Mutation: GraphQLMutation>(
        mutation: Mutation,
        queue: DispatchQueue = .main,
        resultHandler: @escaping @Sendable (Result<GraphQLResult<Mutation.Data>, any Error>) -> Void
    ) -> any Cancellable {
        let task = Task {
            let result: Result<GraphQLResult<Mutation.Data>, any Error>
            do {
                result = .success(try await self.perform(mutation: mutation))
            } catch {
                result = .failure(error)
            }
            queue.async { resultHandler(result) }
        }
        return TaskCancellable(task: task)
    }

    // MARK: The one path to the server and the store

    private func fetchFromServer<Query: GraphQLQuery>(
        _ query: Query, writeToStore: Bool
    ) async throws -> GraphQLResult<Query.Data> {
        let response = try await networkTransport.send(operation: query)
        let result = try response.result(for: query, source: .server)
        if writeToStore {
            publish(response, for: query, fetched: true)
            // Keep the query's records in the release buffer for later cache hits.
            store.retain(OperationDescriptor(operation: query)).release()
            return readBackIfNeeded(result, for: query)
        }
        return result
    }

    /// For operations that select `__id` or `@connection` fields, the data as the store holds it
    /// after the response was published (connection pages merged, record IDs filled in), as
    /// Relay reads it; other results are the response's own data.
    func readBackIfNeeded<Operation: GraphQLOperation>(
        _ result: GraphQLResult<Operation.Data>, for operation: Operation
    ) -> GraphQLResult<Operation.Data> {
        guard result.data != nil, Operation.Data.__selections.needsStore else { return result }
        let read = store.read(OperationDescriptor(operation: operation))
        guard !read.isMissing, let object = read.data,
            let data = try? Operation.Data(jsonObject: object, variables: operation.variablesJSON)
        else { return result }
        return GraphQLResult(data: data, errors: result.errors, extensions: result.extensions, source: result.source)
    }

    /// Normalizes a server response into the store; fields reported in `errors` are not written.
    func publish<Operation: GraphQLOperation>(_ response: GraphQLResponse, for operation: Operation, fetched: Bool) {
        guard let data = response.body["data"]?.objectValue else { return }
        let errorPaths = response.body["errors"]?.listValue?.compactMap { GraphQLError(json: $0).path } ?? []
        store.publish(data: data, for: OperationDescriptor(operation: operation), errorPaths: errorPaths, fetched: fetched)
    }

    /// The query's data from the store, if complete (and fresh when asked).
    private func cachedResult<Query: GraphQLQuery>(for query: Query, requireFresh: Bool) -> GraphQLResult<Query.Data>? {
        let descriptor = OperationDescriptor(operation: query)
        if requireFresh && store.check(descriptor) != .available { return nil }
        guard let data = try? store.read(query: query) else { return nil }
        return GraphQLResult(data: data, errors: nil, extensions: nil, source: .cache)
    }
}

/// A handle to an operation in flight.
public protocol Cancellable: Sendable {
    func cancel()
}

struct TaskCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() { task.cancel() }
}
