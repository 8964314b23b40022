/// `@catch(to:)` on an operation, a fragment's definition or an (aliased) inline fragment, as
/// Relay reads it: a field error in any field the fragment selects, or a `@required(action:
/// THROW)` / `@throwOnFieldError` failure inside it, fails that fragment alone. Its accessor is
/// a `Result<Fragment, GraphQLFieldError>` (`to: RESULT`) or reads `nil` (`to: NULL`); the rest
/// of the data reads on. The field-error pass notes a caught failure in the parent's object
/// under a key no response can hold (`caughtKey(fragment:)`, `caughtKey(inlineFragment:)`): a
/// field-error marker for `RESULT`, `null` for `NULL`.
extension FieldErrorMarker {
    /// What every key of a caught failure starts with.
    public static let caughtKeyPrefix = "__caught:"

    /// The key of a failure caught at a spread of the fragment `name`.
    public static func caughtKey(fragment name: String) -> String { caughtKeyPrefix + "fragment:" + name }

    /// The key of a failure caught at the inline fragment aliased `alias`.
    public static func caughtKey(inlineFragment alias: String) -> String { caughtKeyPrefix + "inline:" + alias }
}

extension SelectionSet {
    /// None: a read of the root that a field error fails throws (generated code gives
    /// `.result` or `.null` for a root under `@catch`, whose read is then `nil` data with the
    /// errors caught: see `GraphQLResult.catchResult`).
    public static var __catchTarget: FieldErrorHandling.CatchTarget? { nil }
}

extension DataDict {
    /// The errors caught at the fragment noted under `key`: `nil` when none were.
    private func caughtErrors(_ key: String) -> [GraphQLError]? {
        guard let value = object[key] else { return nil }
        return FieldErrorMarker.errors(in: value) ?? []
    }

    /// For generated code: the accessor of a `@catch(to: RESULT)` fragment that always applies.
    public func _catchingResult<T: SelectionSet>(_ key: String, _ make: () -> T) -> Result<T, GraphQLFieldError> {
        if let errors = caughtErrors(key) { return .failure(GraphQLFieldError(errors: errors)) }
        return .success(make())
    }

    /// For generated code: the accessor of a `@catch(to: RESULT)` fragment that may not apply
    /// (`nil` then).
    public func _catchingConditionalResult<T: SelectionSet>(_ key: String, _ make: () -> T?) -> Result<T, GraphQLFieldError>? {
        if let errors = caughtErrors(key) { return .failure(GraphQLFieldError(errors: errors)) }
        return make().map { .success($0) }
    }

    /// For generated code: the accessor of a `@catch(to: NULL)` fragment: `nil` when a failure
    /// was caught in it (or it does not apply).
    public func _catchingNull<T: SelectionSet>(_ key: String, _ make: () -> T?) -> T? {
        if caughtErrors(key) != nil { return nil }
        return make()
    }
}

extension GraphQLResult {
    /// For an operation under `@catch(to: RESULT)`: `.success` with the data, or `.failure` with
    /// the field errors (and `@required`/`@throwOnFieldError` failures) caught in it, when the
    /// data reads as `nil` for them. `nil` when there is no data for another reason (the server
    /// sent none) and for operations without `@catch`.
    public var catchResult: Result<Data, GraphQLFieldError>? {
        if let caughtFieldError { return .failure(caughtFieldError) }
        guard Data.__catchTarget == .result, let data else { return nil }
        return .success(data)
    }
}
