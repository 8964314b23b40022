/// The cache policies that give one result: what the single-result `fetch(query:cachePolicy:)`
/// (`async`) and a query observer's `refetch(cachePolicy:)` take. Every ``CachePolicy`` but
/// `.returnCacheDataAndFetch`, which gives two (the cached result, then the server's or its
/// error): use ``BatonClient/fetchResults(query:cachePolicy:maxStale:)``, `watch(query:)` or a callback
/// form for it, so that the second result and its failure reach you.
public struct SingleResultCachePolicy: Sendable, Hashable {
    /// The policy.
    public let cachePolicy: CachePolicy

    /// `policy`, or `nil` for `.returnCacheDataAndFetch`.
    public init?(_ policy: CachePolicy) {
        guard policy != .returnCacheDataAndFetch else { return nil }
        cachePolicy = policy
    }

    private init(checked policy: CachePolicy) {
        cachePolicy = policy
    }

    /// ``CachePolicy/returnCacheDataElseFetch``, the default.
    public static let returnCacheDataElseFetch = Self(checked: .returnCacheDataElseFetch)
    /// ``CachePolicy/fetchIgnoringCacheData``.
    public static let fetchIgnoringCacheData = Self(checked: .fetchIgnoringCacheData)
    /// ``CachePolicy/fetchIgnoringCacheCompletely``.
    public static let fetchIgnoringCacheCompletely = Self(checked: .fetchIgnoringCacheCompletely)
    /// ``CachePolicy/returnCacheDataDontFetch``.
    public static let returnCacheDataDontFetch = Self(checked: .returnCacheDataDontFetch)
    /// The default: ``returnCacheDataElseFetch``.
    public static let `default` = returnCacheDataElseFetch
    /// Relay's `store-only`.
    public static let storeOnly = returnCacheDataDontFetch
    /// Relay's `store-or-network`.
    public static let storeOrNetwork = returnCacheDataElseFetch
    /// Relay's `network-only`.
    public static let networkOnly = fetchIgnoringCacheData

    /// Not a single result: the cached result, then the server's (or its error).
    @available(*, unavailable, message: "gives two results (the cached one, then the server's or its error): use fetchResults(query:cachePolicy:), watch(query:cachePolicy:) or fetch(query:cachePolicy:resultHandler:)")
    public static var returnCacheDataAndFetch: Self { fatalError("unavailable") }

    /// Not a single result: see ``returnCacheDataAndFetch``.
    @available(*, unavailable, message: "gives two results (the cached one, then the server's or its error): use fetchResults(query:cachePolicy:), watch(query:cachePolicy:) or fetch(query:cachePolicy:resultHandler:)")
    public static var storeAndNetwork: Self { fatalError("unavailable") }
}
