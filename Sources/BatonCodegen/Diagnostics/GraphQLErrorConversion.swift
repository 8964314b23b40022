import GraphQL

extension CodegenError {
    /// An error from GraphQLSwift, located by its AST nodes (each node knows its own file, so
    /// errors in documents merged from several files still point to the right one).
    init(_ error: GraphQLError, defaultPath: String) {
        var message = error.message
        if message.hasPrefix("Syntax Error") {
            // "Syntax Error <name> (l:c) <description>\n\n<excerpt>"
            if let close = message.range(of: ") ") {
                message = "syntax error: " + message[close.upperBound...]
            }
            if let excerpt = message.range(of: "\n\n") { message = String(message[..<excerpt.lowerBound]) }
        }
        let locations = error.nodes.compactMap { $0.loc.map(SourceLocation.init(graphQLLocation:)) }
        if let first = locations.first {
            let notes = locations.dropFirst().filter { $0 != first }.map { CodegenNote("also here", at: $0) }
            self.init(message, at: first, notes: notes)
        } else if let location = error.locations.first {
            self.init(message, at: SourceLocation(path: error.source?.name ?? defaultPath, line: location.line, column: location.column))
        } else {
            // No place given: the start of the file, so the error still says which.
            self.init(message, at: SourceLocation(path: error.source?.name ?? defaultPath, line: 1, column: 1))
        }
    }
}

extension SourceLocation {
    /// The start of a GraphQLSwift AST node.
    init(graphQLLocation location: Location) {
        self.init(path: location.source.name, line: location.startToken.line, column: location.startToken.column)
    }

    /// The start of an AST node, or the start of `path` when the node has no location.
    static func of(_ node: (any Node)?, orStartOf path: String = "<unknown>") -> SourceLocation {
        if let loc = node?.loc { return SourceLocation(graphQLLocation: loc) }
        return SourceLocation(path: path, line: 1, column: 1)
    }
}
