/// A value that can be sent as a GraphQL variable or input-object field.
///
/// `variableJSON` is `nil` when the value is absent (an omitted argument), which is different
/// from `JSONValue.null` (an explicit null).
public protocol GraphQLVariableValue: Sendable {
    var variableJSON: JSONValue? { get }
}

extension String: GraphQLVariableValue {
    public var variableJSON: JSONValue? { .string(self) }
}

extension Int: GraphQLVariableValue {
    public var variableJSON: JSONValue? { .int(self) }
}

extension Double: GraphQLVariableValue {
    public var variableJSON: JSONValue? { .double(self) }
}

extension Bool: GraphQLVariableValue {
    public var variableJSON: JSONValue? { .bool(self) }
}

extension JSONValue: GraphQLVariableValue {
    public var variableJSON: JSONValue? { self }
}

extension Array: GraphQLVariableValue where Element: GraphQLVariableValue {
    public var variableJSON: JSONValue? { .list(map { $0.variableJSON ?? .null }) }
}

extension Optional: GraphQLVariableValue where Wrapped: GraphQLVariableValue {
    /// `nil` is an explicit null here; use ``GraphQLNullable`` to tell absent from null.
    public var variableJSON: JSONValue? {
        switch self {
        case .none: return .null
        case .some(let wrapped): return wrapped.variableJSON
        }
    }
}

/// Variables of an operation by name, as the operation's typed properties produce them.
public typealias GraphQLVariables = [String: any GraphQLVariableValue]

extension Dictionary where Key == String, Value == any GraphQLVariableValue {
    /// The variables as a JSON object, absent values left out, keys sorted for a stable order.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        for key in keys.sorted() {
            if let json = self[key]?.variableJSON { object[key] = json }
        }
        return object
    }
}
