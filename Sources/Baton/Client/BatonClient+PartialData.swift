import BatonAPI
import BatonStore

extension BatonClient {
    /// Reads a query from the store only, accepting partial data: the store-only answer of
    /// `fetch(query:cachePolicy: .returnCacheDataDontFetch)`, which throws
    /// ``BatonError/cacheMiss(operationName:)`` unless everything is there, in three states (and
    /// a fourth when all is there but the field-error directives fail the read).
    ///
    /// ```swift
    /// switch client.readFromCache(query: HeroAndFriendsQuery(episode: .empire)) {
    /// case .complete(let data, _): show(data)
    /// case .partial(let partial): showPlaceholders(partial.jsonObject, missing: partial.missingPaths)
    /// case .missing: showSpinner()
    /// case .failed(let error): showError(error)   // @required(action: THROW), @throwOnFieldError
    /// }
    /// ```
    public func readFromCache<Query: GraphQLQuery>(query: Query) -> CacheRead<Query.Data> {
        store.readAllowingPartialData(query: query)
    }

    /// Reads a fragment from the record `id` in the store only, accepting partial data (as
    /// ``readFromCache(query:)``).
    public func readFromCache<F: GraphQLFragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) -> CacheRead<F> {
        store.readAllowingPartialData(fragment: fragment, id: id, variables: variables)
    }
}
