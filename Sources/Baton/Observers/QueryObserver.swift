import BatonAPI
import BatonStore
import Observation

/// A query kept live for a view: loads it as the cache policy says, then follows the store, so
/// `state` changes whenever a mutation, another query or a cache write changes what it reads.
/// Observers of the same query (operation and variables) and cache policy on one client share one
/// fetch and one store watch. Releasing the observer stops its watch. Every change of `state`
/// happens on the main actor; the network and the store work elsewhere.
///
/// ```swift
/// let hero = QueryObserver(client: client, query: HeroNameQuery(episode: .empire))
/// switch hero.state {                  // observable: .loading, then .success or .failure
/// case .loading: print("…")
/// case .success(let result): print(result.data?.hero?.name ?? "none")
/// case .failure(let error): print(error)
/// }
/// try await hero.refetch()             // from the server again
/// ```
///
/// In SwiftUI, `@Query` keeps one in the view's state.
@MainActor
@Observable
public final class QueryObserver<Query: GraphQLQuery> {
    /// What a view shows for the query.
    public enum State: Sendable {
        /// Nothing to show yet: the first answer is on its way.
        case loading
        /// The newest result (GraphQL errors, if any, are in it, beside partial data).
        case success(GraphQLResult<Query.Data>)
        /// The fetch failed (a transport or parse failure, or a cache miss with
        /// `.returnCacheDataDontFetch`), or the data read fails `@required(action: THROW)` or
        /// `@throwOnFieldError` (``BatonError/fieldErrorThrown(operationName:_:)``; the observer
        /// goes on following the store then).
        case failure(any Error)
    }

    /// The query's state: `.loading`, then the newest result or the failure. Observable.
    public private(set) var state: State = .loading
    /// Whether a ``refetch(cachePolicy:)`` is under way. Observable.
    public private(set) var isRefetching = false

    /// The query followed now (`nil` until ``load(_:client:cachePolicy:)``).
    @ObservationIgnored public private(set) var query: Query?
    /// The client it is loaded with.
    @ObservationIgnored public private(set) var client: BatonClient?
    /// The cache policy of the first answer.
    @ObservationIgnored public private(set) var cachePolicy: CachePolicy
    /// Whether the query is fetched again (`.fetchIgnoringCacheData`) once when the data shown
    /// goes stale (a field passes its max age, see `CacheFreshness`), as
    /// `BatonClient.watch(query:refetchWhenStale:)` does; not with `.returnCacheDataDontFetch`.
    @ObservationIgnored public private(set) var refetchWhenStale: Bool
    private let tasks = ObserverTasks()
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var watchEnded = false

    /// Loads `query` with `client` at once and follows it; with `refetchWhenStale`, fetches it
    /// again when the data shown goes stale.
    public init(client: BatonClient, query: Query, cachePolicy: CachePolicy = .default, refetchWhenStale: Bool = false) {
        self.cachePolicy = cachePolicy
        self.refetchWhenStale = refetchWhenStale
        load(query, client: client)
    }

    /// An observer that loads nothing until ``load(_:client:cachePolicy:)`` (what `@Query` makes
    /// before the environment gives it a client).
    public init(cachePolicy: CachePolicy = .default, refetchWhenStale: Bool = false) {
        self.cachePolicy = cachePolicy
        self.refetchWhenStale = refetchWhenStale
    }

    /// The data of the newest result, if any. Observable (through `state`).
    public var data: Query.Data? {
        if case .success(let result) = state { return result.data }
        return nil
    }

    /// Follows `query` on `client` (with `cachePolicy`, or the observer's): nothing happens when
    /// it already follows the same query, variables, client and policy, so calling this on every
    /// view update is cheap (a failed query is not fetched again here: ``refetch(cachePolicy:)``
    /// does that). Another query starts over from `.loading`, unless the store answers it at once.
    public func load(_ query: Query, client: BatonClient, cachePolicy: CachePolicy? = nil) {
        let policy = cachePolicy ?? self.cachePolicy
        if let current = self.query, self.client === client, policy == self.cachePolicy,
            current.variablesJSON == query.variablesJSON
        {
            return
        }
        self.query = query
        self.client = client
        self.cachePolicy = policy
        // The store's answer now, when the policy gives one: no loading flash for cached data.
        let cached = client.cacheAnswer(for: query)
        let plan = CachePolicyPlan(policy, hasData: cached.result != nil || cached.thrown != nil, isFresh: cached.isFresh)
        if plan.answersFromCache, let result = cached.result {
            state = .success(result)
        } else if plan.answersFromCache, let thrown = cached.thrown {
            // `@required(action: THROW)` or `@throwOnFieldError` failed the store's data: shown, not read as a miss.
            state = .failure(thrown)
        } else if !isLoading {
            state = .loading
        }
        follow(client.sharedWatches.join(query, cachePolicy: policy, refetchWhenStale: watchesStaleness(policy), client: client))
    }

    /// What `@Query` calls before each view update: loads with the environment's client, or
    /// fails with ``BatonError/noClient(operationName:)`` when the view has none.
    func load(_ query: Query, client: BatonClient?) {
        guard let client else {
            if isLoading { state = .failure(BatonError.noClient(operationName: Query.operationName)) }
            return
        }
        load(query, client: client)
    }

    /// Fetches the query again (from the server by default) and shows the result; the watch
    /// goes on (or starts again after a failure). Throws the fetch's error, leaving `state` as it
    /// was unless it had nothing to show.
    public func refetch(cachePolicy: SingleResultCachePolicy = .fetchIgnoringCacheData) async throws {
        guard let client, let query else { return }
        isRefetching = true
        defer { isRefetching = false }
        let generation = self.generation
        do {
            let result = try await client.fetch(query: query, cachePolicy: cachePolicy)
            guard generation == self.generation else { return }  // another query was loaded meanwhile
            state = .success(result)
            if watchEnded {
                watchEnded = false
                follow(
                    client.sharedWatches.join(
                        query, cachePolicy: .returnCacheDataElseFetch, refetchWhenStale: watchesStaleness(.returnCacheDataElseFetch),
                        client: client))
            }
        } catch {
            if generation == self.generation, isLoading { state = .failure(error) }
            throw error
        }
    }

    /// Whether the watch for `policy` refetches stale data (never a store-only policy's).
    private func watchesStaleness(_ policy: CachePolicy) -> Bool {
        refetchWhenStale && policy != .returnCacheDataDontFetch
    }

    private var isLoading: Bool {
        if case .loading = state { return true }
        return false
    }

    private func follow(_ events: AsyncStream<QueryWatchEvent<Query.Data>>) {
        generation += 1
        watchEnded = false
        let generation = self.generation
        tasks.replace(
            "watch",
            with: Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    self.receive(event, generation: generation)
                }
            })
    }

    private func receive(_ event: QueryWatchEvent<Query.Data>, generation: Int) {
        guard generation == self.generation else { return }
        switch event {
        case .result(let result):
            if let failure = result.readFailure {
                // The store's data fails `@required(action: THROW)` or `@throwOnFieldError`: an
                // error to show, while the watch goes on (a later response may mend it).
                state = .failure(BatonError.fieldErrorThrown(operationName: Query.operationName, failure))
            } else {
                state = .success(result)
            }
        case .failure(let error):
            watchEnded = true
            state = .failure(error)
        }
    }
}
