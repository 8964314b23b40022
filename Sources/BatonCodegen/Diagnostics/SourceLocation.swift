/// A place in an input file: the file's path and a 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path, as given to the generator.
    public let path: String
    /// The line, from 1.
    public let line: Int
    /// The column, from 1.
    public let column: Int

    /// A place in the file at `path`.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form terminals and editors link.
    public var description: String { "\(path):\(line):\(column)" }
}
