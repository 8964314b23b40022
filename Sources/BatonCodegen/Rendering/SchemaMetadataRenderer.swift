import GraphQL

/// Renders `schemaMetadata`: object types, interfaces and unions with their possible types, and
/// cache key fields, for type conditions and the store.
struct SchemaMetadataRenderer {
    let index: SchemaIndex

    func render(into writer: inout SwiftWriter, declaration: String) {
        var objects: [String] = []
        var interfaces: [(String, [String])] = []
        var unions: [(String, [String])] = []
        var keyFields: [(String, [String])] = []
        for (typeName, type) in index.schema.typeMap where !typeName.hasPrefix("__") {
            switch type {
            case is GraphQLObjectType:
                objects.append(typeName)
                if let fields = index.keyFields(of: typeName) { keyFields.append((typeName, fields)) }
            case is GraphQLInterfaceType:
                interfaces.append((typeName, index.possibleTypes(of: typeName)))
                if let fields = index.keyFields(of: typeName) { keyFields.append((typeName, fields)) }
            case is GraphQLUnionType:
                unions.append((typeName, index.possibleTypes(of: typeName)))
            default:
                break
            }
        }
        func list(_ names: [String]) -> String { "[" + names.map(SwiftNaming.stringLiteral).joined(separator: ", ") + "]" }
        writer.line("/// The schema's object types, interfaces, unions and cache key fields.")
        writer.line("\(declaration) = BatonAPI.SchemaMetadata(")
        writer.indent()
        writer.line("objectTypes: [")
        writer.indent()
        for object in objects.sorted() { writer.line(SwiftNaming.stringLiteral(object) + ",") }
        writer.outdent()
        writer.line("],")
        for (label, entries) in [("interfaces", interfaces), ("unions", unions)] {
            if entries.isEmpty {
                writer.line("\(label): [:],")
                continue
            }
            writer.line("\(label): [")
            writer.indent()
            for (typeName, possible) in entries.sorted(by: { $0.0 < $1.0 }) {
                writer.line("\(SwiftNaming.stringLiteral(typeName)): \(list(possible.sorted())),")
            }
            writer.outdent()
            writer.line("],")
        }
        if keyFields.isEmpty {
            writer.line("keyFields: [:],")
        } else {
            writer.line("keyFields: [")
            writer.indent()
            for (typeName, fields) in keyFields.sorted(by: { $0.0 < $1.0 }) {
                writer.line("\(SwiftNaming.stringLiteral(typeName)): \(list(fields)),")
            }
            writer.outdent()
            writer.line("],")
        }
        let directives = index.loaded.cachePolicies
        let hasDirectives = directives.statesCacheDirectives
        writer.line("globalIDInterface: \(globalIDInterface().map(SwiftNaming.stringLiteral) ?? "nil")" + (hasDirectives ? "," : ""))
        if hasDirectives { renderCacheDirectives(directives, into: &writer) }
        writer.outdent()
        writer.line(")")
    }

    /// `cacheDirectives:`, the schema's Apollo cache directives (written only when it has some,
    /// each dictionary with its declared type so large schemas type-check fast).
    func renderCacheDirectives(_ directives: CachePolicies, into writer: inout SwiftWriter) {
        func literal(_ name: String) -> String { SwiftNaming.stringLiteral(name) }
        func list(_ names: [String]) -> String { "[" + names.map(literal).joined(separator: ", ") + "]" }
        writer.line("cacheDirectives: BatonAPI.CacheDirectives(")
        writer.indent()
        var arguments: [String] = []
        if !directives.embeddedFields.isEmpty {
            arguments.append(
                "embeddedFields: [" + directives.embeddedFields.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \(list(Array(Set($0.value)).sorted()))" }
                    .joined(separator: ", ") + "] as [Swift.String: Swift.Set<Swift.String>]")
        }
        if !directives.keyArgs.isEmpty {
            arguments.append(
                "keyArgs: [" + directives.keyArgs.sorted { $0.key < $1.key }.map { type, fields in
                    "\(literal(type)): [" + fields.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \(list($0.value))" }.joined(separator: ", ") + "]"
                }.joined(separator: ", ") + "] as [Swift.String: [Swift.String: [Swift.String]]]")
        }
        if !directives.typeMaxAge.isEmpty {
            arguments.append(
                "typeMaxAge: [" + directives.typeMaxAge.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \($0.value)" }.joined(separator: ", ")
                    + "] as [Swift.String: Swift.Int]")
        }
        if !directives.fieldMaxAge.isEmpty {
            arguments.append(
                "fieldMaxAge: [" + directives.fieldMaxAge.sorted { $0.key < $1.key }.map { type, fields in
                    "\(literal(type)): [" + fields.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \($0.value)" }.joined(separator: ", ") + "]"
                }.joined(separator: ", ") + "] as [Swift.String: [Swift.String: Swift.Int]]")
        }
        if !directives.inheritMaxAgeTypes.isEmpty {
            arguments.append("inheritMaxAgeTypes: " + list(directives.inheritMaxAgeTypes.sorted()) + " as Swift.Set<Swift.String>")
        }
        if !directives.inheritMaxAgeFields.isEmpty {
            arguments.append(
                "inheritMaxAgeFields: [" + directives.inheritMaxAgeFields.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \(list($0.value.sorted()))" }
                    .joined(separator: ", ") + "] as [Swift.String: Swift.Set<Swift.String>]")
        }
        for (offset, argument) in arguments.enumerated() { writer.line(argument + (offset < arguments.count - 1 ? "," : "")) }
        writer.outdent()
        writer.line(")")
    }

    /// `Node` when the schema follows Relay's global object identification: an interface
    /// `Node` with `id: ID!`, and a query field `node(id: ID!): Node`. Its implementers' IDs
    /// are then unique across types, and the store keys them by the bare `id`.
    func globalIDInterface() -> String? {
        guard index.schema.getType(name: "Node") is GraphQLInterfaceType,
            let id = index.field("id", on: "Node"), isNonNullID(id.type),
            let queryType = index.schema.queryType?.name,
            let node = index.field("node", on: queryType),
            getNamedType(type: node.type)?.name == "Node",
            let argument = node.arguments["id"], isNonNullID(argument)
        else { return nil }
        return "Node"
    }

    private func isNonNullID(_ type: any GraphQLType) -> Bool {
        ((type as? GraphQLNonNull)?.ofType as? GraphQLScalarType)?.name == "ID"
    }
}
