import GraphQL

/// What `@semanticNonNull(levels:)` on field definitions and `@semanticNonNullField(name:,
/// levels:)` on types say (Apollo's nullability spec, as Relay reads it): the levels of a field's
/// type (0: the field, 1: its list's items, …) that are never null except for a field error. Read
/// under `@throwOnFieldError`, those levels are not optional in Swift.
enum SemanticNullability {
    /// Levels by type and field.
    static func read(_ definitions: [any Definition], links: LinkImports) -> [String: [String: [Int]]] {
        var result: [String: [String: [Int]]] = [:]
        func levels(_ directive: Directive) -> [Int] {
            guard let list = LinkImports.argument(directive, "levels") as? ListValue else { return [0] }
            return list.values.compactMap { ($0 as? IntValue).flatMap { Int($0.value) } }
        }
        func readType(_ type: String, _ directives: [Directive], fields: [FieldDefinition]) {
            for directive in directives where links.canonical(directive.name.value) == "semanticNonNullField" {
                guard let name = (LinkImports.argument(directive, "name") as? StringValue)?.value else { continue }
                result[type, default: [:]][name] = levels(directive)
            }
            for field in fields {
                for directive in field.directives where links.canonical(directive.name.value) == "semanticNonNull" {
                    result[type, default: [:]][field.name.value] = levels(directive)
                }
            }
        }
        for definition in definitions {
            switch definition {
            case let object as ObjectTypeDefinition: readType(object.name.value, object.directives, fields: object.fields)
            case let interface as InterfaceTypeDefinition: readType(interface.name.value, interface.directives, fields: interface.fields)
            case let ext as TypeExtensionDefinition: readType(ext.definition.name.value, ext.definition.directives, fields: ext.definition.fields)
            case let ext as InterfaceExtensionDefinition:
                readType(ext.definition.name.value, ext.definition.directives, fields: ext.definition.fields)
            default: break
            }
        }
        return result
    }
}
