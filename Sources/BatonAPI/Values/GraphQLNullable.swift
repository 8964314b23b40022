/// An input value that can be absent, explicitly null, or a value: GraphQL tells "not given"
/// (the server uses the default) from "given as null".
///
/// `nil` as a literal means absent; use `.null` for an explicit null.
public enum GraphQLNullable<Wrapped: Sendable>: Sendable {
    case none
    case null
    case some(Wrapped)

    /// The wrapped value, or `nil` when absent or null.
    public var unwrapped: Wrapped? {
        if case .some(let value) = self { return value }
        return nil
    }
}

extension GraphQLNullable: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .none }
}

extension GraphQLNullable {
    /// `.some(value)` for a value, `.null` for `nil`.
    public init(_ optional: Wrapped?) {
        if let optional { self = .some(optional) } else { self = .null }
    }
}

extension GraphQLNullable: ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral,
    ExpressibleByExtendedGraphemeClusterLiteral
where Wrapped: ExpressibleByStringLiteral {
    public init(stringLiteral value: Wrapped.StringLiteralType) { self = .some(Wrapped(stringLiteral: value)) }
    public init(unicodeScalarLiteral value: Wrapped.StringLiteralType) { self = .some(Wrapped(stringLiteral: value)) }
    public init(extendedGraphemeClusterLiteral value: Wrapped.StringLiteralType) {
        self = .some(Wrapped(stringLiteral: value))
    }
}

extension GraphQLNullable: ExpressibleByIntegerLiteral where Wrapped: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Wrapped.IntegerLiteralType) { self = .some(Wrapped(integerLiteral: value)) }
}

extension GraphQLNullable: ExpressibleByFloatLiteral where Wrapped: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Wrapped.FloatLiteralType) { self = .some(Wrapped(floatLiteral: value)) }
}

extension GraphQLNullable: ExpressibleByBooleanLiteral where Wrapped: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Wrapped.BooleanLiteralType) { self = .some(Wrapped(booleanLiteral: value)) }
}

extension GraphQLNullable: ExpressibleByArrayLiteral where Wrapped: RangeReplaceableCollection {
    public init(arrayLiteral elements: Wrapped.Element...) { self = .some(Wrapped(elements)) }
}

extension GraphQLNullable: Equatable where Wrapped: Equatable {}
extension GraphQLNullable: Hashable where Wrapped: Hashable {}

extension GraphQLNullable: GraphQLVariableValue where Wrapped: GraphQLVariableValue {
    public var variableJSON: JSONValue? {
        switch self {
        case .none: return nil
        case .null: return .null
        case .some(let value): return value.variableJSON
        }
    }
}
