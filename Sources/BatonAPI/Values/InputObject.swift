/// A generated GraphQL input object: a typed struct over ``InputDict``.
public protocol InputObject: GraphQLVariableValue, Hashable {
    var __data: InputDict { get }
}

extension InputObject {
    public var variableJSON: JSONValue? { .object(__data.jsonObject) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.__data == rhs.__data }
    public func hash(into hasher: inout Hasher) { hasher.combine(__data) }
}

/// The fields of an input object, in declaration order, with absent ones kept as absent.
public struct InputDict: Sendable, Hashable {
    private var keys: [String]
    private var values: [String: any GraphQLVariableValue]

    /// The fields in order; a field given `GraphQLNullable.none` stays absent.
    public init(_ fields: KeyValuePairs<String, any GraphQLVariableValue> = [:]) {
        keys = fields.map(\.key)
        values = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// A field's value. The generated accessor knows the type it stored.
    public subscript<T: GraphQLVariableValue>(key: String) -> T {
        get {
            guard let value = values[key] as? T else {
                preconditionFailure("InputDict: field \(key) does not hold a \(T.self)")
            }
            return value
        }
        set {
            if values[key] == nil { keys.append(key) }
            values[key] = newValue
        }
    }

    /// The fields as JSON, absent ones left out.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        for key in keys {
            if let json = values[key]?.variableJSON { object[key] = json }
        }
        return object
    }

    public static func == (lhs: InputDict, rhs: InputDict) -> Bool { lhs.jsonObject == rhs.jsonObject }
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonObject) }
}
