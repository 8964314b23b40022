import GraphQL

/// The names a schema gives, through `@link(url:, as:, import:)` on `schema` or `extend schema`,
/// to the directives of the specs Baton knows (Apollo's cache and nullability specs): an import
/// under its own name (`import: ["@typePolicy"]`), renamed (`import: [{name: "@typePolicy", as:
/// "@key"}]`), or not imported and so namespaced (`@cache__typePolicy`, or `@<as>__typePolicy`
/// when the link has `as:`). Baton reads every one of them as the directive it stands for.
struct LinkImports {
    /// The name used in the schema → the directive's own name, for renamed and namespaced ones.
    private(set) var aliases: [String: String] = [:]

    /// The directives each spec Baton knows defines, by the spec's name in its URL.
    static let specs: [String: Set<String>] = [
        "cache": ["typePolicy", "fieldPolicy", "cacheControl", "cacheControlField"],
        // Apollo Kotlin 3 and 4 linked its cache directives from here.
        "kotlin_labs": ["typePolicy", "fieldPolicy"],
        "nullability": ["semanticNonNull", "semanticNonNullField", "catch", "catchByDefault"],
    ]

    init(_ definitions: [any Definition]) {
        var links: [Directive] = []
        for definition in definitions {
            if let schema = definition as? SchemaDefinition { links += schema.directives.filter { $0.name.value == "link" } }
            if let schema = definition as? SchemaExtensionDefinition { links += schema.definition.directives.filter { $0.name.value == "link" } }
        }
        for link in links {
            guard let url = (Self.argument(link, "url") as? StringValue)?.value, let spec = Self.specName(url),
                let known = Self.specs[spec]
            else { continue }
            let namespace = (Self.argument(link, "as") as? StringValue)?.value ?? spec
            for name in known { aliases[namespace + "__" + name] = name }
            for element in (Self.argument(link, "import") as? ListValue)?.values ?? [] {
                guard let object = element as? ObjectValue,
                    let name = (object.fields.first { $0.name.value == "name" }?.value as? StringValue)?.value,
                    let alias = (object.fields.first { $0.name.value == "as" }?.value as? StringValue)?.value,
                    name.hasPrefix("@"), alias.hasPrefix("@")
                else { continue }
                let canonical = String(name.dropFirst())
                if known.contains(canonical) { aliases[String(alias.dropFirst())] = canonical }
            }
        }
    }

    /// The directive `name` stands for.
    func canonical(_ name: String) -> String { aliases[name] ?? name }

    /// `cache` for `https://specs.apollo.dev/cache/v0.1`: the path component before the version.
    static func specName(_ url: String) -> String? {
        let parts = url.split(separator: "/").map(String.init)
        guard let version = parts.lastIndex(where: { $0.hasPrefix("v") && $0.dropFirst().first?.isNumber == true }), version > 0 else {
            return parts.last
        }
        return parts[version - 1]
    }

    static func argument(_ directive: Directive, _ name: String) -> (any Value)? {
        directive.arguments.first { $0.name.value == name }?.value
    }
}
