import GraphQL

/// Prints operations and fragments on one line each, tokens separated by single spaces, with
/// `__typename` first in every field's selections and in every fragment: the documents that are
/// sent and hashed. What only the client understands is left out: Baton's client directives,
/// `__id`, and variables used only by those directives.
enum DocumentPrinter {
    static func operation(_ operation: OperationDefinition, fragments: [String: FragmentDefinition] = [:]) -> String {
        var text = operation.operation.rawValue
        if let name = operation.name?.value { text += " " + name }
        var used = Set<String>()
        var visited = Set<String>()
        collectVariables(in: operation.selectionSet, fragments: fragments, into: &used, visited: &visited)
        for directive in operation.directives where !ClientDirectives.clientOnly.contains(directive.name.value) {
            for argument in directive.arguments { collectVariables(in: argument.value, into: &used) }
        }
        let definitions = operation.variableDefinitions.filter { used.contains($0.variable.name.value) }
        if !definitions.isEmpty {
            text += "(" + definitions.map(variableDefinition).joined(separator: ", ") + ")"
        }
        text += directives(operation.directives)
        return text + " " + selectionSet(operation.selectionSet, addTypename: false)
    }

    static func fragment(_ fragment: FragmentDefinition) -> String {
        "fragment \(fragment.name.value) on \(fragment.typeCondition.name.value)" + directives(fragment.directives) + " "
            + selectionSet(fragment.selectionSet, addTypename: true)
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

    static func selectionSet(_ selectionSet: GraphQL.SelectionSet, addTypename: Bool) -> String {
        var parts: [String] = addTypename ? ["__typename"] : []
        for selection in selectionSet.selections {
            switch selection {
            case let field as GraphQL.Field:
                if addTypename, field.name.value == "__typename", field.alias == nil, field.directives.isEmpty { continue }
                if field.name.value == "__id" { continue }  // the store's record ID, not the server's
                var text = field.alias.map { $0.value + ": " } ?? ""
                text += field.name.value + arguments(field.arguments) + directives(field.directives)
                if let nested = field.selectionSet { text += " " + self.selectionSet(nested, addTypename: true) }
                parts.append(text)
            case let inline as GraphQL.InlineFragment:
                var text = "..."
                if let condition = inline.typeCondition { text += " on " + condition.name.value }
                text += directives(inline.directives) + " " + self.selectionSet(inline.selectionSet, addTypename: false)
                parts.append(text)
            case let spread as FragmentSpread:
                parts.append("..." + spread.name.value + directives(spread.directives))
            default:
                break
            }
        }
        return "{ " + parts.joined(separator: " ") + " }"
    }

    static func arguments(_ arguments: [Argument]) -> String {
        if arguments.isEmpty { return "" }
        return "(" + arguments.map { "\($0.name.value): \(value($0.value))" }.joined(separator: ", ") + ")"
    }

    static func directives(_ directives: [Directive]) -> String {
        directives.filter { !ClientDirectives.clientOnly.contains($0.name.value) }
            .map { " @" + $0.name.value + arguments($0.arguments) }.joined()
    }

    /// The variables a selection set (and the fragments it spreads) uses in what is sent.
    static func collectVariables(
        in selectionSet: GraphQL.SelectionSet, fragments: [String: FragmentDefinition], into used: inout Set<String>,
        visited: inout Set<String>
    ) {
        func directiveVariables(_ directives: [Directive]) {
            for directive in directives where !ClientDirectives.clientOnly.contains(directive.name.value) {
                for argument in directive.arguments { collectVariables(in: argument.value, into: &used) }
            }
        }
        for selection in selectionSet.selections {
            switch selection {
            case let field as GraphQL.Field:
                for argument in field.arguments { collectVariables(in: argument.value, into: &used) }
                directiveVariables(field.directives)
                if let nested = field.selectionSet {
                    collectVariables(in: nested, fragments: fragments, into: &used, visited: &visited)
                }
            case let inline as GraphQL.InlineFragment:
                directiveVariables(inline.directives)
                collectVariables(in: inline.selectionSet, fragments: fragments, into: &used, visited: &visited)
            case let spread as FragmentSpread:
                directiveVariables(spread.directives)
                guard visited.insert(spread.name.value).inserted, let definition = fragments[spread.name.value] else { continue }
                collectVariables(in: definition.selectionSet, fragments: fragments, into: &used, visited: &visited)
            default:
                break
            }
        }
    }

    static func collectVariables(in value: any Value, into used: inout Set<String>) {
        switch value {
        case let variable as Variable: used.insert(variable.name.value)
        case let list as ListValue: for element in list.values { collectVariables(in: element, into: &used) }
        case let object as ObjectValue: for field in object.fields { collectVariables(in: field.value, into: &used) }
        default: break
        }
    }

    static func value(_ value: any Value) -> String {
        switch value {
        case let variable as Variable: return "$" + variable.name.value
        case let int as IntValue: return int.value
        case let float as FloatValue: return float.value
        case let string as StringValue: return quoted(string.value)
        case let bool as BooleanValue: return bool.value ? "true" : "false"
        case is NullValue: return "null"
        case let enumValue as EnumValue: return enumValue.value
        case let list as ListValue: return "[" + list.values.map(self.value).joined(separator: ", ") + "]"
        case let object as ObjectValue:
            return "{" + object.fields.map { "\($0.name.value): \(self.value($0.value))" }.joined(separator: ", ") + "}"
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
