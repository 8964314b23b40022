import GraphQL

/// The enums, input objects and custom scalars that the documents use, in name order: the
/// schema types that get generated.
final class UsedSchemaTypes {
    let index: SchemaIndex
    private var enumSet: Set<String> = []
    private var inputSet: Set<String> = []
    private var scalarSet: Set<String> = []
    private var visitedScopes: Set<ObjectIdentifier> = []

    init(index: SchemaIndex) {
        self.index = index
    }

    var enums: [String] { enumSet.sorted() }
    var inputObjects: [String] { inputSet.sorted() }
    var customScalars: [String] { scalarSet.sorted() }

    func collect(_ scope: SelectionScope) {
        guard visitedScopes.insert(ObjectIdentifier(scope)).inserted else { return }
        for selection in scope.selections {
            guard case .field(let field) = selection else { continue }
            collect(named: getNamedType(type: field.type))
            // Types of the arguments given, so literals like `size: LARGE` have their enum.
            if let info = index.field(field.name, on: scope.typeName) {
                for argument in field.arguments {
                    if let type = info.arguments[argument.name.value] { collect(named: getNamedType(type: type)) }
                }
            }
        }
        for child in scope.children { collect(child) }
    }

    func collect(_ type: any GraphQL.`Type`) {
        switch type {
        case let named as NamedType: collect(named: index.schema.getType(name: named.name.value))
        case let list as ListType: collect(list.type)
        case let nonNull as NonNullType: collect(nonNull.type)
        default: break
        }
    }

    func collect(named type: (any GraphQLNamedType)?) {
        switch type {
        case let enumType as GraphQLEnumType:
            enumSet.insert(enumType.name)
        case let scalar as GraphQLScalarType:
            if !IntrospectionConverter.builtInScalars.contains(scalar.name) { scalarSet.insert(scalar.name) }
        case let input as GraphQLInputObjectType:
            guard inputSet.insert(input.name).inserted else { return }
            for (_, field) in (try? input.fields()) ?? [:] { collect(named: getNamedType(type: field.type)) }
        default:
            break
        }
    }
}
