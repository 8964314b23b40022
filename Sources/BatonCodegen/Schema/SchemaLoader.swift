import Foundation
import GraphQL

/// A schema ready for validation and code generation, with what the generator reads from it.
public struct LoadedSchema {
    /// The schema, Baton's client directives included (and the client schema extensions, once
    /// the generator applied those of the documents).
    public internal(set) var schema: GraphQLSchema
    /// The fields and types that live only on the client (Relay's client schema extensions).
    public internal(set) var clientExtension = ClientSchemaExtension()
    /// Cache key fields by type name, from `@typePolicy(keyFields: "id")` on objects and interfaces.
    public var keyFields: [String: [String]] { cachePolicies.keyFields }
    /// What Apollo's cache directives in the schema say (key fields, embedded fields, key
    /// arguments, max ages).
    public var cachePolicies = CachePolicies()
    /// `@semanticNonNull` levels by type and field name.
    public var semanticNonNull: [String: [String: [Int]]] = [:]

    /// A schema with the cache key fields of `@typePolicy(keyFields:)`.
    public init(schema: GraphQLSchema, keyFields: [String: [String]] = [:]) {
        self.schema = schema
        cachePolicies.keyFields = keyFields
    }
    /// Where each type is defined (for a `.json` schema, in the SDL made from it).
    public var typeLocations: [String: SourceLocation] = [:]
}

/// Reads a schema from SDL files or an introspection result JSON.
public enum SchemaLoader {
    /// Loads the files as one schema. A `.json` file is an introspection result; anything else is SDL.
    public static func load(paths: [String]) throws(CodegenErrors) -> LoadedSchema {
        var sources: [(text: String, path: String)] = []
        var errors: [CodegenError] = []
        for path in paths {
            do {
                sources.append((try String(contentsOfFile: path, encoding: .utf8), path))
            } catch {
                errors.append(CodegenError("cannot read the schema: \(error.localizedDescription)", at: SourceLocation(path: path, line: 1, column: 1)))
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }
        return try load(sources: sources)
    }

    /// Loads schema texts as one schema; a path ending in `.json` marks an introspection result.
    /// An SDL file with nothing but comments (an extension file whose lines are commented out)
    /// adds nothing, as an empty document does, unless no file has definitions.
    public static func load(sources: [(text: String, path: String)]) throws(CodegenErrors) -> LoadedSchema {
        let withDefinitions = sources.filter { $0.path.hasSuffix(".json") || !DocumentSource(path: $0.path, text: $0.text).isEmpty }
        let sources = withDefinitions.isEmpty ? sources : withDefinitions
        var definitions: [any Definition] = []
        var errors: [CodegenError] = []
        var firstDocument: Document?
        let defaultPath = sources.first?.path ?? "<schema>"
        // SDL made from introspection results, by source name, to place errors in the JSON.
        var converted: [String: IntrospectionConverter.ConvertedSDL] = [:]
        var sdlSources: [(text: String, path: String)] = []
        for (text, path) in sources {
            do throws(CodegenError) {
                let sdl: String
                let name: String
                if path.hasSuffix(".json") {
                    let result = try IntrospectionConverter.convert(text, path: path)
                    sdl = result.sdl
                    name = path + " (as SDL)"
                    converted[name] = result
                } else {
                    sdl = text
                    name = path
                }
                sdlSources.append((sdl, name))
                let document = try parseSDL(sdl, name: name)
                firstDocument = firstDocument ?? document
                definitions.append(contentsOf: document.definitions)
            } catch {
                errors.append(error)
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }
        guard let firstDocument else { throw CodegenErrors([CodegenError("no schema file was given")]) }
        let declared = Set(definitions.compactMap { ($0 as? DirectiveDefinition)?.name.value })
        let types = Set(definitions.compactMap { ($0 as? any TypeDefinition)?.name.value })
        let links = LinkImports(definitions)
        let missing = ClientDirectives.missingDeclarations(declared: declared, types: types, aliases: links.aliases)
        if !missing.isEmpty {
            do throws(CodegenError) {
                definitions.append(contentsOf: try parseSDL(missing, name: ClientDirectives.sourceName).definitions)
            } catch {
                throw CodegenErrors([error])
            }
        }
        // Errors in SDL made from JSON are placed at the JSON value the SDL came from.
        func placed(_ errors: [CodegenError]) -> CodegenErrors {
            CodegenErrors(
                errors.map { error in
                    guard let location = error.location, let map = converted[location.path] else { return error }
                    return CodegenError(error.message, at: map.jsonLocation(line: location.line, column: location.column), notes: error.notes)
                })
        }
        let unknown = SchemaReferenceChecker.unknownTypes(in: definitions) + SchemaDirectiveChecker.errors(in: definitions)
        if !unknown.isEmpty { throw placed(unknown) }
        let combined = firstDocument.set(value: .array(definitions), key: "definitions")
        let schema: GraphQLSchema
        do {
            schema = try buildASTSchema(documentAST: combined)
        } catch let error as GraphQLError {
            if error.nodes.isEmpty && error.locations.isEmpty {
                throw placed(SchemaDirectiveChecker.locate(error.message, in: sdlSources))
            }
            throw placed([CodegenError(error, defaultPath: defaultPath)])
        } catch {
            throw CodegenErrors([CodegenError("invalid schema: \(error)", at: SourceLocation(path: defaultPath, line: 1, column: 1))])
        }
        let schemaErrors = validateSchema(schema: schema)
        if !schemaErrors.isEmpty {
            throw placed(
                schemaErrors.flatMap { error in
                    error.nodes.isEmpty && error.locations.isEmpty
                        ? SchemaDirectiveChecker.locate(error.message, in: sdlSources) : [CodegenError(error, defaultPath: defaultPath)]
                })
        }
        var loaded = LoadedSchema(schema: schema)
        loaded.cachePolicies = try CachePolicies.read(definitions, links: links, schema: schema)
        loaded.semanticNonNull = SemanticNullability.read(definitions, links: links)
        for case let type as any TypeDefinition in definitions where loaded.typeLocations[type.name.value] == nil {
            loaded.typeLocations[type.name.value] = .of(type)
        }
        return loaded
    }

    static func parseSDL(_ text: String, name: String) throws(CodegenError) -> Document {
        do {
            return try parse(source: Source(body: text, name: name))
        } catch let error as GraphQLError {
            throw CodegenError(error, defaultPath: name)
        } catch {
            throw CodegenError("cannot parse the schema: \(error)", at: SourceLocation(path: name, line: 1, column: 1))
        }
    }
}
