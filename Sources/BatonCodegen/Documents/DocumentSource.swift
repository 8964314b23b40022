import GraphQL

/// One input of executable GraphQL: a `.graphql` file, or the `graphql("""…""")` literals of a
/// `.swift` file with everything else blanked out so lines and columns are the Swift file's.
public struct DocumentSource: Sendable, Hashable {
    /// The file the text came from, for located errors.
    public let path: String
    /// GraphQL text whose lines and columns are those of the file at `path`.
    public let text: String

    /// A source read from `path`.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// Whether the source holds nothing but whitespace, commas and comments (a document GraphQL
    /// would reject for having no definitions).
    var isEmpty: Bool {
        var inComment = false
        for character in text.unicodeScalars {
            if inComment {
                if character == "\n" || character == "\r" { inComment = false }
                continue
            }
            switch character {
            case "#": inComment = true
            case " ", "\t", "\n", "\r", ",", "\u{FEFF}": continue
            default: return false
            }
        }
        return true
    }

    /// Parses the source (descriptions of operations, fragments and variables blanked out:
    /// `ExecutableDescriptions`); a syntax error names its place in the file.
    func parseDocument() throws(CodegenError) -> Document {
        do {
            return try parse(source: Source(body: ExecutableDescriptions.blanked(text), name: path))
        } catch let error as GraphQLError {
            throw CodegenError(error, defaultPath: path)
        } catch {
            throw CodegenError("cannot parse: \(error)", at: SourceLocation(path: path, line: 1, column: 1))
        }
    }
}
