import BatonAPI

extension GraphQLResponse {
    /// Reads the response into a typed result for an operation: `data` checked against its
    /// selections, `errors` and `extensions` kept as they came.
    public func result<Operation: GraphQLOperation>(
        for operation: Operation, source: GraphQLResult<Operation.Data>.Source = .server
    ) throws -> GraphQLResult<Operation.Data> {
        let name = Operation.operationName
        let (errors, extensions) = try errorsAndExtensions(operationName: name)
        var data: Operation.Data?
        if let object = try dataObject(operationName: name) {
            do {
                data = try Operation.Data(jsonObject: object, variables: operation.variablesJSON)
            } catch {
                throw BatonError.dataMismatch(operationName: name, error)
            }
        }
        return GraphQLResult(data: data, errors: errors, extensions: extensions, source: source)
    }

    /// The response's `data` object: `nil` when it is absent or null; an error when it is not an
    /// object.
    func dataObject(operationName name: String) throws -> JSONObject? {
        switch body["data"] {
        case nil, .null?:
            return nil
        case .object(let object)?:
            return object
        case let other?:
            throw BatonError.invalidResponse(operationName: name, reason: "`data` is \(other.kindDescription), not an object")
        }
    }

    /// The response's `errors` (`nil` when there are none) and `extensions`.
    func errorsAndExtensions(operationName name: String) throws -> (errors: [GraphQLError]?, extensions: JSONObject?) {
        var errors: [GraphQLError]?
        switch body["errors"] {
        case nil, .null?:
            errors = nil
        case .list(let list)?:
            errors = list.isEmpty ? nil : list.map(GraphQLError.init(json:))
        case let other?:
            throw BatonError.invalidResponse(operationName: name, reason: "`errors` is \(other.kindDescription), not a list")
        }
        return (errors, body["extensions"]?.objectValue)
    }
}
