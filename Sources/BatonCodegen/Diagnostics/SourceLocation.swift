/// A place in an input file: the file's path and a 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form terminals and editors link.
    public var description: String { "\(path):\(line):\(column)" }
}
