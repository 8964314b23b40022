import BatonAPI

extension GraphQLResponse {
    /// Reads the response into a typed result for an operation: `data` checked against its
    /// selections, `errors` and `extensions` kept as they came.
    public func result<Operation: GraphQLOperation>(
        for operation: Operation, source: GraphQLResult<Operation.Data>.Source = .server
    ) throws -> GraphQLResult<Operation.Data> {
        let name = Operation.operationName
        var data: Operation.Data?
        switch body["data"] {
        case nil, .null?:
            data = nil
        case .object(let object)?:
            do {
                data = try Operation.Data(jsonObject: object, variables: operation.variablesJSON)
            } catch {
                throw BatonError.dataMismatch(operationName: name, error)
            }
        case let other?:
            throw BatonError.invalidResponse(operationName: name, reason: "`data` is \(other.kindDescription), not an object")
        }
        var errors: [GraphQLError]?
        switch body["errors"] {
        case nil, .null?:
            errors = nil
        case .list(let list)?:
            errors = list.isEmpty ? nil : list.map(GraphQLError.init(json:))
        case let other?:
            throw BatonError.invalidResponse(operationName: name, reason: "`errors` is \(other.kindDescription), not a list")
        }
        return GraphQLResult(data: data, errors: errors, extensions: body["extensions"]?.objectValue, source: source)
    }
}
