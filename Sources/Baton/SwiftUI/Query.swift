#if canImport(SwiftUI)
    import BatonAPI
    import SwiftUI

    /// A query in a view, kept live: the view shows `.loading`, then the result, and updates when
    /// the store changes what the query reads. The state lives in a ``QueryObserver`` the view owns
    /// (`$name` is that observer: `$hero.refetch()`); the client is the environment's.
    ///
    /// ```swift
    /// struct HeroView: View {
    ///     @Query<HeroNameQuery> var hero: QueryObserver<HeroNameQuery>.State
    ///
    ///     init(episode: Episode) { _hero = Query(HeroNameQuery(episode: .init(episode))) }
    ///
    ///     var body: some View {
    ///         switch hero {
    ///         case .loading: ProgressView()
    ///         case .failure(let error): Text("\(error)")
    ///         case .success(let result): Text(result.data?.hero?.name ?? "nobody")
    ///                 .refreshable { try? await $hero.refetch() }
    ///         }
    ///     }
    /// }
    /// ```
    @propertyWrapper
    public struct Query<Operation: GraphQLQuery>: DynamicProperty {
        @Environment(\.batonClient) private var client
        @State private var observer: QueryObserver<Operation>
        private let query: Operation

        /// Loads `query` (with `cachePolicy`) once the view has a client; a view made again with
        /// other variables loads those. With `refetchWhenStale`, the query is fetched again
        /// when the data shown goes stale (see ``QueryObserver/refetchWhenStale``).
        @MainActor
        public init(_ query: Operation, cachePolicy: CachePolicy = .default, refetchWhenStale: Bool = false) {
            self.query = query
            _observer = State(initialValue: QueryObserver(cachePolicy: cachePolicy, refetchWhenStale: refetchWhenStale))
        }

        /// The query's state: `.loading`, `.success(result)` or `.failure(error)`.
        @MainActor
        public var wrappedValue: QueryObserver<Operation>.State { observer.state }

        /// The observer: `refetch()`, `isRefetching`, `data`.
        @MainActor
        public var projectedValue: QueryObserver<Operation> { observer }

        /// Called by SwiftUI before each `body`: hands the query and the client to the observer.
        public func update() {
            let (observer, client, query) = (self.observer, self.client, self.query)
            MainActor.assumeIsolated { observer.load(query, client: client) }
        }
    }
#endif
