import GraphQL

/// Renders GraphQL values as Swift: argument metadata (`InputValue`) and default values.
enum ValueRenderer {
    /// An argument's `InputValue` literal: `.variable("id")`, `"FOOT"`, `10`, `.list([…])`.
    static func inputValue(_ value: any Value) -> String {
        switch value {
        case let variable as Variable: return ".variable(\(SwiftNaming.stringLiteral(variable.name.value)))"
        case let int as IntValue: return Int(int.value) != nil ? int.value : ".value(.double(\(int.value)))"
        case let float as FloatValue: return ".value(.double(\(float.value)))"
        case let string as StringValue: return SwiftNaming.stringLiteral(string.value)
        case let bool as BooleanValue: return bool.value ? "true" : "false"
        case is NullValue: return ".value(.null)"
        case let enumValue as EnumValue: return SwiftNaming.stringLiteral(enumValue.value)
        case let list as ListValue: return ".list([" + list.values.map(inputValue).joined(separator: ", ") + "])"
        case let object as ObjectValue:
            if object.fields.isEmpty { return ".object([:])" }
            return ".object([" + object.fields.map { "\(SwiftNaming.stringLiteral($0.name.value)): \(inputValue($0.value))" }
                .joined(separator: ", ") + "])"
        default: return ".value(.null)"
        }
    }

    /// A literal as a `JSONValue` expression: `.int(10)`, `.string("a")`, `.list([…])`.
    static func jsonValue(_ value: any Value) -> String {
        switch value {
        case let int as IntValue: return Int(int.value) != nil ? ".int(\(int.value))" : ".double(\(int.value))"
        case let float as FloatValue: return ".double(\(float.value))"
        case let string as StringValue: return ".string(\(SwiftNaming.stringLiteral(string.value)))"
        case let bool as BooleanValue: return ".bool(\(bool.value))"
        case let enumValue as EnumValue: return ".string(\(SwiftNaming.stringLiteral(enumValue.value)))"
        case let list as ListValue: return ".list([" + list.values.map(jsonValue).joined(separator: ", ") + "])"
        case let object as ObjectValue:
            if object.fields.isEmpty { return ".object([:])" }
            return ".object([" + object.fields.map { "\(SwiftNaming.stringLiteral($0.name.value)): \(jsonValue($0.value))" }
                .joined(separator: ", ") + "])"
        default: return ".null"
        }
    }

    /// A default value as a Swift expression of the type `TypeNames.input(type)` spells, or
    /// `nil` when it cannot be written (a custom scalar mapped to a Swift type).
    static func defaultValue(_ value: any Value, type: any GraphQLType, names: TypeNames, index: SchemaIndex) -> String? {
        if let nonNull = type as? GraphQLNonNull { return inner(value, type: nonNull.ofType, names: names, index: index) }
        if value is NullValue { return ".null" }
        return inner(value, type: type, names: names, index: index).map { ".some(\($0))" }
    }

    private static func inner(_ value: any Value, type: any GraphQLType, names: TypeNames, index: SchemaIndex) -> String? {
        if value is NullValue { return "nil" }
        if let nonNull = type as? GraphQLNonNull { return inner(value, type: nonNull.ofType, names: names, index: index) }
        if let list = type as? GraphQLList {
            let elements: [any Value] = (value as? ListValue)?.values ?? [value]
            var parts: [String] = []
            for element in elements {
                guard let part = inner(element, type: list.ofType, names: names, index: index) else { return nil }
                parts.append(part)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        }
        switch type {
        case let enumType as GraphQLEnumType:
            guard let enumValue = value as? EnumValue else { return nil }
            return "BatonAPI.GraphQLEnum<\(names.schemaType(enumType.name))>(rawValue: \(SwiftNaming.stringLiteral(enumValue.value)))"
        case let inputType as GraphQLInputObjectType:
            guard let object = value as? ObjectValue, let fields = try? inputType.fields() else { return nil }
            var arguments: [String] = []
            for (name, field) in fields {
                guard let given = object.fields.first(where: { $0.name.value == name }) else { continue }
                let rendered: String?
                if field.type is GraphQLNonNull, field.defaultValue == nil {
                    rendered = inner(given.value, type: field.type, names: names, index: index)
                } else {
                    rendered = defaultValue(given.value, type: (field.type as? GraphQLNonNull)?.ofType ?? field.type, names: names, index: index)
                }
                guard let rendered else { return nil }
                arguments.append("\(SwiftNaming.identifier(name)): \(rendered)")
            }
            return names.schemaType(inputType.name) + "(" + arguments.joined(separator: ", ") + ")"
        case let scalar as GraphQLScalarType:
            switch (scalar.name, value) {
            case ("Int", let int as IntValue): return int.value
            case ("Float", let int as IntValue): return int.value
            case ("Float", let float as FloatValue): return float.value
            case ("Boolean", let bool as BooleanValue): return bool.value ? "true" : "false"
            case ("ID", let int as IntValue): return SwiftNaming.stringLiteral(int.value)
            case (_, let string as StringValue):
                if names.customScalars[scalar.name] != nil { return nil }
                return SwiftNaming.stringLiteral(string.value)
            default: return nil
            }
        default:
            return nil
        }
    }
}
