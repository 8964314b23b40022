// `import Baton` is enough for an app, as `import Apollo` is for Apollo iOS's users: the
// operation protocols, results, `GraphQLID`, `DataID` and the store come with it.
@_exported import BatonAPI
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
    /// Where the client reports what no caller is waiting for.
    public let logger: Logger
    /// Where each operation's span and metrics go (`nil`: nowhere; `BatonTelemetry` from the
    /// `BatonInstrumentation` product reports to swift-distributed-tracing and swift-metrics).
    public let telemetry: (any OperationTelemetry)?
    /// The variables whose values the client's telemetry never records (the store's own when the
    /// client was not given any).
    public let sensitiveData: SensitiveData
    /// The watches that query observers share (one per query, variables and cache policy).
    let sharedWatches = SharedQueryWatches()
    /// The last response to each query request, kept to recognize a refetch that repeats it.
    let keptResponses: KeptResponses
    /// How many responses the receive took as the transport's reading of their bytes prepared
    /// them (``ParsedResponseBody/reader``), without executing them again.
    let bodiesReadFromBytes = Locked(0)

    /// A client over HTTP to `url`: each argument is the field of ``Configuration`` of the same
    /// name (see there), and `store` is in memory by default, made with `sensitiveData`. The
    /// same client as `BatonClient(url:store:configuration:)`.
    ///
    /// `sensitiveData` is never ignored: the transport's logs and the client's telemetry redact
    /// it, and the store made when `store` is `nil` is made with it. A `store` passed in was made
    /// with its own `Store.sensitiveData`, which it keeps for what the store itself logs; leave
    /// `sensitiveData` out (`nil`) to use the store's everywhere.
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
        sensitiveData: SensitiveData? = nil,
        limits: ResponseLimits = .default,
        logger: Logger = Logger(label: "Baton.HTTP"),
        subscriptionProtocol: HTTPSubscriptionProtocol? = nil,
        telemetry: (any OperationTelemetry)? = nil,
        preflight: PreflightInterceptor.Decide? = nil,
        keptResponseBytes: Int = 1_000_000
    ) {
        self.init(
            url: url, store: store,
            configuration: Configuration(
                headerFields: headerFields, interceptors: interceptors, httpClient: httpClient, timeout: timeout,
                useGETForQueries: useGETForQueries, autoPersistQueries: autoPersistQueries,
                useGETForPersistedQueryRetry: useGETForPersistedQueryRetry, persistedQueriesOnly: persistedQueriesOnly,
                wireInterceptors: wireInterceptors, retryPolicy: retryPolicy, sensitiveData: sensitiveData, limits: limits,
                logger: logger, subscriptionProtocol: subscriptionProtocol, telemetry: telemetry, preflight: preflight,
                keptResponseBytes: keptResponseBytes))
    }

    /// A client over any transport and store. `logger` hears what no caller is waiting for
    /// (a background fetch's failure); `telemetry` receives a span and metrics per operation
    /// (give the transport the same, so its requests carry the span's context), redacting
    /// `sensitiveData` (`nil`: the store's).
    ///
    /// The client keeps the last response to each query request that its transport read whole
    /// over HTTP, up to `keptResponseBytes` bytes of response bodies (1 MB by default: a few
    /// hundred typical responses; least recently used go first; each also holds its parsed tree
    /// and executed payload, a few times its size; 0 keeps none). A refetch whose response is exactly the same bytes is then neither parsed
    /// nor executed again: its kept payload is committed to the store as the first one was (so
    /// the store, its watchers and its persistent cache see what any response would give them)
    /// and its kept data is the result.
    public init(
        networkTransport: any NetworkTransport, store: Store = Store(), logger: Logger = Logger(label: "Baton.client"),
        telemetry: (any OperationTelemetry)? = nil, sensitiveData: SensitiveData? = nil, keptResponseBytes: Int = 1_000_000
    ) {
        self.networkTransport = networkTransport
        self.store = store
        self.logger = logger
        self.telemetry = telemetry
        self.sensitiveData = sensitiveData ?? store.sensitiveData
        keptResponses = KeptResponses(limit: keptResponseBytes)
    }

    /// Fetches a query as `cachePolicy` says: one result. `.returnCacheDataAndFetch` gives two
    /// (the cached result, then the server's or its error), so it is not offered here: use
    /// ``fetchResults(query:cachePolicy:maxStale:)``, `watch(query:cachePolicy:)` or the callback form,
    /// which deliver both.
    ///
    /// `maxStale` is how long past its max age cached data may still answer as a hit, flagged
    /// `GraphQLResult.isStale` (`nil`: the store's `CacheFreshness.maxStale`).
    public func fetch<Query: GraphQLQuery>(
        query: Query, cachePolicy: SingleResultCachePolicy = .default, maxStale: Duration? = nil
    ) async throws -> GraphQLResult<Query.Data> {
        try await observing(query) {
            try await self.fetchUnobserved(query: query, cachePolicy: cachePolicy.cachePolicy, maxStale: maxStale)
        }
    }

    private func fetchUnobserved<Query: GraphQLQuery>(
        query: Query, cachePolicy: CachePolicy, maxStale: Duration?
    ) async throws -> GraphQLResult<Query.Data> {
        let policy = Self.effectivePolicy(cachePolicy, for: Query.self)
        let cached = cacheAnswer(for: query, policy: policy, maxStale: maxStale)
        let plan = CachePolicyPlan(policy, hasData: cached.result != nil || cached.thrown != nil, isFresh: cached.isFresh)
        if plan.answersFromCache, let thrown = cached.thrown { throw thrown }
        if plan.answersFromCache, let result = cached.result {
            // A single-result policy never fetches after answering from the cache.
            assert(!plan.fetches, "\(policy) gives two results")
            return result
        }
        guard plan.fetches else { throw BatonError.cacheMiss(operationName: Query.operationName) }
        return try await fetchFromServer(query, writeToStore: plan.writesToStore)
    }

    /// Every result `cachePolicy` gives, in order: with `.returnCacheDataAndFetch`, the cached
    /// result (when there is one) and then the server's, or the server's error. An incremental
    /// response (`@defer`, `@stream`) gives one result per part, each normalized into the store;
    /// deferred fragments that have not arrived read as `nil`. `maxStale` is as for
    /// ``fetch(query:cachePolicy:maxStale:)``.
    public func fetchResults<Query: GraphQLQuery>(
        query: Query, cachePolicy: CachePolicy = .default, maxStale: Duration? = nil
    ) -> AsyncThrowingStream<GraphQLResult<Query.Data>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                let observation = self.telemetry?.start(query, sensitiveData: self.sensitiveData)
                let deliver: (GraphQLResult<Query.Data>) -> Void = { result in
                    observation?.received(fromCache: result.source == .cache, graphQLErrors: result.errors)
                    continuation.yield(result)
                }
                do {
                    try await withContext(of: observation) {
                        let policy = Self.effectivePolicy(cachePolicy, for: Query.self)
                        let cached = self.cacheAnswer(for: query, policy: policy, maxStale: maxStale)
                        let plan = CachePolicyPlan(
                            policy, hasData: cached.result != nil || cached.thrown != nil, isFresh: cached.isFresh)
                        if plan.answersFromCache, let thrown = cached.thrown, !plan.fetches { throw thrown }
                        if plan.answersFromCache, let result = cached.result { deliver(result) }
                        if plan.isMiss { throw BatonError.cacheMiss(operationName: Query.operationName) }
                        if plan.fetches {
                            try await self.fetchIncrementally(query, writeToStore: plan.writesToStore) { deliver($0) }
                        }
                    }
                    observation?.finish()
                    continuation.finish()
                } catch {
                    observation?.finish(error: error)
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Performs a mutation and publishes its response to the store.
    public func perform<Mutation: GraphQLMutation>(mutation: Mutation) async throws -> GraphQLResult<Mutation.Data> {
        try await observing(mutation) {
            let response = try await self.expectingKeptBody(for: mutation) { try await self.networkTransport.send(operation: mutation) }
            return try self.receive(response, for: mutation)
        }
    }

    /// Sends `operation` over the network transport as one observed operation (a watch's fetch,
    /// a mutator's commit): its span is current while it is sent, its response counted.
    func sendObserved<Operation: GraphQLOperation>(_ operation: Operation) async throws -> GraphQLResponse {
        guard let observation = telemetry?.start(operation, sensitiveData: sensitiveData) else {
            return try await send(operation)
        }
        do {
            let response = try await observation.withContext { try await self.send(operation) }
            observation.received(fromCache: false, graphQLErrors: response.body["errors"]?.listValue?.map(GraphQLError.init(json:)))
            observation.finish()
            return response
        } catch {
            observation.finish(error: error)
            throw error
        }
    }

    /// Runs `body` as one observed operation: a span around it (current while it runs, so
    /// requests carry it) and its metrics.
    func observing<Operation: GraphQLOperation, Data>(
        _ operation: Operation, _ body: () async throws -> GraphQLResult<Data>
    ) async throws -> GraphQLResult<Data> {
        guard let observation = telemetry?.start(operation, sensitiveData: sensitiveData) else {
            return try await body()
        }
        do {
            let result = try await observation.withContext(body)
            observation.received(fromCache: result.source == .cache, graphQLErrors: result.errors)
            observation.finish()
            return result
        } catch {
            observation.finish(error: error)
            throw error
        }
    }

    // MARK: Callback forms, as Apollo iOS's

    /// Fetches a query and calls `resultHandler` on the main actor (Apollo iOS's default, the
    /// main queue) with each outcome: with `.returnCacheDataAndFetch`, the cached result and
    /// then the server's, or the server's error. The handler may use the main actor's state (a
    /// view controller's methods). Cancel through the returned handle.
    ///
    /// ```swift
    /// client.fetch(query: HeroNameQuery(episode: .empire)) { result in
    ///     guard let data = try? result.get().data else { return }
    ///     print(data.hero?.name ?? "nobody")
    /// }
    /// ```
    @discardableResult
    public func fetch<Query: GraphQLQuery>(
        query: Query,
        cachePolicy: CachePolicy = .default,
        resultHandler: @escaping @MainActor @Sendable (Result<GraphQLResult<Query.Data>, any Error>) -> Void
    ) -> any Cancellable {
        deliver(fetchResults(query: query, cachePolicy: cachePolicy), onMainActor: resultHandler)
    }

    /// Fetches a query and calls `resultHandler` on the main actor with each outcome, as
    /// ``fetch(query:cachePolicy:resultHandler:)`` does: `queue: .main` written out (Apollo
    /// iOS's default), with a handler that may use the main actor's state.
    @discardableResult
    public func fetch<Query: GraphQLQuery>(
        query: Query,
        cachePolicy: CachePolicy = .default,
        queue: MainActorQueue,
        resultHandler: @escaping @MainActor @Sendable (Result<GraphQLResult<Query.Data>, any Error>) -> Void
    ) -> any Cancellable {
        fetch(query: query, cachePolicy: cachePolicy, resultHandler: resultHandler)
    }

    /// Fetches a query and calls `resultHandler` on `queue` with each outcome (with
    /// `.returnCacheDataAndFetch`, the cached result and then the server's, or the error).
    @_disfavoredOverload
    @discardableResult
    public func fetch<Query: GraphQLQuery>(
        query: Query,
        cachePolicy: CachePolicy = .default,
        queue: DispatchQueue,
        resultHandler: @escaping @Sendable (Result<GraphQLResult<Query.Data>, any Error>) -> Void
    ) -> any Cancellable {
        deliver(fetchResults(query: query, cachePolicy: cachePolicy), on: queue, resultHandler)
    }

    /// Performs a mutation and calls `resultHandler`, when given, on the main actor with the
    /// outcome; without one, the mutation is sent and its response published to the store all
    /// the same (a failure is logged to ``logger``). Cancel through the returned handle.
    ///
    /// ```swift
    /// client.perform(mutation: UpvotePostMutation(postId: 1)) { result in
    ///     guard let data = try? result.get().data else { return }
    ///     print(data.upvotePost?.votes ?? 0)
    /// }
    /// ```
    @discardableResult
    public func perform<Mutation: GraphQLMutation>(
        mutation: Mutation,
        resultHandler: (@MainActor @Sendable (Result<GraphQLResult<Mutation.Data>, any Error>) -> Void)? = nil
    ) -> any Cancellable {
        let operation = single { try await self.perform(mutation: mutation) }
        guard let resultHandler else { return deliver(operation, logging: Mutation.operationName) }
        return deliver(operation, onMainActor: resultHandler)
    }

    /// Performs a mutation and calls `resultHandler`, when given, on the main actor with the
    /// outcome, as ``perform(mutation:resultHandler:)`` does: `queue: .main` written out.
    @discardableResult
    public func perform<Mutation: GraphQLMutation>(
        mutation: Mutation,
        queue: MainActorQueue,
        resultHandler: (@MainActor @Sendable (Result<GraphQLResult<Mutation.Data>, any Error>) -> Void)? = nil
    ) -> any Cancellable {
        perform(mutation: mutation, resultHandler: resultHandler)
    }

    /// Performs a mutation and calls `resultHandler`, when given, on `queue` with the outcome.
    @_disfavoredOverload
    @discardableResult
    public func perform<Mutation: GraphQLMutation>(
        mutation: Mutation,
        queue: DispatchQueue,
        resultHandler: (@Sendable (Result<GraphQLResult<Mutation.Data>, any Error>) -> Void)? = nil
    ) -> any Cancellable {
        let operation = single { try await self.perform(mutation: mutation) }
        guard let resultHandler else { return deliver(operation, logging: Mutation.operationName) }
        return deliver(operation, on: queue, resultHandler)
    }

    /// An operation's one result as a sequence of one.
    func single<Data: RootSelectionSet>(
        _ body: @escaping @Sendable () async throws -> GraphQLResult<Data>
    ) -> AsyncThrowingStream<GraphQLResult<Data>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await body())
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Calls `handler` on the main actor with each result, in order, then with the error if any.
    func deliver<Data: RootSelectionSet>(
        _ results: AsyncThrowingStream<GraphQLResult<Data>, any Error>,
        onMainActor handler: @escaping @MainActor @Sendable (Result<GraphQLResult<Data>, any Error>) -> Void
    ) -> any Cancellable {
        let task = Task {
            do {
                for try await result in results {
                    await MainActor.run { handler(.success(result)) }
                }
            } catch {
                await MainActor.run { handler(.failure(error)) }
            }
        }
        return TaskCancellable(task: task)
    }

    /// Calls `handler` on `queue` with each result, in order, then with the error if any.
    func deliver<Data: RootSelectionSet>(
        _ results: AsyncThrowingStream<GraphQLResult<Data>, any Error>,
        on queue: DispatchQueue,
        _ handler: @escaping @Sendable (Result<GraphQLResult<Data>, any Error>) -> Void
    ) -> any Cancellable {
        let task = Task {
            do {
                for try await result in results {
                    queue.async { handler(.success(result)) }
                }
            } catch {
                queue.async { handler(.failure(error)) }
            }
        }
        return TaskCancellable(task: task)
    }

    /// Runs the operation with no one waiting: a failure is logged to ``logger`` at error level.
    func deliver<Data: RootSelectionSet>(
        _ results: AsyncThrowingStream<GraphQLResult<Data>, any Error>, logging operationName: String
    ) -> any Cancellable {
        let logger = self.logger
        let task = Task {
            do {
                for try await _ in results {}
            } catch {
                logger.error("\(operationName) failed and no result handler was given: \(error)")
            }
        }
        return TaskCancellable(task: task)
    }

    // MARK: The one path to the server and the store

    private func fetchFromServer<Query: GraphQLQuery>(
        _ query: Query, writeToStore: Bool
    ) async throws -> GraphQLResult<Query.Data> {
        try receive(try await send(query), for: query, .fetch(writesToStore: writeToStore))
    }

    /// Sends `operation` over the transport, with the body kept from the last response to the
    /// same request expected (a response with exactly its bytes is not parsed again).
    func send<Operation: GraphQLOperation>(_ operation: Operation) async throws -> GraphQLResponse {
        try await expectingKeptBody(for: operation) { try await networkTransport.send(operation: operation) }
    }

    /// Runs `body` (which sends `operation`) with the body kept from the last response to the
    /// same request as the one the transport expects (``ParsedResponseBody/expected``), and the
    /// store's reading of a whole body's bytes for `operation` as the transport's way to read
    /// one (``ParsedResponseBody/reader``).
    func expectingKeptBody<Operation: GraphQLOperation, T>(
        for operation: Operation, _ body: () async throws -> T
    ) async rethrows -> T {
        let reader = BodyReader(store: store, operation: operation)
        guard let key = keptResponses.key(for: operation), let kept = keptResponses.body(for: key) else {
            return try await ParsedResponseBody.$reader.withValue(reader, operation: body)
        }
        return try await ParsedResponseBody.$expected.withValue(kept) {
            try await ParsedResponseBody.$reader.withValue(reader, operation: body)
        }
    }

    /// ``expectingKeptBody(for:_:)`` for a synchronous `body`: a stream whose producer task
    /// starts inside it (and so inherits the expectation).
    func startExpectingKeptBody<Operation: GraphQLOperation, T>(for operation: Operation, _ body: () throws -> T) rethrows -> T {
        let reader = BodyReader(store: store, operation: operation)
        guard let key = keptResponses.key(for: operation), let kept = keptResponses.body(for: key) else {
            return try ParsedResponseBody.$reader.withValue(reader, operation: body)
        }
        return try ParsedResponseBody.$expected.withValue(kept) { try ParsedResponseBody.$reader.withValue(reader, operation: body) }
    }

    /// How many responses the client recognized as repeats of the last response to their
    /// request, and so neither parsed nor executed again (for tests and the benchmarks).
    package var keptResponseHits: Int { keptResponses.hits }

    /// How many responses' data the store's executor read straight from their bytes, in the
    /// transport's one walk (for tests and the benchmarks).
    package var responsesReadFromBytes: Int { bodiesReadFromBytes.withLock { $0 } }

    /// How many responses the client keeps for that, and their bodies' bytes.
    package var keptResponseUsage: (entries: Int, bytes: Int) { keptResponses.usage }

    /// The cache policy a query is fetched with: a query whose root selects only client-only
    /// fields is never sent (no server has them), so it is answered from the store alone, as
    /// `.returnCacheDataDontFetch` answers (Relay's client-only queries). A client field the
    /// store has no value for reads as null; a non-null one makes the read incomplete, which is
    /// a `BatonError.cacheMiss`.
    static func effectivePolicy<Query: GraphQLQuery>(_ policy: CachePolicy, for query: Query.Type) -> CachePolicy {
        Query.Data.__selections.selectsOnlyClientFields ? .returnCacheDataDontFetch : policy
    }

    /// For operations whose response is not what the store reads (see
    /// `readsBackFromStore(variables:)`: client-only fields, a `@connection` page that merges
    /// into the edges kept, `__id` of a connection or its edges), the data as the store reads it
    /// (connection pages merged, client fields from their records), as Relay reads it, whichever
    /// path the result took: read from
    /// the store after `response` was published to it, or read as if it had been published to an
    /// empty store when it was not (`.fetchIgnoringCacheCompletely`) or the store can no longer
    /// read it whole. Other results are the executor's data (record IDs filled in for `__id`),
    /// which is the same shape.
    func readBackIfNeeded<Operation: GraphQLOperation>(
        _ result: GraphQLResult<Operation.Data>, for operation: Operation, response: GraphQLResponse, published: Bool = true
    ) -> GraphQLResult<Operation.Data> {
        let variables = operation.variablesJSON
        // A first page (or a refetch from the start) replaces the connection's edges with the
        // server's: the executor's data is then what a read would give, with no read back.
        guard result.data != nil, Operation.Data.__selections.readsBackFromStore(variables: variables) else { return result }
        let descriptor = OperationDescriptor(operation: operation)
        if published {
            let read = store.read(descriptor)
            if !read.isMissing, let object = read.data, let data = try? Operation.Data(jsonObject: object, variables: variables) {
                return GraphQLResult(data: data, errors: result.errors, extensions: result.extensions, source: result.source)
            }
        }
        if let object = response.body["data"]?.objectValue,
            let read = store.readDetached(data: object, for: descriptor, errors: result.errors ?? []).data,
            let data = try? Operation.Data(jsonObject: read, variables: variables)
        {
            return GraphQLResult(data: data, errors: result.errors, extensions: result.extensions, source: result.source)
        }
        let problem = GraphQLError(message: "Baton could not read \(Operation.operationName)'s data as the store shapes it")
        return GraphQLResult(data: nil, errors: (result.errors ?? []) + [problem], extensions: result.extensions, source: result.source)
    }

    /// ``cacheAnswer(for:maxStale:)`` when `policy` may answer from the store; nothing (and no
    /// read of the store) when it never does (`.fetchIgnoringCacheData`,
    /// `.fetchIgnoringCacheCompletely`: their plan does not depend on what the store holds).
    func cacheAnswer<Query: GraphQLQuery>(
        for query: Query, policy: CachePolicy, maxStale: Duration?
    ) -> (result: GraphQLResult<Query.Data>?, isFresh: Bool, thrown: BatonError?, staleAt: Date?) {
        guard CachePolicyPlan(policy, hasData: true, isFresh: true).answersFromCache else { return (nil, false, nil, nil) }
        return cacheAnswer(for: query, maxStale: maxStale)
    }

    /// The query's data from the store when it reads whole (fresh or stale, flagged), and
    /// whether it may answer as fresh: available, or stale by age by no more than `maxStale`
    /// (`nil`: the store's). One read decides and answers; `staleAt` is when its data goes stale.
    /// Field errors kept in the store come back as the result's `errors` (paths as this query
    /// reads them). A read that `@throwOnFieldError` or `@required(action: THROW)` fails gives
    /// the failure as `thrown` (and counts as not fresh, so a policy that may fetch does).
    func cacheAnswer<Query: GraphQLQuery>(
        for query: Query, maxStale: Duration? = nil
    ) -> (result: GraphQLResult<Query.Data>?, isFresh: Bool, thrown: BatonError?, staleAt: Date?) {
        let load = store.load(OperationDescriptor(operation: query))
        guard !load.read.isMissing, let object = load.read.data else { return (nil, false, nil, load.read.staleAt) }
        let errors = load.read.fieldErrors.isEmpty ? nil : load.read.fieldErrors
        let read: (matches: Bool, data: Query.Data?, caught: GraphQLFieldError?)
        do {
            read = try typedData(Query.Data.self, unchecked: object, variables: query.variablesJSON, operationName: Query.operationName)
        } catch {
            return (nil, false, error, load.read.staleAt)
        }
        // Records edited into a shape the selections do not allow: not usable, so a miss. A
        // `@required` null that reached the root is an answer with no data.
        guard read.matches else { return (nil, false, nil, load.read.staleAt) }
        let result = GraphQLResult(
            data: read.data, errors: errors, extensions: nil, source: .cache, isStale: load.availability == .stale,
            caughtFieldError: read.caught)
        return (result, load.isUsable(maxStale: maxStale ?? store.freshness.maxStale), nil, load.read.staleAt)
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
