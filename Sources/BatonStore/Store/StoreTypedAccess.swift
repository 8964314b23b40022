import BatonAPI

/// The store has no complete data for a read.
public struct CacheMissError: Error, Sendable, CustomStringConvertible {
    public let name: String
    public var description: String { "\(name): the store does not hold all of its data" }
}

extension Store {
    /// Reads a query's typed data from the store, or throws ``CacheMissError`` when anything is
    /// missing, or `SelectionSetDecodingError` (BatonAPI; with the path, and the field errors in
    /// `fieldErrors`) when the data is there but `@required(action: THROW)` or
    /// `@throwOnFieldError` fails its read, a `@required` null reaches the root, or a `@catch` on
    /// the root catches a field error: such a read is an answer, not a miss.
    public func read<Query: GraphQLQuery>(query: Query) throws -> Query.Data {
        try typed(Query.Data.self, read(OperationDescriptor(operation: query)), variables: query.variablesJSON, name: Query.operationName)
    }

    /// Writes a query's data into the store, as if the server had returned it.
    public func write<Query: GraphQLQuery>(data: Query.Data, for query: Query) {
        publish(data: data.jsonObject, for: OperationDescriptor(operation: query))
    }

    /// Reads a fragment's typed data from the record `id` (errors as for ``read(query:)``).
    public func read<F: GraphQLFragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) throws -> F {
        try typed(F.self, read(OperationDescriptor(fragment: fragment, id: id, variables: variables)), variables: variables, name: F.fragmentName)
    }

    /// Writes a fragment's data onto the record `id`.
    public func write<F: GraphQLFragment>(fragment: F, id: DataID, variables: JSONObject = [:]) {
        publish(data: fragment.jsonObject, for: OperationDescriptor(fragment: F.self, id: id, variables: variables))
    }

    func typed<T: SelectionSet>(_ type: T.Type, _ result: ReadResult, variables: JSONObject, name: String) throws -> T {
        guard !result.isMissing, let data = result.data else { throw CacheMissError(name: name) }
        // Records edited into a shape the selections do not allow: not usable, so a miss.
        guard let read = Self.typedRead(T.self, data, variables: variables) else { throw CacheMissError(name: name) }
        return try read.get()
    }

    /// Typed data from a complete read of the store: `nil` when the records were edited into a
    /// shape the selections do not allow (not usable: a miss); `.failure` when the field-error
    /// directives fail the read (`@required(action: THROW)`, `@throwOnFieldError`), or leave no
    /// data (a `@required` null that reached the root, a `@catch` on the root that caught a field
    /// error, whose errors are then the failure's `fieldErrors`).
    public static func typedRead<T: SelectionSet>(
        _: T.Type, _ object: JSONObject, variables: JSONObject
    ) -> Result<T, SelectionSetDecodingError>? {
        do {
            try SelectionPlanCache.plan(T.__selections, parentType: T.__parentType.name, variables: variables).validate(object)
        } catch {
            return nil
        }
        do {
            let read = try T._resolvingFieldErrorsCatching(checked: object, variables: variables)
            if let data = read.data { return .success(data) }
            return .failure(
                SelectionSetDecodingError(
                    path: ResponsePath(), expected: "an object",
                    found: T.__catchTarget == nil ? "null (a @required field was null)" : "a field error caught by @catch on the root",
                    fieldErrors: read.caught?.errors ?? []))
        } catch {
            return .failure(error)
        }
    }
}
