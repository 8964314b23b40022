import GraphQL

/// All documents as one: parsed, checked for unique names, validated against the schema.
public struct ValidatedDocuments {
    /// Every operation, in input order.
    public let operations: [OperationDefinition]
    /// Every fragment, by name.
    public let fragments: [String: FragmentDefinition]
    /// The source path each definition came from, keyed `operation Name` or `fragment Name`.
    public let sourcePaths: [String: String]
}

/// Validates documents with GraphQLSwift's rules plus Baton's allowances: `__id` on any object,
/// free-form arguments of `@arguments`/`@argumentDefinitions`, fragments that no operation uses.
public enum DocumentValidator {
    /// Parses and validates the documents against the schema; every error found is thrown together.
    public static func validate(_ sources: [DocumentSource], schema: LoadedSchema) throws(CodegenErrors) -> ValidatedDocuments {
        var errors: [CodegenError] = []
        var documents: [Document] = []
        var parsedSources: [DocumentSource] = []
        for source in sources where !source.isEmpty {
            do throws(CodegenError) {
                documents.append(try source.parseDocument())
                parsedSources.append(source)
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
        for (document, source) in zip(documents, parsedSources) {
            for definition in document.definitions {
                // A client schema extension: applied to the schema already (ClientSchemaExtension).
                if definition is any TypeSystemDefinition && schema.clientExtension.isApplied { continue }
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
        let freeForm = freeFormArgumentPlaces(definitions)
        let locals = fragmentVariablePlaces(definitions)
        let directiveArguments = directiveArgumentErrors(definitions, schema: schema.schema)
        errors += directiveArguments.errors
        for error in validationErrors where !isAllowed(error) {
            let places = error.nodes.compactMap { $0.loc.map { "\($0.source.name):\($0.start)" } }
            if !places.isEmpty, places.allSatisfy(freeForm.contains) { continue }
            // GraphQLSwift takes a directive's unknown argument for one of the field's (or misses
            // it on fragments): directiveArgumentErrors reports those, once each, as the directive's.
            if error.message.hasPrefix("Unknown argument") || error.message.contains("does not have argument"),
                !places.isEmpty, places.allSatisfy(directiveArguments.places.contains)
            {
                continue
            }
            // A fragment's own variable (`@argumentDefinitions`) is not the operation's to define.
            if error.message.hasPrefix("Variable \"$"), error.message.contains("is not defined"), let first = places.first,
                locals.contains(first)
            {
                continue
            }
            var converted = CodegenError(error, defaultPath: sources.first?.path ?? "<documents>")
            if error.message.hasPrefix("Cannot query field"),
                let field = error.nodes.lazy.compactMap({ $0 as? GraphQL.Field }).first,
                field.directives.contains(where: { $0.name.value == ClientDirectives.client })
            {
                // Apollo Client resolves an undeclared @client field at run time; a typed client
                // needs its type (Apollo iOS asks the same).
                converted = CodegenError(
                    converted.message + " A @client field needs a declaration in a client schema extension beside the operations, "
                        + "such as `extend type \(Self.parentTypeName(of: error.message) ?? "Query") { \(field.name.value): String }`.",
                    at: converted.location, notes: converted.notes)
            }
            errors.append(converted)
        }
        if !errors.isEmpty { throw CodegenErrors(errors.sorted(by: inputOrder)) }
        return ValidatedDocuments(operations: operations, fragments: fragments, sourcePaths: sourcePaths)
    }

    /// Arguments of directives in documents that the directive does not define, as errors (every
    /// place: operations, fragments, fields, inline fragments, spreads, variables), and the places
    /// of all directive arguments. Unknown directives and free-form ones are left to others.
    static func directiveArgumentErrors(_ definitions: [any Definition], schema: GraphQLSchema) -> (errors: [CodegenError], places: Set<String>) {
        var errors: [CodegenError] = []
        var places: Set<String> = []
        func check(_ directives: [Directive]) {
            for directive in directives {
                for argument in directive.arguments {
                    if let loc = argument.loc { places.insert("\(loc.source.name):\(loc.start)") }
                }
                guard !ClientDirectives.freeFormArguments.contains(directive.name.value),
                    let definition = schema.getDirective(name: directive.name.value)
                else { continue }
                let known = Set(definition.args.map(\.name))
                for argument in directive.arguments where !known.contains(argument.name.value) {
                    errors.append(CodegenError("Unknown argument \"\(argument.name.value)\" on directive \"@\(directive.name.value)\".", at: .of(argument)))
                }
            }
        }
        func walk(_ set: GraphQL.SelectionSet) {
            set.forEachSelection { selection in
                switch selection {
                case let field as GraphQL.Field: check(field.directives)
                case let inline as GraphQL.InlineFragment: check(inline.directives)
                case let spread as FragmentSpread: check(spread.directives)
                default: break
                }
            }
        }
        for definition in definitions {
            if let fragment = definition as? FragmentDefinition {
                check(fragment.directives)
                walk(fragment.selectionSet)
            } else if let operation = definition as? OperationDefinition {
                check(operation.directives)
                for variable in operation.variableDefinitions { check(variable.directives) }
                walk(operation.selectionSet)
            }
        }
        return (errors, places)
    }

    /// Where the arguments of `@arguments`/`@argumentDefinitions` are: GraphQLSwift checks them
    /// against the field's arguments, but they are Relay's free-form fragment arguments.
    static func freeFormArgumentPlaces(_ definitions: [any Definition]) -> Set<String> {
        var places: Set<String> = []
        func directives(_ list: [Directive]) {
            for directive in list where ClientDirectives.freeFormArguments.contains(directive.name.value) {
                for argument in directive.arguments {
                    if let loc = argument.loc { places.insert("\(loc.source.name):\(loc.start)") }
                }
            }
        }
        func walk(_ set: GraphQL.SelectionSet) {
            set.forEachSelection { selection in
                if let spread = selection as? FragmentSpread { directives(spread.directives) }
            }
        }
        for definition in definitions {
            if let fragment = definition as? FragmentDefinition {
                directives(fragment.directives)
                walk(fragment.selectionSet)
            } else if let operation = definition as? OperationDefinition {
                walk(operation.selectionSet)
            }
        }
        return places
    }

    /// Where fragments use their own variables (those their `@argumentDefinitions` declare).
    static func fragmentVariablePlaces(_ definitions: [any Definition]) -> Set<String> {
        var places: Set<String> = []
        for case let fragment as FragmentDefinition in definitions {
            guard let directive = fragment.directives.first(where: { $0.name.value == "argumentDefinitions" }) else { continue }
            let locals = Set(directive.arguments.map(\.name.value))
            func visit(_ value: any Value) {
                switch value {
                case let variable as Variable:
                    if locals.contains(variable.name.value), let loc = variable.loc { places.insert("\(loc.source.name):\(loc.start)") }
                case let list as ListValue: list.values.forEach(visit)
                case let object as ObjectValue: object.fields.forEach { visit($0.value) }
                default: break
                }
            }
            func directives(_ list: [Directive]) {
                for directive in list { directive.arguments.forEach { visit($0.value) } }
            }
            fragment.selectionSet.forEachSelection { selection in
                switch selection {
                case let field as GraphQL.Field:
                    field.arguments.forEach { visit($0.value) }
                    directives(field.directives)
                case let inline as GraphQL.InlineFragment:
                    directives(inline.directives)
                case let spread as FragmentSpread:
                    directives(spread.directives)
                default:
                    break
                }
            }
        }
        return places
    }

    /// The type in GraphQLSwift's "Cannot query field "x" on type "T"." message.
    static func parentTypeName(of message: String) -> String? {
        guard let range = message.range(of: "on type \"") else { return nil }
        let rest = message[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
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
