/// A response object did not match the selections it was read with.
public struct SelectionSetDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the response: `hero.friends[2].name`.
    public let path: ResponsePath
    /// What the selections call for: `String`, `[Character]!`, `an object`.
    public let expected: String
    /// What was there: `Int 42`, `null`, `nothing`.
    public let found: String
    /// For a read failed by `@throwOnFieldError` or `@required(action: THROW)`: the field errors
    /// that failed it (empty for a null without an error, and for a mismatch).
    public let fieldErrors: [GraphQLError]

    /// An error at `path`.
    public init(path: ResponsePath, expected: String, found: String, fieldErrors: [GraphQLError] = []) {
        self.path = path
        self.expected = expected
        self.found = found
        self.fieldErrors = fieldErrors
    }

    public var description: String { "\(path): expected \(expected), found \(found)" }
}

extension SelectionPlan {
    /// Checks a response object against the plan: every required field is there and every value
    /// has the selected type. The store's executor makes the same checks while it normalizes.
    package func validate(_ object: JSONObject) throws(ValidationMismatch) {
        let fields = self.object(for: object["__typename"]?.stringValue ?? parentType ?? "").fields
        // Values are looked at in place, not copied out: a copy retains the value's storage,
        // which on a large response is a cache miss per value.
        try object.values.withUnsafeBufferPointer { values throws(ValidationMismatch) in
            for entry in fields {
                guard let position = object.position(of: entry.responseKey) else {
                    // A nullable client-only field absent from data the server gave reads as null.
                    if entry.isRequired && !(entry.isClientOnly && entry.check.kind != .nonNull) {
                        throw ValidationMismatch(
                            at: .key(entry.responseKey), expected: entry.check.type.graphQLDescription, found: "nothing")
                    }
                    continue
                }
                do throws(ValidationMismatch) {
                    if case .composite(_, let plan) = entry.kind {
                        try plan.validateValue(values[position], check: entry.check)
                    } else {
                        try entry.check.validate(values[position])
                    }
                } catch {
                    throw error.inside(.key(entry.responseKey))
                }
            }
        }
    }

    /// Checks the value of a composite field at the level `check` describes.
    private func validateValue(_ value: JSONValue, check: ValueCheck) throws(ValidationMismatch) {
        if case .null = value {
            if check.kind == .nonNull { throw ValidationMismatch(expected: check.type.graphQLDescription, found: "null") }
            return
        }
        if FieldErrorMarker.isMarker(value) {
            // A field error kept in the data stands for the null the server sent.
            if check.kind == .nonNull { throw ValidationMismatch(expected: check.type.graphQLDescription, found: "a field error") }
            return
        }
        switch check.kind {
        case .nonNull:
            try validateValue(value, check: check.inner!)
        case .list:
            guard case .list(let elements) = value else { throw check.mismatch(found: value) }
            let inner = check.inner!
            try elements.withUnsafeBufferPointer { elements throws(ValidationMismatch) in
                for index in elements.indices {
                    do throws(ValidationMismatch) {
                        try validateValue(elements[index], check: inner)
                    } catch {
                        throw error.inside(.index(index))
                    }
                }
            }
        default:
            guard case .object(let object) = value else { throw check.mismatch(found: value) }
            try validate(object)
        }
    }
}
