import BatonAPI

extension ResponseLimits {
    /// Throws ``BatonError/errorPathTooLong(operationName:length:limit:)`` when a GraphQL error of
    /// `body` (its `errors`, and those of each `incremental` item of an incremental part) has a
    /// `path` longer than ``maxErrorPathLength``. Costs one look at each error.
    func checkErrorPaths(in body: JSONObject, operationName: String) throws(BatonError) {
        try Self.checkErrorPaths(in: body, limit: maxErrorPathLength, operationName: operationName)
    }

    /// ``checkErrorPaths(in:operationName:)`` with the limit given.
    static func checkErrorPaths(in body: JSONObject, limit: Int, operationName: String) throws(BatonError) {
        if case .list(let errors)? = body["errors"] {
            for error in errors {
                guard case .object(let object) = error, case .list(let path)? = object["path"] else { continue }
                if path.count > limit {
                    throw BatonError.errorPathTooLong(operationName: operationName, length: path.count, limit: limit)
                }
            }
        }
        if case .list(let items)? = body["incremental"] {
            for item in items {
                guard case .object(let object) = item else { continue }
                try checkErrorPaths(in: object, limit: limit, operationName: operationName)
            }
        }
    }
}
