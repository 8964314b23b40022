import Foundation
import GraphQL

/// What the client schema extensions add to the server's schema: the fields and types that live
/// only on the client. Their fields are typed in the generated Swift like any other, kept in
/// the store, and left out of every document sent to a server (and of the operation manifest
/// and the persisted-query ids).
///
/// Two ways to declare them, as the two anchors do:
/// - **Relay's**: type system definitions among the documents (a `clientSchema.graphql` in the
///   documents folder): `extend type User { isSelected: Boolean }` adds a client field to a
///   server type; `type LocalSettings { theme: String }` with `extend type Query { localSettings:
///   LocalSettings }` adds a client-only type. Every field they declare is client-only.
/// - **Apollo's**: a field marked `@client` in an operation or fragment (declared in a schema
///   extension given with the schema, as Apollo iOS reads its local `.graphqls` files). That
///   field and everything under it is client-only.
public struct ClientSchemaExtension: Sendable, Hashable {
    /// The types the extensions define (every field of such a type is client-only).
    public private(set) var types: Set<String> = []
    /// The client-only fields the extensions add to the server's types, by type name.
    public private(set) var fields: [String: Set<String>] = [:]

    /// No client schema extension.
    public init() {}

    /// Whether the extensions add nothing.
    public var isEmpty: Bool { types.isEmpty && fields.isEmpty }
    /// Whether the documents' type system definitions were applied to the schema (the document
    /// validator then passes over them).
    var isApplied = false

    /// Whether field `name` of type `typeName` lives only on the client.
    public func isClientField(_ name: String, on typeName: String) -> Bool {
        if name == "__typename" || name == "__id" { return false }
        return types.contains(typeName) || fields[typeName]?.contains(name) == true
    }

    /// Whether `typeName` is a client-only type.
    public func isClientType(_ typeName: String) -> Bool {
        types.contains(typeName)
    }

    /// Notes what `definitions` (type system definitions and extensions from the documents) add.
    mutating func record(_ definitions: [any Definition]) {
        isApplied = true
        for definition in definitions {
            switch definition {
            case let type as any TypeDefinition:
                types.insert(type.name.value)
            case let object as TypeExtensionDefinition:
                fields[object.definition.name.value, default: []].formUnion(object.definition.fields.map(\.name.value))
            case let interface as InterfaceExtensionDefinition:
                fields[interface.definition.name.value, default: []].formUnion(interface.definition.fields.map(\.name.value))
            default:
                break
            }
        }
    }

    /// The type system definitions of `sources` (Relay's client schema extension files, or such
    /// definitions beside operations) applied to `schema` as client extensions. Returns the schema
    /// unchanged when the documents hold none. A syntax error is left to the document validator,
    /// which reports it with the rest; an extension that does not fit the schema (a field that
    /// is already there, an unknown type) is a located error.
    static func apply(to schema: LoadedSchema, from sources: [DocumentSource]) throws(CodegenErrors) -> LoadedSchema {
        var definitions: [any Definition] = []
        var first: Document?
        var extensionSources: [(text: String, path: String)] = []
        for source in sources where !source.isEmpty {
            guard let document = try? source.parseDocument() else { continue }
            let typeSystem = document.definitions.filter { $0 is any TypeSystemDefinition }
            if typeSystem.isEmpty { continue }
            first = first ?? document
            definitions += typeSystem
            extensionSources.append((source.text, source.path))
        }
        let defaultPath = extensionSources.first?.path ?? "<documents>"
        guard let first, !definitions.isEmpty else { return schema }
        var errors: [CodegenError] = []
        for definition in definitions {
            if definition is SchemaDefinition || definition is SchemaExtensionDefinition {
                errors.append(
                    CodegenError(
                        "a schema definition cannot be a client schema extension; give it with the schema",
                        at: SourceLocation.of(definition, orStartOf: defaultPath)))
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }
        let document = first.set(value: .array(definitions), key: "definitions")
        let extended: GraphQLSchema
        do {
            extended = try extendSchema(schema: schema.schema, documentAST: document)
        } catch let error as GraphQLError {
            // GraphQLSwift's extension checks give messages without places: each is placed at
            // the first use of the name it quotes (`Todo.text`: at `text`) in the extension files.
            if error.nodes.isEmpty && error.locations.isEmpty {
                throw CodegenErrors(locate(error.message, in: extensionSources))
            }
            throw CodegenErrors([CodegenError(error, defaultPath: defaultPath)])
        } catch {
            throw CodegenErrors([CodegenError("invalid client schema extension: \(error)", at: SourceLocation(path: defaultPath, line: 1, column: 1))])
        }
        var loaded = schema
        loaded.schema = extended
        loaded.clientExtension.record(definitions)
        for case let type as any TypeDefinition in definitions where loaded.typeLocations[type.name.value] == nil {
            loaded.typeLocations[type.name.value] = .of(type)
        }
        return loaded
    }

    /// Each part of a message placed at the first use, in `sources`, of the name it quotes (of
    /// its last component, for a `Type.field` coordinate); at the first source's start when none.
    static func locate(_ message: String, in sources: [(text: String, path: String)]) -> [CodegenError] {
        message.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { part in
            var location = SourceLocation(path: sources.first?.path ?? "<documents>", line: 1, column: 1)
            let quoted = part.split(separator: "\"", omittingEmptySubsequences: false)
            if quoted.count >= 3, let name = quoted[1].split(separator: ".").last.map(String.init) {
                for source in sources {
                    if let found = SchemaDirectiveChecker.firstUse(of: name, in: source.text) {
                        location = SourceLocation(path: source.path, line: found.line, column: found.column)
                        break
                    }
                }
            }
            return CodegenError("client schema extension: " + part, at: location)
        }
    }
}
