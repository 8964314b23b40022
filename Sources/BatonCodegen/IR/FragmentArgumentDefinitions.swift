import GraphQL

/// One of a fragment's own variables, from Relay's
/// `@argumentDefinitions(count: {type: "Int", defaultValue: 10})`.
struct FragmentArgumentDefinition {
    let name: String
    /// The type as written (`"Int!"`), and parsed.
    let typeText: String
    let type: any GraphQL.`Type`
    let defaultValue: (any Value)?
}

/// Reads `@argumentDefinitions` of fragments and `@arguments` of spreads, and computes the values
/// a spread gives a fragment's variables.
struct FragmentArgumentTable {
    private(set) var definitions: [String: [FragmentArgumentDefinition]] = [:]
    private(set) var errors: [CodegenError] = []

    init(fragments: [String: FragmentDefinition], operations: [OperationDefinition]) {
        for name in fragments.keys.sorted() {
            guard let fragment = fragments[name],
                let directive = fragment.directives.first(where: { $0.name.value == "argumentDefinitions" })
            else { continue }
            var list: [FragmentArgumentDefinition] = []
            for argument in directive.arguments {
                let argumentName = argument.name.value
                guard let object = argument.value as? ObjectValue,
                    let typeValue = object.fields.first(where: { $0.name.value == "type" })?.value as? StringValue
                else {
                    errors.append(
                        CodegenError(
                            "@argumentDefinitions(\(argumentName): …) needs an object with a \"type\" string, like {type: \"Int\", defaultValue: 10}",
                            at: .of(argument)))
                    continue
                }
                guard let type = Self.parseType(typeValue.value) else {
                    errors.append(CodegenError("\"\(typeValue.value)\" is not a GraphQL type", at: .of(typeValue)))
                    continue
                }
                let defaultValue = object.fields.first(where: { $0.name.value == "defaultValue" })?.value
                list.append(FragmentArgumentDefinition(name: argumentName, typeText: typeValue.value, type: type, defaultValue: defaultValue))
            }
            definitions[name] = list
        }
        // Spreads must pass only arguments the fragment defines.
        func check(_ set: GraphQL.SelectionSet) {
            set.forEachSelection { selection in
                guard let spread = selection as? FragmentSpread else { return }
                let defined = Set((definitions[spread.name.value] ?? []).map(\.name))
                for directive in spread.directives where directive.name.value == "arguments" {
                    for argument in directive.arguments where !defined.contains(argument.name.value) {
                        errors.append(
                            CodegenError(
                                "fragment \"\(spread.name.value)\" has no argument \"\(argument.name.value)\" in its @argumentDefinitions",
                                at: .of(argument)))
                    }
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
            if let given = passed.first(where: { $0.name.value == definition.name }) {
                return (definition.name, given.value)
            }
            return (definition.name, definition.defaultValue)
        }
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
