/// A Swift enum generated for a GraphQL enum type: its raw values are the GraphQL names.
public protocol EnumType: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {}

/// A GraphQL enum value as received: a case the client knows, or a value added to the schema
/// after the client was generated, kept as its raw name instead of failing.
public enum GraphQLEnum<T: EnumType>: Sendable, Hashable {
    case `case`(T)
    case unknown(String)

    /// The value from its GraphQL name.
    public init(rawValue: String) {
        if let known = T(rawValue: rawValue) { self = .case(known) } else { self = .unknown(rawValue) }
    }

    /// A known case.
    public init(_ value: T) { self = .case(value) }

    /// The GraphQL name.
    public var rawValue: String {
        switch self {
        case .case(let value): return value.rawValue
        case .unknown(let raw): return raw
        }
    }

    /// The known case, or `nil` for an unknown value.
    public var value: T? {
        if case .case(let value) = self { return value }
        return nil
    }

    public static func == (lhs: GraphQLEnum<T>, rhs: T) -> Bool { lhs.value == rhs }
    public static func != (lhs: GraphQLEnum<T>, rhs: T) -> Bool { lhs.value != rhs }
}

extension GraphQLEnum: GraphQLVariableValue {
    public var variableJSON: JSONValue? { .string(rawValue) }
}

extension GraphQLEnum: ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral,
    ExpressibleByExtendedGraphemeClusterLiteral
{
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public init(unicodeScalarLiteral value: String) { self.init(rawValue: value) }
    public init(extendedGraphemeClusterLiteral value: String) { self.init(rawValue: value) }
}

extension GraphQLEnum: CustomStringConvertible {
    public var description: String { rawValue }
}

/// Compares an optional enum value (an element of a list of nullable enums) with a known case.
public func == <T: EnumType>(lhs: GraphQLEnum<T>?, rhs: T) -> Bool {
    lhs?.value == rhs
}

public func != <T: EnumType>(lhs: GraphQLEnum<T>?, rhs: T) -> Bool {
    !(lhs == rhs)
}
