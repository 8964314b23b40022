/// The field-error pass of a `SelectionPlan`: applies `@catch`, `@required` and
/// `@semanticNonNull` under `@throwOnFieldError` to a response-shaped object that was checked
/// against the plan (field errors in it are markers, see `FieldErrorMarker`), as relay-runtime's
/// reader does:
/// - a field error (or a null at a semantic non-null level) under `@throwOnFieldError` fails
///   the read, naming the path;
/// - a null (or a field error) at a `@required` field makes its parent object null (`NONE`,
///   `LOG`, the path handed to `log`) or fails the read (`THROW`);
/// - `@catch` turns any field error in the field's value, and any failure of the two above
///   inside it, into a failure marker (`RESULT`) or a null (`NULL`).
///
/// It runs only for selections that have such directives (`handlesFieldErrors`).
extension SelectionPlan {
    /// The object with the directives applied, or `nil` when a `@required` null reached it.
    package func resolveFieldErrors(
        _ object: JSONObject, path: inout [ResponsePath.Component], log: (ResponsePath) -> Void
    ) throws(FieldErrorFailure) -> JSONObject? {
        let planned = self.object(for: object["__typename"]?.stringValue ?? parentType ?? "")
        let fields = planned.fields
        var result = object
        for entry in fields {
            guard let value = object[entry.responseKey] else { continue }
            path.append(.key(entry.responseKey))
            defer { path.removeLast() }
            guard let handling = entry.errorHandling else {
                // Only the objects below can have directives.
                if case .composite(_, let plan) = entry.kind {
                    guard let resolved = try plan.resolveValue(value, handling: nil, level: 0, path: &path, log: log) else { return nil }
                    result[entry.responseKey] = resolved
                }
                continue
            }
            let resolved: JSONValue
            do throws(FieldErrorFailure) {
                guard let value = try resolveField(value, entry: entry, handling: handling, path: &path, log: log) else {
                    return nil  // @required: the null moves to this object
                }
                resolved = value
            } catch {
                guard let target = handling.catchTarget else { throw error }
                resolved = target == .null ? .null : FieldErrorMarker.value(error.caughtErrors)
            }
            if let target = handling.catchTarget {
                var caught: [GraphQLError] = []
                Self.collectErrors(in: resolved, into: &caught)
                if !caught.isEmpty {
                    result[entry.responseKey] = target == .null ? .null : FieldErrorMarker.value(caught)
                    continue
                }
            }
            result[entry.responseKey] = resolved
        }
        for fragment in planned.caught {
            if let caught = Self.resolveCaught(fragment, in: object, into: &result, path: &path, log: log) {
                result[fragment.key] = fragment.target == .null ? .null : FieldErrorMarker.value(caught)
            }
        }
        return result
    }

    /// Reads a `@catch` fragment's selections on `object` on their own and puts what they
    /// resolved into `result` (the object as the rest of the selections resolved it); returns
    /// what it caught instead when a field error, a `@required` null or a failure is in its
    /// fields (`result` is left alone then).
    private static func resolveCaught(
        _ fragment: CaughtFragment, in object: JSONObject, into result: inout JSONObject, path: inout [ResponsePath.Component],
        log: (ResponsePath) -> Void
    ) -> [GraphQLError]? {
        let resolved: JSONObject
        do throws(FieldErrorFailure) {
            guard let value = try fragment.plan.resolveFieldErrors(object, path: &path, log: log) else {
                return [GraphQLError(message: "a @required field of the fragment is null", path: ResponsePath(path))]
            }
            resolved = value
        } catch {
            return error.caughtErrors
        }
        var caught: [GraphQLError] = []
        fragment.plan.collectSelectedErrors(in: resolved, into: &caught)
        if !caught.isEmpty { return caught }
        // Fields the fragment shares with the rest take what each reading changed; two
        // readings that changed the same value differently cannot both be shown: the fragment
        // fails rather than show data its types do not allow.
        var merged = result
        for entry in fragment.plan.object(for: object["__typename"]?.stringValue ?? fragment.plan.parentType ?? "").fields {
            guard let mine = resolved[entry.responseKey] else { continue }
            guard let theirs = merged[entry.responseKey], let original = object[entry.responseKey] else {
                merged[entry.responseKey] = mine
                continue
            }
            guard let value = mergeReadings(original: original, mine: mine, theirs: theirs) else {
                return [
                    GraphQLError(
                        message: "the fragment reads \(entry.responseKey) unlike the selections around it", path: ResponsePath(path + [.key(entry.responseKey)]))
                ]
            }
            merged[entry.responseKey] = value
        }
        result = merged
        return nil
    }

    /// Two resolutions of one value: each part as the one that changed it has it; `nil` when
    /// both changed a part differently.
    private static func mergeReadings(original: JSONValue, mine: JSONValue, theirs: JSONValue) -> JSONValue? {
        if mine == theirs || mine == original { return theirs }
        if theirs == original { return mine }
        switch (original, mine, theirs) {
        case (.object(let base), .object(let left), .object(let right)):
            guard !FieldErrorMarker.isMarker(original), !FieldErrorMarker.isMarker(mine), !FieldErrorMarker.isMarker(theirs) else { return nil }
            var merged = right
            for (key, value) in zip(left.keys, left.values) {
                guard let other = right[key], let before = base[key] else {
                    merged[key] = value
                    continue
                }
                guard let part = mergeReadings(original: before, mine: value, theirs: other) else { return nil }
                merged[key] = part
            }
            return .object(merged)
        case (.list(let base), .list(let left), .list(let right)) where base.count == left.count && base.count == right.count:
            var merged = right
            for index in base.indices {
                guard let part = mergeReadings(original: base[index], mine: left[index], theirs: right[index]) else { return nil }
                merged[index] = part
            }
            return .list(merged)
        default:
            return nil
        }
    }

    /// The field errors in the fields these selections select (not in others of the same
    /// objects, nor in fragments under a `@catch` of their own), in order.
    package func collectSelectedErrors(in object: JSONObject, into errors: inout [GraphQLError]) {
        let planned = self.object(for: object["__typename"]?.stringValue ?? parentType ?? "")
        for entry in planned.fields {
            // A field's own `@catch` handled what it caught.
            guard let value = object[entry.responseKey], entry.errorHandling?.catchTarget == nil else { continue }
            if case .composite(_, let plan) = entry.kind {
                plan.collectSelectedErrors(inValue: value, into: &errors)
            } else {
                Self.collectErrors(in: value, into: &errors)
            }
        }
        // A fragment's own `@catch` inside handled what it caught.
    }

    private func collectSelectedErrors(inValue value: JSONValue, into errors: inout [GraphQLError]) {
        if let found = FieldErrorMarker.errors(in: value) {
            errors += found
            return
        }
        switch value {
        case .object(let object): collectSelectedErrors(in: object, into: &errors)
        case .list(let items): for item in items { collectSelectedErrors(inValue: item, into: &errors) }
        default: return
        }
    }

    /// A field's value with its own handling applied; `nil` when `@required(NONE | LOG)` sends
    /// the null to the parent.
    private func resolveField(
        _ value: JSONValue, entry: PlannedField, handling: FieldErrorHandling, path: inout [ResponsePath.Component],
        log: (ResponsePath) -> Void
    ) throws(FieldErrorFailure) -> JSONValue? {
        let plan: SelectionPlan? = if case .composite(_, let plan) = entry.kind { plan } else { nil }
        let resolved =
            try (plan ?? self).resolveValue(value, handling: handling, level: 0, path: &path, log: log, isComposite: plan != nil)
            ?? .null
        guard let action = handling.required else { return resolved }
        let errors = FieldErrorMarker.errors(in: resolved)
        if case .null = resolved {} else if errors == nil { return resolved }
        switch action {
        case .silent:
            return nil
        case .log:
            log(ResponsePath(path))
            return nil
        case .throw:
            throw FieldErrorFailure(
                path: path, expected: "a value (@required(action: THROW))", found: errors == nil ? "null" : "a field error",
                fieldErrors: errors ?? [])
        }
    }

    /// A value at `level` of a field's type (0: the field, 1: its list's items, …); `nil` when
    /// an object in it took a `@required` null and the value itself becomes null.
    private func resolveValue(
        _ value: JSONValue, handling: FieldErrorHandling?, level: Int, path: inout [ResponsePath.Component],
        log: (ResponsePath) -> Void, isComposite: Bool = true
    ) throws(FieldErrorFailure) -> JSONValue? {
        switch value {
        case .null:
            if let handling, handling.throwsOnFieldError, handling.semanticNonNullLevels.contains(level) {
                throw FieldErrorFailure(path: path, expected: "a value (@semanticNonNull under @throwOnFieldError)", found: "null")
            }
            return .null
        case .list(let items):
            var resolved = items
            for index in items.indices {
                path.append(.index(index))
                defer { path.removeLast() }
                let item = try resolveValue(items[index], handling: handling, level: level + 1, path: &path, log: log, isComposite: isComposite)
                if let item {
                    resolved[index] = item
                } else {
                    // An item that took a `@required` null is null, at its own level.
                    resolved[index] = try resolveValue(.null, handling: handling, level: level + 1, path: &path, log: log) ?? .null
                }
            }
            return .list(resolved)
        case .object(let object):
            if let errors = FieldErrorMarker.errors(in: value) {
                if let handling, handling.throwsOnFieldError {
                    throw FieldErrorFailure(
                        path: path, expected: "a value (@throwOnFieldError)", found: "a field error: \(errors.first?.message ?? "")",
                        fieldErrors: errors)
                }
                return value
            }
            guard isComposite else { return value }  // a custom scalar's object
            guard let resolved = try resolveFieldErrors(object, path: &path, log: log) else {
                return try resolveValue(.null, handling: handling, level: level, path: &path, log: log)
            }
            return .object(resolved)
        default:
            return value
        }
    }

    /// Every field error in `value`, in order.
    private static func collectErrors(in value: JSONValue, into errors: inout [GraphQLError]) {
        switch value {
        case .object(let object):
            if let found = FieldErrorMarker.errors(in: value) {
                errors += found
                return
            }
            // A failure a fragment's own `@catch` caught is not caught again around it.
            for (key, child) in zip(object.keys, object.values) where !key.hasPrefix(FieldErrorMarker.caughtKeyPrefix) {
                collectErrors(in: child, into: &errors)
            }
        case .list(let items):
            for item in items { collectErrors(in: item, into: &errors) }
        default:
            return
        }
    }
}

/// A read failed by `@throwOnFieldError`, `@required(action: THROW)` or a null at a semantic
/// non-null field (the path is in reading order).
package struct FieldErrorFailure: Error {
    package let path: [ResponsePath.Component]
    package let expected: String
    package let found: String
    package let fieldErrors: [GraphQLError]

    init(path: [ResponsePath.Component], expected: String, found: String, fieldErrors: [GraphQLError] = []) {
        self.path = path
        self.expected = expected
        self.found = found
        self.fieldErrors = fieldErrors
    }

    /// What a `@catch` around it holds: the field errors, or one error saying what failed.
    var caughtErrors: [GraphQLError] {
        if !fieldErrors.isEmpty { return fieldErrors }
        return [GraphQLError(message: "expected \(expected), found \(found)", path: ResponsePath(path))]
    }

    /// The public error.
    package var decodingError: SelectionSetDecodingError {
        SelectionSetDecodingError(path: ResponsePath(path), expected: expected, found: found, fieldErrors: fieldErrors)
    }
}

extension SelectionSet {
    /// Checks a response object against the selections, applies their field-error directives
    /// (`@catch`, `@required`, `@throwOnFieldError`) and wraps it; `nil` when a `@required`
    /// null reached the root. `log` hears the paths of `@required(action: LOG)` nulls. Field
    /// errors are in the object as `FieldErrorMarker`s (the client and the store put them there).
    public static func _read(
        jsonObject: JSONObject, variables: JSONObject = [:], log: (ResponsePath) -> Void = { _ in }
    ) throws(SelectionSetDecodingError) -> Self? {
        do {
            try SelectionPlanCache.plan(Self.__selections, parentType: Self.__parentType.name, variables: variables).validate(jsonObject)
        } catch {
            throw error.decodingError
        }
        return try _resolvingFieldErrors(checked: jsonObject, variables: variables, log: log)
    }

    /// Applies the field-error directives to an object already checked against the selections
    /// (the store's executor checked it, or the store read it) and wraps it; `nil` when a
    /// `@required` null reached the root. Selections without such directives cost nothing.
    public static func _resolvingFieldErrors(
        checked object: JSONObject, variables: JSONObject = [:], log: (ResponsePath) -> Void = { _ in }
    ) throws(SelectionSetDecodingError) -> Self? {
        try _resolvingFieldErrorsCatching(checked: object, variables: variables, log: log).data
    }

    /// As `_resolvingFieldErrors(checked:variables:log:)`, with what a `@catch` on the root
    /// (`__catchTarget`) caught: the data is `nil` then, and `caught` holds the field errors
    /// in it, or the failure of a `@required(action: THROW)`, `@throwOnFieldError` or a
    /// `@required` null that reached the root.
    public static func _resolvingFieldErrorsCatching(
        checked object: JSONObject, variables: JSONObject = [:], log: (ResponsePath) -> Void = { _ in }
    ) throws(SelectionSetDecodingError) -> (data: Self?, caught: GraphQLFieldError?) {
        let catchTarget = Self.__catchTarget
        guard catchTarget != nil || Self.__selections.handlesFieldErrors else { return (Self(_dataDict: DataDict(object)), nil) }
        let plan = SelectionPlanCache.plan(Self.__selections, parentType: Self.__parentType.name, variables: variables, separatesCaughtFragments: true)
        var path: [ResponsePath.Component] = []
        let resolved: JSONObject?
        do throws(FieldErrorFailure) {
            resolved = try plan.resolveFieldErrors(object, path: &path, log: log)
        } catch {
            guard let catchTarget else { throw error.decodingError }
            return (nil, catchTarget == .result ? GraphQLFieldError(errors: error.caughtErrors) : nil)
        }
        guard let catchTarget else { return (resolved.map { Self(_dataDict: DataDict($0)) }, nil) }
        guard let resolved else {
            let error = GraphQLError(message: "a @required field is null and its null reached the root")
            return (nil, catchTarget == .result ? GraphQLFieldError(errors: [error]) : nil)
        }
        var caught: [GraphQLError] = []
        plan.collectSelectedErrors(in: resolved, into: &caught)
        if !caught.isEmpty { return (nil, catchTarget == .result ? GraphQLFieldError(errors: caught) : nil) }
        return (Self(_dataDict: DataDict(resolved)), nil)
    }
}
