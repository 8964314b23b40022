/// Whether an operation is answered from the store, the server, or both (Apollo iOS's cache
/// policies; Relay's fetch policies are the static aliases).
public enum CachePolicy: Sendable, Hashable {
    /// Answer from the store when it has all the data fresh; otherwise fetch. The default.
    case returnCacheDataElseFetch
    /// Always fetch, and write the response to the store.
    case fetchIgnoringCacheData
    /// Always fetch, and leave the store as it is.
    case fetchIgnoringCacheCompletely
    /// Answer from the store only; a miss is ``BatonError/cacheMiss(operationName:)``.
    case returnCacheDataDontFetch
    /// Answer from the store when it has the data, and fetch as well.
    case returnCacheDataAndFetch

    public static let `default` = CachePolicy.returnCacheDataElseFetch

    /// Relay's `store-only`.
    public static let storeOnly = CachePolicy.returnCacheDataDontFetch
    /// Relay's `store-or-network`.
    public static let storeOrNetwork = CachePolicy.returnCacheDataElseFetch
    /// Relay's `store-and-network`.
    public static let storeAndNetwork = CachePolicy.returnCacheDataAndFetch
    /// Relay's `network-only`.
    public static let networkOnly = CachePolicy.fetchIgnoringCacheData
}

/// What a cache policy does with what the store holds: the one decision that `fetch`,
/// `fetchResults` and `watch` all follow.
struct CachePolicyPlan: Equatable {
    /// Answer with the store's data first.
    var answersFromCache: Bool
    /// Fetch from the server (after the cached answer, if any).
    var fetches: Bool
    /// Publish the server's response to the store.
    var writesToStore: Bool
    /// Neither an answer nor a fetch: a cache miss.
    var isMiss: Bool { !answersFromCache && !fetches }

    /// The plan for `policy` when the store's read of the operation is complete (`hasData`,
    /// whether fresh or stale) and `isFresh` (available: not missing, invalidated or expired).
    init(_ policy: CachePolicy, hasData: Bool, isFresh: Bool) {
        switch policy {
        case .returnCacheDataElseFetch:
            answersFromCache = hasData && isFresh
            fetches = !answersFromCache
            writesToStore = true
        case .returnCacheDataAndFetch:
            answersFromCache = hasData
            fetches = true
            writesToStore = true
        case .returnCacheDataDontFetch:
            answersFromCache = hasData
            fetches = false
            writesToStore = false
        case .fetchIgnoringCacheData:
            answersFromCache = false
            fetches = true
            writesToStore = true
        case .fetchIgnoringCacheCompletely:
            answersFromCache = false
            fetches = true
            writesToStore = false
        }
    }
}
