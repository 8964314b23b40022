/// A custom scalar (`DateTime`, `URL`, …) that the app maps to a Swift type: it reads itself from
/// the JSON the server sends and writes itself back as a variable.
public protocol CustomScalarType: GraphQLVariableValue, SelectionSetValue, Hashable {
    /// Reads the scalar; throws ``ScalarDecodingError`` when the JSON is not a valid value.
    init(jsonValue: JSONValue) throws
    /// The scalar as JSON.
    var jsonValue: JSONValue { get }
}

extension CustomScalarType {
    public var variableJSON: JSONValue? { jsonValue }
}

/// A custom scalar could not read the JSON it was given.
public struct ScalarDecodingError: Error, Sendable, CustomStringConvertible {
    /// What the scalar reads, such as `an ISO 8601 date`.
    public let expected: String
    /// The JSON it was given.
    public let found: JSONValue

    /// An error for a scalar expecting `expected` that was given `found`.
    public init(expected: String, found: JSONValue) {
        self.expected = expected
        self.found = found
    }

    public var description: String { "expected \(expected), found \(found.kindDescription)" }
}
