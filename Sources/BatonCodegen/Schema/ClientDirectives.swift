/// Baton's client directives, declared for the validator when the schema lacks them.
enum ClientDirectives {
    /// Path used in locations of errors inside these declarations.
    static let sourceName = "<baton client directives>"

    /// Each directive's name and SDL declaration.
    static let declarations: [(name: String, sdl: String)] = [
        ("connection", "directive @connection(key: String!, filters: [String!]) on FIELD"),
        ("appendNode", "directive @appendNode(connections: [ID!]!, edgeTypeName: String!) on FIELD"),
        ("prependNode", "directive @prependNode(connections: [ID!]!, edgeTypeName: String!) on FIELD"),
        ("appendEdge", "directive @appendEdge(connections: [ID!]!) on FIELD"),
        ("prependEdge", "directive @prependEdge(connections: [ID!]!) on FIELD"),
        ("deleteEdge", "directive @deleteEdge(connections: [ID!]!) on FIELD"),
        ("deleteRecord", "directive @deleteRecord on FIELD"),
        ("refetchable", "directive @refetchable(queryName: String!) on FRAGMENT_DEFINITION"),
        ("argumentDefinitions", "directive @argumentDefinitions on FRAGMENT_DEFINITION"),
        ("arguments", "directive @arguments on FRAGMENT_SPREAD"),
        ("defer", "directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT"),
        ("stream", "directive @stream(label: String, if: Boolean! = true, initialCount: Int = 0) on FIELD"),
        ("typePolicy", "directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE"),
        ("alias", "directive @alias(as: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT"),
        (localCacheMutation, "directive @\(localCacheMutation) on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
    ]

    /// Directives that only the client understands: the documents sent to servers leave them
    /// out (with the variables only they use). `@defer` and `@stream` are the server's.
    static let clientOnly: Set<String> = [
        "connection", "appendNode", "prependNode", "appendEdge", "prependEdge", "deleteEdge", "deleteRecord",
        "refetchable", "argumentDefinitions", "arguments", "alias", localCacheMutation,
    ]

    /// Apollo's mark of an operation or fragment whose generated types are mutable, for typed
    /// edits of cached data.
    static let localCacheMutation = "apollo_client_ios_localCacheMutation"

    /// Directives whose arguments are free-form (Relay's fragment arguments).
    static let freeFormArguments: Set<String> = ["argumentDefinitions", "arguments"]

    /// The SDL declaring the directives of `declarations` whose names are not in `declared`.
    static func missingDeclarations(declared: Set<String>) -> String {
        declarations.filter { !declared.contains($0.name) }.map(\.sdl).joined(separator: "\n")
    }
}
