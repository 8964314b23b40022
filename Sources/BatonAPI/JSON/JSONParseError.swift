/// Why a JSON text could not be parsed, and where: the byte offset of the problem and what the
/// parser expected there.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero-based offset of the offending byte in the input.
    public let offset: Int
    /// What the parser expected, such as `',' or '}'` or `a value`.
    public let expected: String
    /// What it found instead, such as `'x'` or `end of input`.
    public let found: String

    /// An error at byte `offset`.
    public init(offset: Int, expected: String, found: String) {
        self.offset = offset
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "invalid JSON at byte \(offset): expected \(expected), found \(found)"
    }
}
