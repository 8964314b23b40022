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
            writer.line("keyFields: [:]")
        } else {
            writer.line("keyFields: [")
            writer.indent()
            for (typeName, fields) in keyFields.sorted(by: { $0.0 < $1.0 }) {
                writer.line("\(SwiftNaming.stringLiteral(typeName)): \(list(fields)),")
            }
            writer.outdent()
            writer.line("]")
        }
        writer.outdent()
        writer.line(")")
    }
}
