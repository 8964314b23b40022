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
        writer.line("globalIDInterface: \(globalIDInterface().map(SwiftNaming.stringLiteral) ?? "nil")")
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
