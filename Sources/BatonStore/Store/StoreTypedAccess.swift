import BatonAPI

/// The store has no complete data for a read.
public struct CacheMissError: Error, Sendable, CustomStringConvertible {
    public let name: String
    public var description: String { "\(name): the store does not hold all of its data" }
}

extension Store {
    /// Reads a query's typed data from the store, or throws ``CacheMissError`` when anything is missing.
    public func read<Query: GraphQLQuery>(query: Query) throws -> Query.Data {
        try typed(Query.Data.self, read(OperationDescriptor(operation: query)), variables: query.variablesJSON, name: Query.operationName)
    }

    /// Writes a query's data into the store, as if the server had returned it.
    public func write<Query: GraphQLQuery>(data: Query.Data, for query: Query) {
        publish(data: data.jsonObject, for: OperationDescriptor(operation: query))
    }

    /// Reads a fragment's typed data from the record `id`.
    public func read<F: GraphQLFragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) throws -> F {
        try typed(F.self, read(OperationDescriptor(fragment: fragment, id: id, variables: variables)), variables: variables, name: F.fragmentName)
    }

    /// Writes a fragment's data onto the record `id`.
    public func write<F: GraphQLFragment>(fragment: F, id: DataID, variables: JSONObject = [:]) {
        publish(data: fragment.jsonObject, for: OperationDescriptor(fragment: F.self, id: id, variables: variables))
    }

    func typed<T: SelectionSet>(_ type: T.Type, _ result: ReadResult, variables: JSONObject, name: String) throws -> T {
        guard !result.isMissing, let data = result.data else { throw CacheMissError(name: name) }
        do {
            return try T(jsonObject: data, variables: variables)
        } catch {
            // Records edited into a shape the selections do not allow: not usable, so a miss.
            throw CacheMissError(name: name)
        }
    }
}
