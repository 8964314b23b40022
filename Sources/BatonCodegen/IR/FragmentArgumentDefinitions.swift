import GraphQL

/// One of a fragment's own variables, from Relay's
/// `@argumentDefinitions(count: {type: "Int", defaultValue: 10})`.
struct FragmentArgumentDefinition {
    let name: String
    /// The type as written (`"Int!"`), and parsed.
    let typeText: String
    let type: any GraphQL.`Type`
    let defaultValue: (any Value)?
    /// Relay's provided variable: `{type: "Boolean!", provider: "FeatureFlag"}`. Its value is an
    /// operation variable of its own (`$__relay_internal__pv__FeatureFlag`), never `@arguments`'.
    let provider: String?
    /// Where it is defined.
    let location: SourceLocation

    var isRequired: Bool { type is NonNullType && defaultValue == nil && provider == nil }
}

/// A provided variable as the operations that use it declare it.
struct ProvidedVariable {
    /// The operation variable: `__relay_internal__pv__` and the provider's name (Relay's spelling).
    let variableName: String
    let provider: String
    let typeText: String
    let type: any GraphQL.`Type`
    let variable: Variable

    static func variableName(provider: String) -> String {
        "__relay_internal__pv__" + String(provider.unicodeScalars.filter { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
    }
}

/// Reads `@argumentDefinitions` of fragments and `@arguments` of spreads, and computes the values
/// a spread gives a fragment's variables.
struct FragmentArgumentTable {
    private(set) var definitions: [String: [FragmentArgumentDefinition]] = [:]
    private(set) var errors: [CodegenError] = []
    /// Relay's provided variables, by operation variable name.
    private(set) var provided: [String: ProvidedVariable] = [:]

    init(fragments: [String: FragmentDefinition], operations: [OperationDefinition]) {
        for name in fragments.keys.sorted() {
            guard let fragment = fragments[name],
                let directive = fragment.directives.first(where: { $0.name.value == "argumentDefinitions" })
            else { continue }
            var list: [FragmentArgumentDefinition] = []
            for argument in directive.arguments {
                let argumentName = argument.name.value
                // The type is a string (`"[ID!]"`); relay-compiler also takes a named type
                // written bare, as an enum value is (`type: CollectionSorts`).
                let typeNode = (argument.value as? ObjectValue)?.fields.first(where: { $0.name.value == "type" })?.value
                guard let object = argument.value as? ObjectValue, let typeNode,
                    let typeText = (typeNode as? StringValue)?.value ?? (typeNode as? EnumValue)?.value
                else {
                    errors.append(
                        CodegenError(
                            "@argumentDefinitions(\(argumentName): …) needs an object with a \"type\" string, like {type: \"Int\", defaultValue: 10}",
                            at: .of(argument)))
                    continue
                }
                guard let type = Self.parseType(typeText) else {
                    errors.append(CodegenError("\"\(typeText)\" is not a GraphQL type", at: .of(typeNode)))
                    continue
                }
                for field in object.fields where !["type", "defaultValue", "provider"].contains(field.name.value) {
                    errors.append(
                        CodegenError(
                            "unknown key \"\(field.name.value)\" in @argumentDefinitions(\(argumentName): …); expected type, defaultValue or provider",
                            at: .of(field)))
                }
                let defaultValue = object.fields.first(where: { $0.name.value == "defaultValue" })?.value
                var provider: String?
                if let providerField = object.fields.first(where: { $0.name.value == "provider" }) {
                    guard let value = providerField.value as? StringValue, !ProvidedVariable.variableName(provider: value.value).hasSuffix("__pv__") else {
                        errors.append(CodegenError("provider: of @argumentDefinitions(\(argumentName): …) must name the provider in a string", at: .of(providerField)))
                        continue
                    }
                    if defaultValue != nil {
                        errors.append(CodegenError("a provided variable (\(argumentName)) cannot have a defaultValue", at: .of(providerField)))
                        continue
                    }
                    provider = value.value
                    let variableName = ProvidedVariable.variableName(provider: value.value)
                    if let existing = provided[variableName], existing.provider != value.value || existing.typeText != typeText {
                        errors.append(
                            CodegenError(
                                "the provider \"\(value.value)\" gives \(existing.typeText) elsewhere, here \(typeText); one provider has one type",
                                at: .of(providerField)))
                        continue
                    }
                    guard let variable = Self.parseVariable(variableName) else { continue }
                    provided[variableName] = ProvidedVariable(
                        variableName: variableName, provider: value.value, typeText: typeText, type: type, variable: variable)
                }
                list.append(
                    FragmentArgumentDefinition(
                        name: argumentName, typeText: typeText, type: type, defaultValue: defaultValue, provider: provider,
                        location: .of(argument)))
            }
            definitions[name] = list
        }
        // Spreads must pass only arguments the fragment defines, and every required one (as
        // Relay's compiler requires; an argument left out would be sent as null).
        func check(_ set: GraphQL.SelectionSet) {
            set.forEachSelection { selection in
                guard let spread = selection as? FragmentSpread else { return }
                let fragmentDefinitions = definitions[spread.name.value] ?? []
                let defined = Set(fragmentDefinitions.map(\.name))
                var passed: Set<String> = []
                for directive in spread.directives where directive.name.value == "arguments" {
                    for argument in directive.arguments {
                        passed.insert(argument.name.value)
                        if !defined.contains(argument.name.value) {
                            errors.append(
                                CodegenError(
                                    "fragment \"\(spread.name.value)\" has no argument \"\(argument.name.value)\" in its @argumentDefinitions",
                                    at: .of(argument)))
                        } else if fragmentDefinitions.contains(where: { $0.name == argument.name.value && $0.provider != nil }) {
                            errors.append(
                                CodegenError(
                                    "\"\(argument.name.value)\" of fragment \"\(spread.name.value)\" is a provided variable; its provider gives it, @arguments cannot",
                                    at: .of(argument)))
                        }
                    }
                }
                for definition in fragmentDefinitions where definition.isRequired && !passed.contains(definition.name) {
                    errors.append(
                        CodegenError(
                            "fragment \"\(spread.name.value)\" needs its argument \"\(definition.name)\" (\(definition.typeText), no default): pass it with @arguments(\(definition.name): …)",
                            at: .of(spread), notes: [CodegenNote("\"\(definition.name)\" defined here", at: definition.location)]))
                }
            }
        }
        for operation in operations { check(operation.selectionSet) }
        for name in fragments.keys.sorted() {
            if let fragment = fragments[name] { check(fragment.selectionSet) }
        }
    }

    func hasArguments(_ fragment: String) -> Bool { !(definitions[fragment] ?? []).isEmpty }

    /// The value of each of `fragment`'s variables at `spread`: the spread's `@arguments`, else
    /// the default, else `nil` (null). Values are as written at the spread (they may be
    /// variables of the enclosing scope).
    func values(for fragment: String, at spread: FragmentSpread?) -> [(name: String, value: (any Value)?)] {
        let passed = spread?.directives.first { $0.name.value == "arguments" }?.arguments ?? []
        return (definitions[fragment] ?? []).map { definition in
            if let provider = definition.provider {
                return (definition.name, provided[ProvidedVariable.variableName(provider: provider)]?.variable)
            }
            if let given = passed.first(where: { $0.name.value == definition.name }) {
                return (definition.name, given.value)
            }
            return (definition.name, definition.defaultValue)
        }
    }

    /// A variable node `$name`.
    static func parseVariable(_ name: String) -> Variable? {
        guard let document = try? parse(source: Source(body: "{ f(a: $\(name)) }", name: RelayAdditions.sourceName)),
            let operation = document.definitions.first as? OperationDefinition,
            let field = operation.selectionSet.selections.first as? GraphQL.Field
        else { return nil }
        return field.arguments.first?.value as? Variable
    }

    /// Parses a type as written in `@argumentDefinitions`.
    static func parseType(_ text: String) -> (any GraphQL.`Type`)? {
        guard let document = try? parse(source: Source(body: "query Q($v: \(text)) { __typename }", name: "type")),
            let operation = document.definitions.first as? OperationDefinition,
            operation.variableDefinitions.count == 1
        else { return nil }
        return operation.variableDefinitions[0].type
    }
}
