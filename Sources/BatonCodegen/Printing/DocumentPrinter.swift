import GraphQL

/// Prints operations and fragments on one line each, tokens separated by single spaces, with
/// `__typename` first in every field's selections and in every fragment: the documents that are
/// sent and hashed. What only the client understands is left out: Baton's client directives,
/// `__id`, and variables used only by those directives. Relay's fragment arguments are applied:
/// a fragment with `@argumentDefinitions` is printed once per distinct set of values it is
/// spread with, as `Name_<hash>`, its variables replaced by those values.
enum DocumentPrinter {
    /// A value after fragment arguments are applied: its text and the operation variables in it.
    struct ResolvedValue {
        let text: String
        let variables: Set<String>
        static let null = ResolvedValue(text: "null", variables: [])
    }

    /// What a selection set is printed under: the values of the enclosing fragment's own
    /// variables (empty for operations and fragments without arguments).
    struct Context {
        var substitution: [String: ResolvedValue] = [:]
        static let global = Context()
    }

    /// A fragment as one operation's document prints it.
    struct PrintedFragment {
        let name: String
        let definition: FragmentDefinition
        let context: Context
    }

    /// The operation's whole document: the operation, then the fragments it uses (transitively,
    /// in first-use order), fragment arguments applied.
    static func document(
        _ operation: OperationDefinition, fragments: [String: FragmentDefinition], arguments: FragmentArgumentTable
    ) -> String {
        let used = fragmentsUsed(by: operation.selectionSet, context: .global, fragments: fragments, arguments: arguments)
        var lines = [self.operation(operation, used: used, arguments: arguments)]
        for fragment in used {
            lines.append(
                "fragment \(fragment.name) on \(fragment.definition.typeCondition.name.value)"
                    + directives(fragment.definition.directives, fragment.context) + " "
                    + selectionSet(fragment.definition.selectionSet, addTypename: true, fragment.context, arguments))
        }
        return lines.joined(separator: "\n")
    }

    /// The operation variables the sent document uses.
    static func usedVariables(_ operation: OperationDefinition, used: [PrintedFragment]) -> Set<String> {
        var variables = Set<String>()
        collectVariables(in: operation.selectionSet, .global, into: &variables)
        for fragment in used { collectVariables(in: fragment.definition.selectionSet, fragment.context, into: &variables) }
        for directive in operation.directives where !ClientDirectives.clientOnly.contains(directive.name.value) {
            for argument in directive.arguments { collectVariables(in: argument.value, .global, into: &variables) }
        }
        return variables
    }

    /// Relay's provided variables the operation's document uses (it declares them itself), by name.
    static func providedVariables(
        _ operation: OperationDefinition, fragments: [String: FragmentDefinition], arguments: FragmentArgumentTable
    ) -> [ProvidedVariable] {
        if arguments.provided.isEmpty { return [] }
        let used = fragmentsUsed(by: operation.selectionSet, context: .global, fragments: fragments, arguments: arguments)
        let declared = Set(operation.variableDefinitions.map(\.variable.name.value))
        return usedVariables(operation, used: used).subtracting(declared).sorted().compactMap { arguments.provided[$0] }
    }

    static func operation(_ operation: OperationDefinition, used: [PrintedFragment], arguments: FragmentArgumentTable) -> String {
        var text = operation.operation.rawValue
        if let name = operation.name?.value { text += " " + name }
        let variables = usedVariables(operation, used: used)
        var definitions = operation.variableDefinitions.filter { variables.contains($0.variable.name.value) }.map(variableDefinition)
        let declared = Set(operation.variableDefinitions.map(\.variable.name.value))
        for name in variables.subtracting(declared).sorted() {
            if let provided = arguments.provided[name] { definitions.append("$\(name): \(type(provided.type))") }
        }
        if !definitions.isEmpty {
            text += "(" + definitions.joined(separator: ", ") + ")"
        }
        text += directives(operation.directives)
        return text + " " + selectionSet(operation.selectionSet, addTypename: false, .global, arguments)
    }

    /// A fragment's definition as written (its own variables unreplaced), client-only parts left out.
    static func fragment(_ fragment: FragmentDefinition) -> String {
        "fragment \(fragment.name.value) on \(fragment.typeCondition.name.value)" + directives(fragment.directives) + " "
            + selectionSet(fragment.selectionSet, addTypename: true)
    }

    /// The context a spread gives its fragment, and the name the fragment is printed under.
    static func spreadTarget(
        _ spread: FragmentSpread, _ context: Context, arguments: FragmentArgumentTable
    ) -> (name: String, context: Context) {
        let name = spread.name.value
        guard arguments.hasArguments(name) else { return (name, .global) }
        var child = Context()
        for (argument, value) in arguments.values(for: name, at: spread) {
            child.substitution[argument] = value.map { resolve($0, context) } ?? .null
        }
        let key = child.substitution.keys.sorted().map { "\($0):\(child.substitution[$0]!.text)" }.joined(separator: ",")
        return (name + "_" + String(OperationRenderer.sha256(key).prefix(8)), child)
    }

    /// A value as written in `context`: its text with the fragment's variables replaced, and the
    /// operation variables it uses.
    static func resolve(_ value: any Value, _ context: Context) -> ResolvedValue {
        var variables = Set<String>()
        collectVariables(in: value, context, into: &variables)
        return ResolvedValue(text: self.value(value, context), variables: variables)
    }

    static func variableDefinition(_ definition: VariableDefinition) -> String {
        var text = "$\(definition.variable.name.value): \(type(definition.type))"
        if let defaultValue = definition.defaultValue { text += " = " + value(defaultValue) }
        return text + directives(definition.directives)
    }

    static func type(_ type: any GraphQL.`Type`) -> String {
        switch type {
        case let named as NamedType: return named.name.value
        case let list as ListType: return "[" + self.type(list.type) + "]"
        case let nonNull as NonNullType: return self.type(nonNull.type) + "!"
        default: return ""
        }
    }

    static func selectionSet(
        _ selectionSet: GraphQL.SelectionSet, addTypename: Bool, _ context: Context = .global,
        _ arguments: FragmentArgumentTable? = nil
    ) -> String {
        var parts: [String] = addTypename ? ["__typename"] : []
        for selection in selectionSet.selections {
            switch selection {
            case let field as GraphQL.Field:
                if addTypename, field.name.value == "__typename", field.alias == nil, field.directives.isEmpty { continue }
                if field.name.value == "__id" { continue }  // the store's record ID, not the server's
                var text = field.alias.map { $0.value + ": " } ?? ""
                text += field.name.value + self.arguments(field.arguments, context) + directives(field.directives, context)
                if let nested = field.selectionSet { text += " " + self.selectionSet(nested, addTypename: true, context, arguments) }
                parts.append(text)
            case let inline as GraphQL.InlineFragment:
                var text = "..."
                if let condition = inline.typeCondition { text += " on " + condition.name.value }
                text += directives(inline.directives, context) + " "
                    + self.selectionSet(inline.selectionSet, addTypename: false, context, arguments)
                parts.append(text)
            case let spread as FragmentSpread:
                let name = arguments.map { spreadTarget(spread, context, arguments: $0).name } ?? spread.name.value
                parts.append("..." + name + directives(spread.directives, context))
            default:
                break
            }
        }
        // Emptied by leaving out client-only fields: `__typename` keeps it valid (Relay's way).
        if parts.isEmpty { parts = ["__typename"] }
        return "{ " + parts.joined(separator: " ") + " }"
    }

    static func arguments(_ arguments: [Argument], _ context: Context = .global) -> String {
        if arguments.isEmpty { return "" }
        return "(" + arguments.map { "\($0.name.value): \(value($0.value, context))" }.joined(separator: ", ") + ")"
    }

    /// Arguments in a form in which order does not count (arguments and input object fields by
    /// name), to compare two selections of one field: `f(a: 1, b: {x: 1, y: 2})` is
    /// `f(b: {y: 2, x: 1}, a: 1)`, as the spec's SameArguments and graphql-js have it.
    static func unorderedArguments(_ arguments: [Argument]) -> String {
        func unordered(_ value: any Value) -> String {
            switch value {
            case let list as ListValue: return "[" + list.values.map(unordered).joined(separator: ", ") + "]"
            case let object as ObjectValue:
                return "{" + object.fields.sorted { $0.name.value < $1.name.value }.map { "\($0.name.value): \(unordered($0.value))" }
                    .joined(separator: ", ") + "}"
            default: return self.value(value)
            }
        }
        return arguments.sorted { $0.name.value < $1.name.value }.map { "\($0.name.value): \(unordered($0.value))" }.joined(separator: ", ")
    }

    static func directives(_ directives: [Directive], _ context: Context = .global) -> String {
        directives.filter { !ClientDirectives.clientOnly.contains($0.name.value) }
            .map { " @" + $0.name.value + arguments($0.arguments, context) }.joined()
    }

    /// The operation variables a selection set uses in what is sent (not those of the fragments
    /// it spreads).
    static func collectVariables(in selectionSet: GraphQL.SelectionSet, _ context: Context, into used: inout Set<String>) {
        func directiveVariables(_ directives: [Directive]) {
            for directive in directives where !ClientDirectives.clientOnly.contains(directive.name.value) {
                for argument in directive.arguments { collectVariables(in: argument.value, context, into: &used) }
            }
        }
        for selection in selectionSet.selections {
            switch selection {
            case let field as GraphQL.Field:
                for argument in field.arguments { collectVariables(in: argument.value, context, into: &used) }
                directiveVariables(field.directives)
                if let nested = field.selectionSet { collectVariables(in: nested, context, into: &used) }
            case let inline as GraphQL.InlineFragment:
                directiveVariables(inline.directives)
                collectVariables(in: inline.selectionSet, context, into: &used)
            case let spread as FragmentSpread:
                directiveVariables(spread.directives)
            default:
                break
            }
        }
    }

    static func collectVariables(in value: any Value, _ context: Context = .global, into used: inout Set<String>) {
        switch value {
        case let variable as Variable:
            if let resolved = context.substitution[variable.name.value] {
                used.formUnion(resolved.variables)
            } else {
                used.insert(variable.name.value)
            }
        case let list as ListValue: for element in list.values { collectVariables(in: element, context, into: &used) }
        case let object as ObjectValue: for field in object.fields { collectVariables(in: field.value, context, into: &used) }
        default: break
        }
    }

    static func value(_ value: any Value, _ context: Context = .global) -> String {
        switch value {
        case let variable as Variable: return context.substitution[variable.name.value]?.text ?? "$" + variable.name.value
        case let int as IntValue: return int.value
        case let float as FloatValue: return float.value
        case let string as StringValue: return quoted(string.value)
        case let bool as BooleanValue: return bool.value ? "true" : "false"
        case is NullValue: return "null"
        case let enumValue as EnumValue: return enumValue.value
        case let list as ListValue: return "[" + list.values.map { self.value($0, context) }.joined(separator: ", ") + "]"
        case let object as ObjectValue:
            return "{" + object.fields.map { "\($0.name.value): \(self.value($0.value, context))" }.joined(separator: ", ") + "}"
        default: return ""
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The fragments a selection set uses, transitively, in first-use order, each under the name
    /// and context its spread gives it.
    static func fragmentsUsed(
        by selectionSet: GraphQL.SelectionSet, context: Context, fragments: [String: FragmentDefinition],
        arguments: FragmentArgumentTable
    ) -> [PrintedFragment] {
        var order: [PrintedFragment] = []
        var seen: Set<String> = []
        func walk(_ set: GraphQL.SelectionSet, _ context: Context) {
            for selection in set.selections {
                switch selection {
                case let field as GraphQL.Field:
                    if let nested = field.selectionSet { walk(nested, context) }
                case let inline as GraphQL.InlineFragment:
                    walk(inline.selectionSet, context)
                case let spread as FragmentSpread:
                    let target = spreadTarget(spread, context, arguments: arguments)
                    guard seen.insert(target.name).inserted, let definition = fragments[spread.name.value] else { continue }
                    order.append(PrintedFragment(name: target.name, definition: definition, context: target.context))
                    walk(definition.selectionSet, target.context)
                default:
                    break
                }
            }
        }
        walk(selectionSet, context)
        return order
    }

    /// The fragments an operation or fragment uses, transitively, in first-use order.
    static func fragmentsUsed(by selectionSet: GraphQL.SelectionSet, fragments: [String: FragmentDefinition]) -> [String] {
        var order: [String] = []
        var seen: Set<String> = []
        func walk(_ set: GraphQL.SelectionSet) {
            for selection in set.selections {
                switch selection {
                case let field as GraphQL.Field:
                    if let nested = field.selectionSet { walk(nested) }
                case let inline as GraphQL.InlineFragment:
                    walk(inline.selectionSet)
                case let spread as FragmentSpread:
                    let name = spread.name.value
                    guard seen.insert(name).inserted, let definition = fragments[name] else { continue }
                    order.append(name)
                    walk(definition.selectionSet)
                default:
                    break
                }
            }
        }
        walk(selectionSet)
        return order
    }
}
