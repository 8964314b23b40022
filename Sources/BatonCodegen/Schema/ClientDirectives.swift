import Foundation

/// Baton's client directives, declared for the validator when the schema lacks them.
enum ClientDirectives {
    /// Path used in locations of errors inside these declarations.
    static let sourceName = "<baton client directives>"

    /// Each directive's name and SDL declaration (with the enum types its arguments take, when
    /// the schema lacks them: `enumTypes`).
    ///
    /// Relay's document directives are declared as relay-compiler declares them. Those whose
    /// meaning Baton does not implement yet are accepted and stripped from what is sent, so that a
    /// Relay app's documents generate; what they mean is issue 29's:
    /// - `@relay(mask: false)` on a spread: the fragment's fields are read on the parent, which
    ///   Baton always does (a spread's fields are merged into the parent's accessors);
    ///   `@relay(plural: true)`: the fragment is spread into each item of a list and read per item
    ///   (`items.map(\.fragments.row)`), as any fragment is; no array-level reader.
    /// - `@inline`: the fragment is read through `fragments` like any other (no `readInlineData`).
    /// - `@raw_response_type`: no raw response type is generated.
    /// - `@preloadable`: no preloading registry.
    /// - `@relay_test_operation`: no mock payload metadata (BatonTesting's mocks need none).
    /// - `@refetchable(directives:, preferFetchable:)` and `@connection(handler:,
    ///   dynamicKey_UNSTABLE:, prefetchable_pagination:)`: those arguments are accepted and ignored.
    static let declarations: [(name: String, sdl: String)] = [
        (
            "connection",
            "directive @connection(key: String!, filters: [String], handler: String, dynamicKey_UNSTABLE: String, prefetchable_pagination: Boolean) on FIELD"
        ),
        ("appendNode", "directive @appendNode(connections: [ID!]!, edgeTypeName: String!) on FIELD"),
        ("prependNode", "directive @prependNode(connections: [ID!]!, edgeTypeName: String!) on FIELD"),
        ("appendEdge", "directive @appendEdge(connections: [ID!]!) on FIELD"),
        ("prependEdge", "directive @prependEdge(connections: [ID!]!) on FIELD"),
        ("deleteEdge", "directive @deleteEdge(connections: [ID!]!) on FIELD"),
        ("deleteRecord", "directive @deleteRecord on FIELD"),
        ("refetchable", "directive @refetchable(queryName: String!, directives: [String!], preferFetchable: Boolean) on FRAGMENT_DEFINITION"),
        ("argumentDefinitions", "directive @argumentDefinitions on FRAGMENT_DEFINITION"),
        ("arguments", "directive @arguments on FRAGMENT_SPREAD"),
        ("defer", "directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT"),
        ("stream", "directive @stream(label: String, if: Boolean! = true, initialCount: Int = 0) on FIELD"),
        // Apollo's cache spec (https://specs.apollo.dev/cache/v0.x), as Apollo Kotlin and Apollo
        // iOS declare it; `forFields` is accepted beside `forField`. See CachePolicies.
        (
            "typePolicy",
            #"directive @typePolicy(keyFields: String! = "", embeddedFields: String! = "", connectionFields: String! = "") on OBJECT | INTERFACE | UNION"#
        ),
        (
            "fieldPolicy",
            #"directive @fieldPolicy(forField: String, forFields: String, keyArgs: String! = "", paginationArgs: String! = "") repeatable on OBJECT | INTERFACE"#
        ),
        ("cacheControl", "directive @cacheControl(maxAge: Int, inheritMaxAge: Boolean, scope: CacheControlScope) on OBJECT | INTERFACE | UNION | FIELD_DEFINITION"),
        ("cacheControlField", "directive @cacheControlField(name: String!, maxAge: Int, inheritMaxAge: Boolean) repeatable on OBJECT | INTERFACE"),
        // `@link` (https://specs.apollo.dev/link/v1.0); its imports may rename: see LinkImports.
        ("link", "directive @link(url: String!, as: String, import: [link__Import], for: link__Purpose) repeatable on SCHEMA"),
        // Apollo's nullability spec (Morty's): `@semanticNonNull` levels are not optional in
        // accessors read under `@throwOnFieldError` (see SemanticNullability); `@catchByDefault`
        // is accepted only.
        ("semanticNonNull", "directive @semanticNonNull(levels: [Int] = [0]) on FIELD_DEFINITION"),
        ("semanticNonNullField", "directive @semanticNonNullField(name: String!, levels: [Int] = [0]) repeatable on OBJECT | INTERFACE"),
        ("catchByDefault", "directive @catchByDefault(to: CatchTo! = RESULT) on SCHEMA"),
        ("alias", "directive @alias(as: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT"),
        (localCacheMutation, "directive @\(localCacheMutation) on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        ("relay", "directive @relay(mask: Boolean, plural: Boolean) on FRAGMENT_DEFINITION | FRAGMENT_SPREAD"),
        ("inline", "directive @inline on FRAGMENT_DEFINITION"),
        ("raw_response_type", "directive @raw_response_type on QUERY | MUTATION | SUBSCRIPTION"),
        ("preloadable", "directive @preloadable(hackPreloader: Boolean) on QUERY"),
        ("relay_test_operation", "directive @relay_test_operation on QUERY | MUTATION | SUBSCRIPTION"),
        ("required", "directive @required(action: RequiredFieldAction!) on FIELD"),
        ("catch", "directive @catch(to: CatchFieldTo! = RESULT) on FIELD | FRAGMENT_DEFINITION | QUERY | MUTATION | INLINE_FRAGMENT"),
        ("throwOnFieldError", "directive @throwOnFieldError on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        // Apollo's local-only field: the field (declared by a schema extension) and everything
        // under it live only on the client. See ClientSchemaExtension.
        (client, "directive @\(client)(always: Boolean) on FIELD"),
    ]

    /// The types these directives' arguments take, by directive: declared with the directive when
    /// the schema has no type of that name.
    static let enumTypes: [String: [(name: String, sdl: String)]] = [
        "required": [("RequiredFieldAction", "enum RequiredFieldAction { NONE LOG THROW }")],
        "catch": [("CatchFieldTo", "enum CatchFieldTo { NULL RESULT }")],
        "cacheControl": [("CacheControlScope", "enum CacheControlScope { PUBLIC PRIVATE }")],
        "link": [("link__Import", "scalar link__Import"), ("link__Purpose", "enum link__Purpose { SECURITY EXECUTION }")],
        "catchByDefault": [("CatchTo", "enum CatchTo { NULL RESULT THROW }")],
    ]

    /// Directives that only the client understands: the documents sent to servers leave them
    /// out (with the variables only they use). `@defer` and `@stream` are the server's.
    static let clientOnly: Set<String> = [
        "connection", "appendNode", "prependNode", "appendEdge", "prependEdge", "deleteEdge", "deleteRecord",
        "refetchable", "argumentDefinitions", "arguments", "alias", localCacheMutation,
        "relay", "inline", "raw_response_type", "preloadable", "relay_test_operation", "required", "catch", "throwOnFieldError", client,
    ]

    /// Apollo's mark of a client-only field (`isInCart @client`).
    static let client = "client"

    /// Apollo's mark of an operation or fragment whose generated types are mutable, for typed
    /// edits of cached data.
    static let localCacheMutation = "apollo_client_ios_localCacheMutation"

    /// Directives whose arguments are free-form (Relay's fragment arguments).
    static let freeFormArguments: Set<String> = ["argumentDefinitions", "arguments"]

    /// The SDL declaring the directives of `declarations` whose names are not in `declared`, with
    /// the types they take that are not in `types`; and each of `aliases` (a name `@link` gave a
    /// directive → its own name) not in `declared`, declared as the directive it stands for.
    static func missingDeclarations(declared: Set<String>, types: Set<String> = [], aliases: [String: String] = [:]) -> String {
        var types = types
        var sdl: [String] = []
        func declare(_ name: String, as alias: String) {
            guard let declaration = declarations.first(where: { $0.name == name }) else { return }
            sdl.append(declaration.sdl.replacingOccurrences(of: "directive @\(name)(", with: "directive @\(alias)("))
            for type in enumTypes[name] ?? [] where types.insert(type.name).inserted { sdl.append(type.sdl) }
        }
        for declaration in declarations where !declared.contains(declaration.name) {
            declare(declaration.name, as: declaration.name)
        }
        for (alias, name) in aliases.sorted(by: { $0.key < $1.key }) where !declared.contains(alias) {
            declare(name, as: alias)
        }
        return sdl.joined(separator: "\n")
    }
}
