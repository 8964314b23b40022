import BatonAPI
import BatonStore

extension BatonClient {
    /// The store record a fragment reference (any selection set read from a result) stands for:
    /// its `__id` when selected, else the cache key of its `__typename` and key fields, by the
    /// store's rule or else that of `schema` (the generated schema of the fragment to read).
    public func recordID(of reference: some SelectionSet, schema: SchemaMetadata? = nil) -> DataID? {
        let object = reference.jsonObject
        if let id = object["__id"]?.stringValue { return DataID(id) }
        let cacheKeys = store.cacheKeys ?? (schema ?? type(of: reference).__schema).map(CacheKeyConfiguration.init(schema:)) ?? .default
        return cacheKeys.cacheKey(typename: object["__typename"]?.stringValue, object: object)
    }

    /// Keeps a fragment's data live: emits the fragment read from the store for the object
    /// `reference` stands for, now and each time its records change. `variables` are those the
    /// fragment's selections use (its own `@argumentDefinitions` fall back to their defaults).
    /// Ends with ``BatonError/fragmentReference(fragmentName:reason:)`` when the reference has
    /// no record ID.
    public func watch<F: Fragment>(
        fragment: F.Type, from reference: some SelectionSet, variables: JSONObject = [:]
    ) -> AsyncThrowingStream<F, any Error> {
        guard let id = recordID(of: reference, schema: F.__schema) else {
            return AsyncThrowingStream { $0.finish(throwing: Self.noRecordID(F.self)) }
        }
        return watch(fragment: fragment, id: id, variables: variables)
    }

    /// Keeps a fragment's data live on the record `id`.
    public func watch<F: Fragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) -> AsyncThrowingStream<F, any Error> {
        AsyncThrowingStream { continuation in
            let variables = Self.fragmentVariables(F.self, variables)
            let descriptor = OperationDescriptor(fragment: F.self, id: id, variables: variables)
            let token = store.retain(descriptor)
            let (initial, subscription) = store.subscribe(descriptor) { read in
                guard !read.isMissing, let object = read.data, let data = try? F(jsonObject: object, variables: variables) else { return }
                continuation.yield(data)
            }
            if !initial.isMissing, let object = initial.data, let data = try? F(jsonObject: object, variables: variables) {
                continuation.yield(data)
            }
            continuation.onTermination = { _ in
                subscription.cancel()
                token.release()
            }
        }
    }

    static func noRecordID<F: Fragment>(_: F.Type) -> BatonError {
        .fragmentReference(
            fragmentName: F.fragmentName,
            reason: "the data given has neither __id nor a cache key (select id, or __id), so it names no record in the store")
    }

    /// A fragment's variables: its own defaults under those given.
    static func fragmentVariables<F: Fragment>(_: F.Type, _ given: JSONObject) -> JSONObject {
        guard let refetchable = F.self as? any RefetchableFragment.Type else { return given }
        var result = refetchable.argumentDefaults
        for (name, value) in given { result[name] = value }
        return result
    }
}
