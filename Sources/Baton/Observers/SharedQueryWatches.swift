import BatonAPI
import BatonStore

/// What a shared watch of a query delivers: a result, or the failure that ended the watch.
enum QueryWatchEvent<Data: RootSelectionSet>: Sendable {
    case result(GraphQLResult<Data>)
    case failure(any Error)
}

/// The watches that observers of one client share: observers of the same query (operation,
/// variables) with the same cache policy share one `watch`, so one fetch and one store
/// subscription serve them all. Reference-counted: the watch stops when its last observer leaves.
final class SharedQueryWatches: Sendable {
    struct Key: Hashable, Sendable {
        let operationIdentifier: String
        let variables: JSONObject
        let cachePolicy: CachePolicy
        let refetchWhenStale: Bool
    }

    private let watches = Locked<[Key: any Sendable]>([:])

    /// How many distinct watches run now (what tests check deduplication with).
    var count: Int { watches.withLock { $0.count } }

    /// Joins the shared watch of `query`, starting it if none runs: the stream gets the newest
    /// event at once (when there is one) and every later one; ending the stream leaves the watch.
    func join<Query: GraphQLQuery>(
        _ query: Query, cachePolicy: CachePolicy, refetchWhenStale: Bool = false, client: BatonClient
    ) -> AsyncStream<QueryWatchEvent<Query.Data>> {
        let key = Key(
            operationIdentifier: Query.operationIdentifier, variables: query.variablesJSON, cachePolicy: cachePolicy,
            refetchWhenStale: refetchWhenStale)
        let (stream, continuation) = AsyncStream.makeStream(of: QueryWatchEvent<Query.Data>.self, bufferingPolicy: .bufferingNewest(1))
        let (watch, isNew) = watches.withLock { watches -> (SharedQueryWatch<Query>, Bool) in
            if let existing = watches[key] as? SharedQueryWatch<Query> { return (existing, false) }
            let watch = SharedQueryWatch<Query>()
            watches[key] = watch
            return (watch, true)
        }
        let listener = watch.add(continuation)
        continuation.onTermination = { [weak self] _ in self?.leave(key, watch: watch, listener: listener) }
        if isNew {
            watch.start(query: query, cachePolicy: cachePolicy, refetchWhenStale: refetchWhenStale, client: client) { [weak self] in
                self?.remove(key, watch: watch)
            }
        }
        return stream
    }

    private func leave<Query: GraphQLQuery>(_ key: Key, watch: SharedQueryWatch<Query>, listener: Int) {
        let isLast = watches.withLock { watches -> Bool in
            let isLast = watch.remove(listener)
            if isLast, watches[key] as? SharedQueryWatch<Query> === watch { watches[key] = nil }
            return isLast
        }
        if isLast { watch.stop() }
    }

    /// Forgets a watch that ended (its fetch failed): the next observer starts a new one.
    private func remove<Query: GraphQLQuery>(_ key: Key, watch: SharedQueryWatch<Query>) {
        watches.withLock { watches in
            if watches[key] as? SharedQueryWatch<Query> === watch { watches[key] = nil }
        }
    }
}

/// One shared watch: the client's `watch` consumed once, each event kept (the newest) and sent
/// to every listener.
final class SharedQueryWatch<Query: GraphQLQuery>: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<QueryWatchEvent<Query.Data>>.Continuation] = [:]
        var nextListener = 0
        var latest: QueryWatchEvent<Query.Data>?
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let state = Locked(State())

    /// Adds a listener and gives it the newest event, under the lock, so a broadcast running
    /// meanwhile cannot be overtaken by an older event (yielding calls no code of ours).
    func add(_ continuation: AsyncStream<QueryWatchEvent<Query.Data>>.Continuation) -> Int {
        state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = continuation
            if let latest = state.latest { continuation.yield(latest) }
            return state.nextListener
        }
    }

    /// Removes a listener; true when it was the last.
    func remove(_ id: Int) -> Bool {
        state.withLock { state in
            state.listeners[id] = nil
            return state.listeners.isEmpty
        }
    }

    func start(
        query: Query, cachePolicy: CachePolicy, refetchWhenStale: Bool, client: BatonClient, ended: @escaping @Sendable () -> Void
    ) {
        let task = Task {
            do {
                for try await result in client.watch(query: query, cachePolicy: cachePolicy, refetchWhenStale: refetchWhenStale) {
                    broadcast(.result(result))
                }
            } catch is CancellationError {
            } catch {
                if !Task.isCancelled {
                    ended()
                    broadcast(.failure(error))
                }
            }
        }
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.stopped
        }
        if cancelNow { task.cancel() }
    }

    func stop() {
        let task = state.withLock { state in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }

    private func broadcast(_ event: QueryWatchEvent<Query.Data>) {
        state.withLock { state in
            state.latest = event
            for listener in state.listeners.values { listener.yield(event) }
        }
    }
}
