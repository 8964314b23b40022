/// What a value must be: one level of a field's type, with the level below it. The walks over a
/// ``SelectionPlan`` check values with it; an object's fields are checked by the walk, with the
/// field's sub-plan.
package final class ValueCheck {
    package enum Kind {
        case nonNull, list, string, int, float, boolean, id, enumeration, object
        /// A custom scalar: its Swift type reads it, or anything goes when it has none.
        case custom
    }

    package let kind: Kind
    /// This level of the field's type, for error messages.
    package let type: FieldType
    /// The level below, for a non-null or a list.
    package let inner: ValueCheck?
    /// ``inner``, held without a reference count (``inner`` keeps it): the walk over a
    /// response's bytes follows it without retaining it.
    package let innerUnretained: Unmanaged<ValueCheck>?
    private let scalar: (any SelectionSetValue.Type)?

    package init(type: FieldType, scalar: (any SelectionSetValue.Type)?) {
        self.type = type
        var inner: ValueCheck?
        var custom: (any SelectionSetValue.Type)?
        switch type {
        case .nonNull(let wrapped):
            kind = .nonNull
            inner = ValueCheck(type: wrapped, scalar: scalar)
        case .list(let element):
            kind = .list
            inner = ValueCheck(type: element, scalar: scalar)
        case .scalar(let name):
            switch name {
            case "String": kind = .string
            case "Int": kind = .int
            case "Float": kind = .float
            case "Boolean": kind = .boolean
            case "ID": kind = .id
            default:
                kind = .custom
                custom = scalar
            }
        case .enumeration:
            kind = .enumeration
        case .object:
            kind = .object
        }
        self.inner = inner
        innerUnretained = inner.map { Unmanaged.passUnretained($0) }
        self.scalar = custom
    }

    /// Checks a value of a scalar or enum type (or lists of them); an object level is the
    /// walk's to check (this only tells that it is an object).
    package func validate(_ value: JSONValue) throws(ValidationMismatch) {
        if case .null = value {
            if kind == .nonNull { throw ValidationMismatch(expected: type.graphQLDescription, found: "null") }
            return
        }
        switch kind {
        case .nonNull:
            if FieldErrorMarker.isMarker(value) {
                throw ValidationMismatch(expected: type.graphQLDescription, found: "a field error")
            }
            try inner!.validate(value)
            return
        case .list:
            guard case .list(let elements) = value else { break }
            let inner = inner!
            try elements.withUnsafeBufferPointer { elements throws(ValidationMismatch) in
                for index in elements.indices {
                    do throws(ValidationMismatch) {
                        try inner.validate(elements[index])
                    } catch {
                        throw error.inside(.index(index))
                    }
                }
            }
            return
        case .object:
            if case .object = value { return }
        case .string:
            if case .string = value { return }
        case .int:
            if case .int = value { return }
        case .float:
            switch value {
            case .double, .int: return
            default: break
            }
        case .boolean:
            if case .bool = value { return }
        case .id:
            switch value {
            case .string, .int: return
            default: break
            }
        case .enumeration:
            if case .string = value { return }
        case .custom:
            // Custom scalars read themselves; without a Swift type anything goes.
            if scalar.map({ $0._fromJSON(value) != nil }) ?? true { return }
        }
        // A field error kept in the data stands for the null the server sent.
        if FieldErrorMarker.isMarker(value) { return }
        throw mismatch(found: value)
    }

    /// The error for `value` found where this level wants something else.
    package func mismatch(found value: JSONValue) -> ValidationMismatch {
        ValidationMismatch(expected: expectation, found: value.kindDescription)
    }

    /// What the selections call for at this level, as an error says it.
    private var expectation: String {
        switch type {
        case .scalar(let name): return name
        case .enumeration(let name): return "\(name) (an enum value)"
        case .object(let name): return "\(name) (an object)"
        case .nonNull, .list: return type.graphQLDescription
        }
    }
}

/// A value that does not match its check, with the path to it built while unwinding (innermost
/// component first), so a walk that succeeds keeps no path at all.
package struct ValidationMismatch: Error {
    package var reversedPath: [ResponsePath.Component] = []
    package let expected: String
    package let found: String

    package init(at component: ResponsePath.Component? = nil, expected: String, found: String) {
        if let component { reversedPath = [component] }
        self.expected = expected
        self.found = found
    }

    package func inside(_ component: ResponsePath.Component) -> ValidationMismatch {
        var outer = self
        outer.reversedPath.append(component)
        return outer
    }

    /// The public error, its path in reading order.
    package var decodingError: SelectionSetDecodingError {
        SelectionSetDecodingError(path: ResponsePath(Array(reversedPath.reversed())), expected: expected, found: found)
    }
}
