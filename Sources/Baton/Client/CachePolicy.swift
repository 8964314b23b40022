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
