import BatonAPI
import BatonStore

extension BatonClient {
    /// Typed data from an object already checked against `T`'s selections (the executor's data
    /// or the store's read), with the field-error directives applied: `nil` when a
    /// `@required(action: NONE | LOG)` null reached the root; ``BatonError/fieldErrorThrown(operationName:_:)``
    /// for `@throwOnFieldError` and `@required(action: THROW)`. `@required(action: LOG)` nulls are
    /// logged at warning level with their path.
    func typedData<T: SelectionSet>(
        _ type: T.Type, checked object: JSONObject, variables: JSONObject, operationName: String
    ) throws(BatonError) -> T? {
        try typedDataCatching(type, checked: object, variables: variables, operationName: operationName).data
    }

    /// As ``typedData(_:checked:variables:operationName:)``, with what a `@catch(to: RESULT)`
    /// on the root caught (the data is `nil` then).
    func typedDataCatching<T: SelectionSet>(
        _ type: T.Type, checked object: JSONObject, variables: JSONObject, operationName: String
    ) throws(BatonError) -> (data: T?, caught: GraphQLFieldError?) {
        do {
            return try T._resolvingFieldErrorsCatching(checked: object, variables: variables) { path in
                logger.warning("\(operationName): @required field is null at \(path); its parent reads as null")
            }
        } catch {
            throw BatonError.fieldErrorThrown(operationName: operationName, error)
        }
    }

    /// As ``typedDataCatching(_:checked:variables:operationName:)``, with the paths of the
    /// `@required(action: LOG)` nulls it logged (a repeat of the same response logs them again).
    func typedRead<T: SelectionSet>(
        _ type: T.Type, checked object: JSONObject, variables: JSONObject, operationName: String
    ) throws(BatonError) -> TypedRead<T> {
        var requiredNulls: [ResponsePath] = []
        do {
            let read = try T._resolvingFieldErrorsCatching(checked: object, variables: variables) { requiredNulls.append($0) }
            logRequiredNulls(at: requiredNulls, operationName: operationName)
            return TypedRead(data: read.data, caught: read.caught, requiredNulls: requiredNulls)
        } catch {
            logRequiredNulls(at: requiredNulls, operationName: operationName)
            throw BatonError.fieldErrorThrown(operationName: operationName, error)
        }
    }

    /// Logs each `@required(action: LOG)` null at warning level with its path.
    func logRequiredNulls(at paths: [ResponsePath], operationName: String) {
        for path in paths {
            logger.warning("\(operationName): @required field is null at \(path); its parent reads as null")
        }
    }

    /// Typed data from an object not checked yet (a read of the store, which may have been
    /// edited into a shape the selections do not allow): `matches` is false then. `data` is `nil`
    /// when a `@required(action: NONE | LOG)` null reached the root.
    func typedData<T: SelectionSet>(
        _ type: T.Type, unchecked object: JSONObject, variables: JSONObject, operationName: String
    ) throws(BatonError) -> (matches: Bool, data: T?, caught: GraphQLFieldError?) {
        do {
            try SelectionPlanCache.plan(T.__selections, parentType: T.__parentType.name, variables: variables).validate(object)
        } catch {
            return (false, nil, nil)
        }
        let read = try typedDataCatching(type, checked: object, variables: variables, operationName: operationName)
        return (true, read.data, read.caught)
    }
}

/// Typed data read from checked data, with the `@required(action: LOG)` nulls it met.
struct TypedRead<T: SelectionSet>: Sendable {
    let data: T?
    let caught: GraphQLFieldError?
    let requiredNulls: [ResponsePath]
}
