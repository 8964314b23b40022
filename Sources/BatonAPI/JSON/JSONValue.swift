/// A JSON value as a GraphQL client sees it: booleans stay distinct from numbers, integers from
/// doubles, and objects keep the order of their keys.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The value's string, if it is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value's integer, if it is an integer.
    public var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The value as a double, if it is a number (an integer converts).
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }

    /// The value's boolean, if it is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value's elements, if it is a list.
    public var listValue: [JSONValue]? {
        if case .list(let value) = self { return value }
        return nil
    }

    /// The value's object, if it is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member of an object value, or `nil` when this is not an object or has no such key.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A short description of the value's kind, for error messages: `String "abc"`, `Int 42`, `an object`.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "Boolean \(value)"
        case .int(let value): return "Int \(value)"
        case .double(let value): return "Float \(value)"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "String \"\(shown)\""
        case .list(let value): return "a list of \(value.count)"
        case .object: return "an object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .list(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value serialized as compact JSON.
    public var description: String { serializedString() }
}
