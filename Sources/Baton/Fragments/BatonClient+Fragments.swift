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
    public func watch<F: GraphQLFragment>(
        fragment: F.Type, from reference: some SelectionSet, variables: JSONObject = [:]
    ) -> AsyncThrowingStream<F, any Error> {
        guard let id = recordID(of: reference, schema: F.__schema) else {
            return AsyncThrowingStream { $0.finish(throwing: Self.noRecordID(F.self)) }
        }
        return watch(fragment: fragment, id: id, variables: variables)
    }

    /// Keeps a `@refetchable` fragment's data live, with typed variables (`nil`: the fragment's
    /// defaults).
    public func watch<F: GraphQLRefetchableFragment>(
        fragment: F.Type, from reference: some SelectionSet, variables: F.Variables?
    ) -> AsyncThrowingStream<F, any Error> {
        watch(fragment: fragment, from: reference, variables: variables?.variablesJSON ?? [:])
    }

    /// Keeps a fragment's data live on the record `id`, typed: emits the fragment as the store
    /// holds it now, then again each time a field it reads changes (not when other fields of its
    /// records do). See ``watch(object:id:variables:)``, which it is.
    public func watch<F: GraphQLFragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) -> AsyncThrowingStream<F, any Error> {
        watch(object: F.self, id: id, variables: variables)
    }

    static func noRecordID<F: GraphQLFragment>(_: F.Type) -> BatonError {
        .fragmentReference(
            fragmentName: F.fragmentName,
            reason: "the data given has neither __id nor a cache key (select id, or __id), so it names no record in the store")
    }

    /// A fragment's variables: its own defaults under those given.
    static func fragmentVariables<F: GraphQLFragment>(_: F.Type, _ given: JSONObject) -> JSONObject {
        guard let refetchable = F.self as? any GraphQLRefetchableFragment.Type else { return given }
        var result = refetchable.argumentDefaults
        for (name, value) in given { result[name] = value }
        return result
    }
}

extension BatonClient {
    /// A paginated fragment kept live from the object `reference` stands for (data read from a
    /// result; it needs `__id` or a cache key). `variables` are the fragment's own (`nil`: its
    /// defaults; pass the values the spread gave with `@arguments` when they differ).
    @MainActor
    public func paginate<F: PaginatedFragment>(
        _ fragment: F.Type, from reference: some SelectionSet, variables: F.Variables? = nil
    ) throws -> PaginationObserver<F> {
        let observer = PaginationObserver<F>(client: self, reference: reference, variables: variables)
        if let error = observer.error { throw error }
        return observer
    }

    /// Fetches a `@refetchable` fragment's object again with new values for its variables, and
    /// returns the fragment as the store then holds it.
    public func refetch<F: GraphQLRefetchableFragment>(
        _ fragment: F.Type, from reference: some SelectionSet, variables: F.Variables
    ) async throws -> F {
        guard let id = recordID(of: reference, schema: F.__schema) else { throw Self.noRecordID(F.self) }
        let fragmentVariables = Self.fragmentVariables(F.self, variables.variablesJSON)
        var values = fragmentVariables
        if F.refetchRoot == .node {
            guard let objectID = reference.jsonObject["id"] else {
                throw BatonError.fragmentReference(fragmentName: F.fragmentName, reason: "the data given has no id to refetch with")
            }
            values["id"] = objectID
        }
        let result = try await fetch(query: RefetchOperation<F.RefetchQuery>(values: values), cachePolicy: .fetchIgnoringCacheData)
        let read = store.read(OperationDescriptor(fragment: F.self, id: id, variables: fragmentVariables))
        guard !read.isMissing, let object = read.data else {
            if let errors = result.errors, !errors.isEmpty {
                throw BatonError.fragmentReference(
                    fragmentName: F.fragmentName, reason: "refetch failed: " + errors.map(\.message).joined(separator: "; "))
            }
            throw BatonError.cacheMiss(operationName: F.RefetchQuery.operationName)
        }
        do {
            return try F(jsonObject: object, variables: fragmentVariables)
        } catch {
            throw BatonError.dataMismatch(operationName: F.RefetchQuery.operationName, error)
        }
    }
}
