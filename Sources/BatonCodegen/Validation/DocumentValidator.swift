import GraphQL

/// All documents as one: parsed, checked for unique names, validated against the schema.
public struct ValidatedDocuments: @unchecked Sendable {
    public let operations: [OperationDefinition]
    public let fragments: [String: FragmentDefinition]
    /// The source path each definition came from, keyed `operation Name` or `fragment Name`.
    public let sourcePaths: [String: String]
}

/// Validates documents with GraphQLSwift's rules plus Baton's allowances: `__id` on any object,
/// free-form arguments of `@arguments`/`@argumentDefinitions`, fragments that no operation uses.
public enum DocumentValidator {
    public static func validate(_ sources: [DocumentSource], schema: LoadedSchema) throws(CodegenErrors) -> ValidatedDocuments {
        var errors: [CodegenError] = []
        var documents: [Document] = []
        for source in sources {
            do throws(CodegenError) {
                documents.append(try source.parseDocument())
            } catch {
                errors.append(error)
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }

        var definitions: [any Definition] = []
        var operations: [OperationDefinition] = []
        var fragments: [String: FragmentDefinition] = [:]
        // Operations and fragments have separate namespaces, as in the GraphQL spec.
        var firstPlace: [String: SourceLocation] = [:]
        var sourcePaths: [String: String] = [:]
        for (document, source) in zip(documents, sources) {
            for definition in document.definitions {
                definitions.append(definition)
                let location = SourceLocation.of(definition, orStartOf: source.path)
                let name: String
                let kind: String
                switch definition {
                case let operation as OperationDefinition:
                    guard let operationName = operation.name?.value else {
                        errors.append(CodegenError("an operation needs a name to be generated", at: location))
                        continue
                    }
                    name = operationName
                    kind = "operation"
                    operations.append(operation)
                case let fragment as FragmentDefinition:
                    name = fragment.name.value
                    kind = "fragment"
                    if fragments[name] == nil { fragments[name] = fragment }
                default:
                    errors.append(CodegenError("only operations and fragments may appear in documents", at: location))
                    continue
                }
                if let first = firstPlace[kind + " " + name] {
                    errors.append(
                        CodegenError(
                            "duplicate \(kind) name \"\(name)\"", at: location,
                            notes: [CodegenNote("\"\(name)\" first defined here", at: first)]))
                } else {
                    firstPlace[kind + " " + name] = location
                    sourcePaths[kind + " " + name] = source.path
                }
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }
        guard let first = documents.first else {
            return ValidatedDocuments(operations: [], fragments: [:], sourcePaths: [:])
        }
        let combined = first.set(value: .array(definitions), key: "definitions")
        let validationErrors = GraphQL.validate(schema: schema.schema, ast: combined, rules: specifiedRules)
        for error in validationErrors where !isAllowed(error) {
            errors.append(CodegenError(error, defaultPath: sources.first?.path ?? "<documents>"))
        }
        if !errors.isEmpty { throw CodegenErrors(errors.sorted(by: inputOrder)) }
        return ValidatedDocuments(operations: operations, fragments: fragments, sourcePaths: sourcePaths)
    }

    static func isAllowed(_ error: GraphQLError) -> Bool {
        let message = error.message
        if message.hasPrefix("Cannot query field \"__id\" on type") { return true }
        if message.hasPrefix("Fragment \""), message.hasSuffix("\" is never used.") { return true }
        for directive in ClientDirectives.freeFormArguments where message.hasPrefix("Unknown argument \"") && message.hasSuffix("on directive \"@\(directive)\".") {
            return true
        }
        return false
    }

    static func inputOrder(_ lhs: CodegenError, _ rhs: CodegenError) -> Bool {
        guard let l = lhs.location, let r = rhs.location else { return lhs.location != nil }
        if l.path != r.path { return l.path < r.path }
        if l.line != r.line { return l.line < r.line }
        return l.column < r.column
    }
}
