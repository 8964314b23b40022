/// A response object did not match the selections it was read with.
public struct SelectionSetDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the response: `hero.friends[2].name`.
    public let path: ResponsePath
    /// What the selections call for: `String`, `[Character]!`, `an object`.
    public let expected: String
    /// What was there: `Int 42`, `null`, `nothing`.
    public let found: String

    public init(path: ResponsePath, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    public var description: String { "\(path): expected \(expected), found \(found)" }
}

/// Checks a response object against selection metadata.
struct SelectionSetValidator {
    let variables: JSONObject
    /// Where the walk is; made into a ``ResponsePath`` only for an error.
    private var path: [ResponsePath.Component] = []

    init(variables: JSONObject) {
        self.variables = variables
    }

    private func mismatch(expected: String, found: String) -> SelectionSetDecodingError {
        SelectionSetDecodingError(path: ResponsePath(path), expected: expected, found: found)
    }

    /// Whether selections under these conditions apply: `true`, `false`, or `nil` when a
    /// variable they need was not given (then the data may or may not be there).
    private func applies(_ conditions: [InclusionCondition]) -> Bool? {
        var result: Bool? = true
        for condition in conditions {
            switch condition.evaluate(with: variables) {
            case false?: return false
            case nil: result = nil
            case true?: break
            }
        }
        return result
    }

    mutating func validateObject(
        _ object: JSONObject, selections: [Selection], parentType: String, optional: Bool = false
    ) throws(SelectionSetDecodingError) {
        let typename = object["__typename"]?.stringValue
        for selection in selections {
            switch selection {
            case .field(let field):
                let applies = applies(field.conditions)
                if applies == false { continue }
                let key = field.responseKey
                guard let value = object[key] else {
                    // `__id` is the store's record ID: servers do not send it.
                    if optional || applies == nil || field.name == "__id" { continue }
                    path.append(.key(key))
                    throw mismatch(expected: field.type.graphQLDescription, found: "nothing")
                }
                path.append(.key(key))
                try validateValue(value, type: field.type, selections: field.selections, scalar: field.scalar)
                path.removeLast()
            case .inlineFragment(let fragment):
                // A deferred fragment that has not arrived yet is not an error.
                guard let applies = applies(fragment.conditions), !fragment.isDeferred || applies == false else {
                    try validateConditional(object, fragment.typeCondition, fragment.selections, parentType, typename)
                    continue
                }
                if !applies { continue }
                if let condition = fragment.typeCondition, !Self.fragment(on: condition, appliesTo: typename, parentType) {
                    continue
                }
                try validateObject(object, selections: fragment.selections, parentType: parentType, optional: optional)
            case .fragmentSpread(let spread):
                guard let applies = applies(spread.conditions), !spread.isDeferred || applies == false else {
                    try validateConditional(object, spread.typeCondition, spread.selections, parentType, typename)
                    continue
                }
                if !applies || !Self.fragment(on: spread.typeCondition, appliesTo: typename, parentType) { continue }
                try validateObject(object, selections: spread.selections, parentType: parentType, optional: optional)
            }
        }
    }

    /// Selections under a condition that cannot be evaluated: what is there must match, but
    /// nothing is required.
    private mutating func validateConditional(
        _ object: JSONObject, _ condition: TypeCondition?, _ selections: [Selection], _ parentType: String,
        _ typename: String?
    ) throws(SelectionSetDecodingError) {
        if let condition, !Self.fragment(on: condition, appliesTo: typename, parentType) { return }
        try validateObject(object, selections: selections, parentType: parentType, optional: true)
    }

    /// Whether a fragment on `condition` applies to an object of `parentType` whose
    /// `__typename` is `typename`: when the type condition matches the typename, or the parent
    /// type itself. In the second case every object here is of the fragment's type whatever its
    /// `__typename` says (a type added to the schema after the code was generated, say), and
    /// the generated accessors read the fragment's fields as the parent's: they must be there.
    private static func fragment(on condition: TypeCondition, appliesTo typename: String?, _ parentType: String) -> Bool {
        condition.matches(typename ?? parentType) || condition.matches(parentType)
    }

    private mutating func validateValue(
        _ value: JSONValue, type: FieldType, selections: [Selection], scalar: (any SelectionSetValue.Type)?
    ) throws(SelectionSetDecodingError) {
        switch type {
        case .nonNull(let inner):
            if case .null = value {
                throw mismatch(expected: type.graphQLDescription, found: "null")
            }
            try validateValue(value, type: inner, selections: selections, scalar: scalar)
        case .list(let inner):
            if case .null = value { return }
            guard case .list(let elements) = value else {
                throw mismatch(expected: type.graphQLDescription, found: value.kindDescription)
            }
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                try validateValue(element, type: inner, selections: selections, scalar: scalar)
                path.removeLast()
            }
        case .scalar(let name):
            if case .null = value { return }
            let ok: Bool
            switch name {
            case "String": ok = value.stringValue != nil
            case "Int": ok = value.intValue != nil
            case "Float": ok = value.doubleValue != nil
            case "Boolean": ok = value.boolValue != nil
            case "ID":
                if case .int = value { ok = true } else { ok = value.stringValue != nil }
            default: ok = scalar.map { $0._fromJSON(value) != nil } ?? true  // custom scalars read themselves
            }
            if !ok {
                throw mismatch(expected: name, found: value.kindDescription)
            }
        case .enumeration(let name):
            if case .null = value { return }
            guard value.stringValue != nil else {
                throw mismatch(expected: "\(name) (an enum value)", found: value.kindDescription)
            }
        case .object(let name):
            if case .null = value { return }
            guard case .object(let object) = value else {
                throw mismatch(expected: "\(name) (an object)", found: value.kindDescription)
            }
            try validateObject(object, selections: selections, parentType: name)
        }
    }
}
