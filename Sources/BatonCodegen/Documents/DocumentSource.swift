import GraphQL

/// One input of executable GraphQL: a `.graphql` file, or the `graphql("""…""")` literals of a
/// `.swift` file with everything else blanked out so lines and columns are the Swift file's.
public struct DocumentSource: Sendable, Hashable {
    public let path: String
    /// GraphQL text whose lines and columns are those of the file at `path`.
    public let text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// Parses the source; a syntax error names its place in the file.
    func parseDocument() throws(CodegenError) -> Document {
        do {
            return try parse(source: Source(body: text, name: path))
        } catch let error as GraphQLError {
            throw CodegenError(error, defaultPath: path)
        } catch {
            throw CodegenError("cannot parse: \(error)", at: SourceLocation(path: path, line: 1, column: 1))
        }
    }
}
