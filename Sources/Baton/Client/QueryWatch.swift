import BatonAPI
import BatonStore
import Foundation

extension BatonClient {
    /// Fetches a query as `cachePolicy` says, then emits again each time the store changes what
    /// it reads (a mutation, another query, a cache write). Its records are retained while the
    /// sequence is consumed.
    ///
    /// - Every emission has the store's shape (`__id` and `@connection` fields as the store reads
    ///   them): the server's answer to the watch's own fetch is emitted once, with source
    ///   `.server`; changes that anything else publishes, even while that fetch is under way,
    ///   are emitted with source `.cache`.
    /// - `.returnCacheDataDontFetch` on a cold store stays open and emits once the data arrives
    ///   from anywhere else.
    /// - When a change leaves the query unreadable (a record it needs is gone or incomplete), the
    ///   watch fetches it again with `.fetchIgnoringCacheData` (Apollo's
    ///   `refetchOnFailedUpdates`), unless the policy is `.returnCacheDataDontFetch` or
    ///   `refetchOnFailedUpdates` is false; then it emits a result without `data` whose error
    ///   says the store can no longer read the query, so "nothing changed" (no emission) and
    ///   "can no longer be read" are told apart.
    /// - When `@required(action: THROW)` or `@throwOnFieldError` fails the read of the store's
    ///   data, the watch emits a result without `data` whose errors are the field errors that
    ///   failed it and one with ``fieldErrorThrownErrorCode``, and does not refetch (the server
    ///   would answer the same); it goes on, and emits again when the data reads.
    /// - A slow consumer gets the newest result: older ones waiting in the buffer are dropped.
    /// - A failed fetch ends the sequence with the error.
    /// - With `refetchWhenStale`, the watch fetches the query again (`.fetchIgnoringCacheData`)
    ///   when the data it emitted goes stale (a field passes its max age, see `CacheFreshness`),
    ///   measured on the store's clock; not with `.returnCacheDataDontFetch`, and not for data that
    ///   was already stale when it arrived (a `max-age=0` response is not fetched in a loop).
    ///   Emissions from the store say whether their data is stale (`GraphQLResult.isStale`).
    /// - `maxStale` is as for ``fetch(query:cachePolicy:maxStale:)``: for the first answer.
    public func watch<Query: GraphQLQuery>(
        query: Query, cachePolicy: CachePolicy = .default, refetchOnFailedUpdates: Bool = true, refetchWhenStale: Bool = false,
        maxStale: Duration? = nil
    ) -> AsyncThrowingStream<GraphQLResult<Query.Data>, any Error> {
        // A query of client-only fields is never sent: it is watched in the store alone.
        let policy = Self.effectivePolicy(cachePolicy, for: Query.self)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: GraphQLResult<Query.Data>.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
        let watch = QueryWatch(
            client: self, query: query, cachePolicy: policy, refetchOnFailedUpdates: refetchOnFailedUpdates,
            refetchWhenStale: refetchWhenStale && policy != .returnCacheDataDontFetch, maxStale: maxStale,
            continuation: continuation)
        watch.start()
        continuation.onTermination = { _ in watch.stop() }
        return stream
    }
}

/// The error of a watch's result when the store can no longer read its query whole.
public let storeCannotReadQueryErrorCode = "BATON_STORE_CANNOT_READ_QUERY"

/// The error of a watch's result when `@required(action: THROW)` or `@throwOnFieldError` fails
/// the read of the store's data (the result has no data; the field errors that failed it come
/// beside this error, and `QueryObserver` shows ``BatonError/fieldErrorThrown(operationName:_:)``).
public let fieldErrorThrownErrorCode = "BATON_FIELD_ERROR_THROWN"

/// One `watch`: its store subscription, retention, and fetches.
final class QueryWatch<Query: GraphQLQuery>: Sendable {
    private struct State {
        var subscription: StoreSubscription?
        var token: RetainToken?
        var fetch: Task<Void, Never>?
        var refetching = false
        var hasEmittedData = false
        /// A change published after the subscription was emitted: the first answer, read before
        /// it, must not follow it (it would stay the last word on stale data).
        var emittedChange = false
        var stopped = false
        /// While the watch publishes its own fetch, changes others publish are held here (the
        /// newest only) and emitted after the server's result, so they are not overtaken by it.
        var publishingOwnFetch = false
        var held: GraphQLResult<Query.Data>?
        /// Waits for the emitted data to go stale, then refetches (with `refetchWhenStale`).
        var staleTimer: Task<Void, Never>?
    }

    private let client: BatonClient
    private let query: Query
    private let descriptor: OperationDescriptor
    private let cachePolicy: CachePolicy
    private let refetchOnFailedUpdates: Bool
    private let refetchWhenStale: Bool
    private let maxStale: Duration?
    private let continuation: AsyncThrowingStream<GraphQLResult<Query.Data>, any Error>.Continuation
    private let state = Locked(State())

    init(
        client: BatonClient, query: Query, cachePolicy: CachePolicy, refetchOnFailedUpdates: Bool, refetchWhenStale: Bool = false,
        maxStale: Duration? = nil, continuation: AsyncThrowingStream<GraphQLResult<Query.Data>, any Error>.Continuation
    ) {
        self.refetchWhenStale = refetchWhenStale
        self.maxStale = maxStale
        self.client = client
        self.query = query
        self.descriptor = OperationDescriptor(operation: query)
        self.cachePolicy = cachePolicy
        self.refetchOnFailedUpdates = refetchOnFailedUpdates
        self.continuation = continuation
    }

    func start() {
        let token = client.store.retain(descriptor)
        let (_, subscription) = client.store.subscribe(descriptor) { [weak self] read in self?.storeChanged(read) }
        state.withLock { state in
            state.subscription = subscription
            state.token = token
        }
        // The first answer: one read decides (the same rule as `fetch`).
        let cached = client.cacheAnswer(for: query, maxStale: maxStale)
        let plan = CachePolicyPlan(cachePolicy, hasData: cached.result != nil || cached.thrown != nil, isFresh: cached.isFresh)
        if plan.answersFromCache, let result = cached.result ?? cached.thrown.map(Self.failedRead) {
            emit(result, unlessAfterAChange: true)
            if !plan.fetches { refetch(whenStaleAt: cached.staleAt) }
        }
        if plan.fetches { fetch(writesToStore: plan.writesToStore, endsOnError: true) }
    }

    /// With `refetchWhenStale`: refetches at `staleAt` (replacing any earlier timer), measured
    /// on the store's clock. Data already stale is not refetched now (its server said so; a loop
    /// would follow).
    private func refetch(whenStaleAt staleAt: Date?) {
        guard refetchWhenStale else { return }
        let clock = client.store.clock
        let due = staleAt.flatMap { $0 > clock.now ? $0 : nil }
        let timer = due.map { due in
            Task { [weak self] in
                do { try await clock.sleep(until: due) } catch { return }
                self?.refetchNow()
            }
        }
        let (old, stopped) = state.withLock { state in
            defer { state.staleTimer = timer }
            return (state.staleTimer, state.stopped)
        }
        old?.cancel()
        if stopped { timer?.cancel() }
    }

    /// Fetches again with `.fetchIgnoringCacheData`, unless a fetch is under way.
    private func refetchNow() {
        let start = state.withLock { state -> Bool in
            guard !state.refetching, !state.stopped else { return false }
            state.refetching = true
            return true
        }
        if start { fetch(writesToStore: true, endsOnError: false) }
    }

    func stop() {
        let (subscription, token, fetch, timer) = state.withLock { state in
            state.stopped = true
            defer {
                state.subscription = nil
                state.token = nil
                state.fetch = nil
                state.staleTimer = nil
            }
            return (state.subscription, state.token, state.fetch, state.staleTimer)
        }
        fetch?.cancel()
        timer?.cancel()
        subscription?.cancel()
        token?.release()
    }

    /// Emits `result`. `unlessAfterAChange`: not when a change was emitted already (the first
    /// answer, read before it); checked and emitted under the lock `storeChanged` marks its
    /// emissions under.
    private func emit(_ result: GraphQLResult<Query.Data>, unlessAfterAChange: Bool = false) {
        state.withLock { state in
            if unlessAfterAChange && state.emittedChange { return }
            if result.data != nil { state.hasEmittedData = true }
            continuation.yield(result)
        }
    }

    /// The result that says `@required(action: THROW)` or `@throwOnFieldError` failed the read
    /// of the store's data: no data, the field errors that failed it and an error with
    /// ``fieldErrorThrownErrorCode``.
    static func failedRead(_ error: BatonError) -> GraphQLResult<Query.Data> {
        guard case .fieldErrorThrown(_, let failure) = error else {
            return GraphQLResult(data: nil, errors: [GraphQLError(message: "\(error)")], extensions: nil, source: .cache)
        }
        let thrown = GraphQLError(
            message: "\(Query.operationName): \(failure)", path: failure.path, extensions: ["code": .string(fieldErrorThrownErrorCode)])
        var result = GraphQLResult<Query.Data>(data: nil, errors: failure.fieldErrors + [thrown], extensions: nil, source: .cache)
        result.readFailure = failure
        return result
    }

    /// A change published by anything but this watch's own fetch.
    private func storeChanged(_ read: ReadResult) {
        var typed: (matches: Bool, data: Query.Data?, caught: GraphQLFieldError?)?
        var thrown: BatonError?
        if !read.isMissing, let object = read.data {
            do {
                typed = try client.typedData(Query.Data.self, unchecked: object, variables: query.variablesJSON, operationName: Query.operationName)
            } catch {
                thrown = error
            }
        }
        if thrown != nil || typed?.matches == true {
            // Field errors kept in the store come with the data they sit in; a read that the
            // field-error directives fail is an answer too (an error, not a miss to refetch).
            let result =
                thrown.map(Self.failedRead)
                ?? GraphQLResult(
                    data: typed?.data, errors: read.fieldErrors.isEmpty ? nil : read.fieldErrors, extensions: nil, source: .cache,
                    isStale: read.isStale(at: client.store.clock.now), caughtFieldError: typed?.caught)
            let held = state.withLock { state -> Bool in
                guard state.publishingOwnFetch else {
                    state.emittedChange = true
                    return false
                }
                state.held = result
                return true
            }
            if !held { emit(result) }
            refetch(whenStaleAt: read.staleAt)
            return
        }
        if refetchOnFailedUpdates && cachePolicy != .returnCacheDataDontFetch {
            refetchNow()
            return
        }
        guard state.withLock({ $0.hasEmittedData }) else { return }  // never readable yet: still waiting
        let error = GraphQLError(
            message: "\(Query.operationName): the store can no longer read this query whole",
            extensions: ["code": .string(storeCannotReadQueryErrorCode)])
        continuation.yield(GraphQLResult(data: nil, errors: [error], extensions: nil, source: .cache))
    }

    /// Fetches from the server; the response is published without notifying this watch and
    /// emitted once as the server's result. The first fetch's failure ends the watch; a refetch's
    /// is logged and the watch goes on.
    private func fetch(writesToStore: Bool, endsOnError: Bool) {
        let task = Task { [client, query] in
            defer { state.withLock { $0.refetching = false } }
            do {
                let response = try await client.sendObserved(query)
                try Task.checkCancellation()
                if writesToStore {
                    let subscription = state.withLock { state in
                        state.publishingOwnFetch = true
                        return state.subscription
                    }
                    let received = Result { try client.receive(response, for: query, Receipt(fetched: true, silencing: subscription)) }
                    // The fetch's own result first, then what others published meanwhile.
                    if case .success(let result) = received { emit(result) }
                    let held = state.withLock { state in
                        state.publishingOwnFetch = false
                        defer { state.held = nil }
                        return state.held
                    }
                    if let held { emit(held) }
                    _ = try received.get()
                    if refetchWhenStale { refetch(whenStaleAt: client.store.read(descriptor).staleAt) }
                } else {
                    emit(try client.receive(response, for: query, .fetch(writesToStore: false)))
                }
            } catch is CancellationError {
                return
            } catch {
                if endsOnError {
                    continuation.finish(throwing: error)
                } else {
                    client.logger.error("\(Query.operationName): the watch's refetch failed: \(error)")
                }
            }
        }
        let cancelNow = state.withLock { state -> Bool in
            state.fetch = task
            return state.stopped
        }
        if cancelNow { task.cancel() }
    }
}
