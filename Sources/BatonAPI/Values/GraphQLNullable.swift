/// An input value that can be absent, explicitly null, or a value: GraphQL tells "not given"
/// (the server uses the default) from "given as null".
///
/// `nil` as a literal means absent; use `.null` for an explicit null. A value is written as
/// naturally as Swift allows:
///
/// ```swift
/// HeroNameQuery(episode: .empire)            // a generated shorthand for each enum case
/// HeroNameQuery(episode: .some(.empire))     // the same
/// HeroNameQuery(episode: .init(Episode.jedi)) // an enum case held in a variable: .init(episode)
/// SearchQuery(text: "falcon")                 // string, integer, float, boolean and array literals
/// SearchQuery(text: .init(text))              // a value in a variable (`nil` becomes `.null`)
/// SearchQuery(text: optionalText ?? .none)    // a Swift optional: absent when nil
/// ReviewInput(stars: 5, favorite_color: .init(ColorInput(red: 1, green: 2, blue: 3)))
/// ```
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

    /// A known case of a generated enum: `.init(episode)` instead of `.some(.case(episode))`.
    public init<T: EnumType>(_ caseValue: T) where Wrapped == GraphQLEnum<T> {
        self = .some(.case(caseValue))
    }
}

/// A Swift optional as a nullable input: its value when there is one, else `rhs` (`.none` to
/// leave the input out, `.null` to send null). Disfavored, so `optional ?? .null` keeps meaning
/// what it meant wherever the other operand is not a `GraphQLNullable` (a `JSONValue`'s `.null`).
@_disfavoredOverload
public func ?? <T>(lhs: T?, rhs: GraphQLNullable<T>) -> GraphQLNullable<T> {
    if let lhs { return .some(lhs) }
    return rhs
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
