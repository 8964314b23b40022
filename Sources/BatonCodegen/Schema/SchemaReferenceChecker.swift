import GraphQL

/// Finds references to types an SDL document does not define, with their places; GraphQLSwift's
/// schema builder reports them without a location.
enum SchemaReferenceChecker {
    static let builtIn: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]

    static func unknownTypes(in definitions: [any Definition]) -> [CodegenError] {
        var defined = builtIn
        for definition in definitions {
            if let type = definition as? any TypeDefinition { defined.insert(type.name.value) }
        }
        var errors: [CodegenError] = []
        func check(_ type: any GraphQL.`Type`) {
            switch type {
            case let named as NamedType:
                if !defined.contains(named.name.value) {
                    errors.append(CodegenError("Unknown type \"\(named.name.value)\".", at: .of(named)))
                }
            case let list as ListType: check(list.type)
            case let nonNull as NonNullType: check(nonNull.type)
            default: break
            }
        }
        func checkFields(_ fields: [FieldDefinition]) {
            for field in fields {
                check(field.type)
                for argument in field.arguments { check(argument.type) }
            }
        }
        for definition in definitions {
            switch definition {
            case let object as ObjectTypeDefinition:
                object.interfaces.forEach(check)
                checkFields(object.fields)
            case let interface as InterfaceTypeDefinition:
                interface.interfaces.forEach(check)
                checkFields(interface.fields)
            case let ext as TypeExtensionDefinition:
                ext.definition.interfaces.forEach(check)
                checkFields(ext.definition.fields)
            case let union as UnionTypeDefinition:
                union.types.forEach(check)
            case let input as InputObjectTypeDefinition:
                for field in input.fields { check(field.type) }
            case let directive as DirectiveDefinition:
                for argument in directive.arguments { check(argument.type) }
            case let schema as SchemaDefinition:
                for operation in schema.operationTypes { check(operation.type) }
            default:
                break
            }
        }
        return errors
    }
}
