import GraphQL

/// An error in wiring resolvers into a schema.
struct SchemaWiringError: Error, CustomStringConvertible {
    let description: String
}

/// Rebuilds a schema built from SDL (which has no resolvers) into an executable one.
///
/// GraphQLSwift's `buildSchema` yields object types without resolvers and interfaces and unions
/// that cannot tell the runtime type of a value (their `resolveType` and `isTypeOf` are `let`s).
/// This rebuilds every object, interface and union type: objects get an `isTypeOf` and the
/// resolvers of `resolvers`, interfaces and unions a `resolveType`, both driven by `typename`,
/// which names the object type of a value (nil when the value does not say). Scalars, enums,
/// input objects, directives and introspection types are reused as they are.
///
/// - Parameters:
///   - schema: A schema built from SDL.
///   - description: The schema's description (GraphQLSwift does not expose the built one).
///   - resolvers: Resolvers keyed by type and field; every entry must name a field of an object type.
///   - typename: The object type name a value carries, or nil.
/// - Throws: `SchemaWiringError` for a resolver of an unknown field or an invalid result schema.
func wireResolvers(
    into schema: GraphQLSchema,
    description: String?,
    resolvers: ResolverTable,
    typename: @escaping @Sendable (any Sendable) -> String?
) throws -> GraphQLSchema {
    for (typeName, fieldName) in resolvers.coordinates {
        guard let type = schema.getType(name: typeName) as? GraphQLObjectType,
            try type.fields()[fieldName] != nil
        else {
            throw SchemaWiringError(description: "A resolver names \(typeName).\(fieldName), which is not a field of an object type.")
        }
    }

    let registry = TypeRegistry()
    for type in schema.typeMap.values {
        registry.types[type.name] = try rewire(type, registry: registry, resolvers: resolvers, typename: typename)
    }

    func root(_ type: GraphQLObjectType?) throws -> GraphQLObjectType? {
        guard let type else { return nil }
        return try registry.named(type.name, as: GraphQLObjectType.self)
    }

    let wired = try GraphQLSchema(
        description: description,
        query: root(schema.queryType),
        mutation: root(schema.mutationType),
        subscription: root(schema.subscriptionType),
        types: schema.typeMap.values.map { try registry.named($0.name, as: GraphQLNamedType.self) },
        directives: schema.directives
    )
    let errors = validateSchema(schema: wired)
    guard errors.isEmpty else {
        throw SchemaWiringError(description: "The wired schema is invalid: \(errors.map(\.message).joined(separator: "; "))")
    }
    return wired
}

/// The rebuilt named types by name. Filled before any field thunk runs (the thunks run when
/// `GraphQLSchema` collects its types), never changed afterwards.
private final class TypeRegistry {
    var types: [String: any GraphQLNamedType] = [:]

    func named<T>(_ name: String, as _: T.Type) throws -> T {
        guard let type = types[name] as? T else {
            throw SchemaWiringError(description: "The type \(name) is missing or has an unexpected kind.")
        }
        return type
    }

    /// `type` with every named type in it replaced by its rebuilt version.
    func replace(_ type: any GraphQLType) throws -> any GraphQLType {
        if let nonNull = type as? GraphQLNonNull {
            guard let inner = try replace(nonNull.ofType) as? any GraphQLNullableType else {
                throw SchemaWiringError(description: "Non-null of a non-nullable type: \(type)")
            }
            return GraphQLNonNull(inner)
        }
        if let list = type as? GraphQLList {
            return GraphQLList(try replace(list.ofType))
        }
        if let named = type as? any GraphQLNamedType {
            return types[named.name] ?? named
        }
        return type
    }

    func replaceOutput(_ type: any GraphQLOutputType) throws -> any GraphQLOutputType {
        guard let output = try replace(type) as? any GraphQLOutputType else {
            throw SchemaWiringError(description: "Not an output type: \(type)")
        }
        return output
    }
}

private func rewire(
    _ type: any GraphQLNamedType,
    registry: TypeRegistry,
    resolvers: ResolverTable,
    typename: @escaping @Sendable (any Sendable) -> String?
) throws -> any GraphQLNamedType {
    if type.name.hasPrefix("__") {
        return type
    }

    func fields(of typeName: String, from fields: GraphQLFieldMap) throws -> GraphQLFieldMap {
        var rewired = GraphQLFieldMap()
        for (fieldName, field) in fields {
            rewired[fieldName] = GraphQLField(
                type: try registry.replaceOutput(field.type),
                description: field.description,
                deprecationReason: field.deprecationReason,
                args: field.args,
                resolve: resolvers.resolvers[typeName]?[fieldName] ?? field.resolve,
                subscribe: resolvers.subscribers[typeName]?[fieldName] ?? field.subscribe,
                astNode: field.astNode
            )
        }
        return rewired
    }

    let resolveType: GraphQLTypeResolve = { [name = type.name] value, _ in
        guard let runtimeName = typename(value) else {
            throw SchemaWiringError(description: "A value of the abstract type \(name) does not say its object type: \(value)")
        }
        return runtimeName
    }

    switch type {
    case let object as GraphQLObjectType:
        return try GraphQLObjectType(
            name: object.name,
            description: object.description,
            fields: { try fields(of: object.name, from: object.fields()) },
            interfaces: { try object.interfaces().map { try registry.named($0.name, as: GraphQLInterfaceType.self) } },
            isTypeOf: { [name = object.name] value, _ in typename(value).map { $0 == name } ?? true },
            astNode: object.astNode,
            extensionASTNodes: object.extensionASTNodes
        )
    case let interface as GraphQLInterfaceType:
        return try GraphQLInterfaceType(
            name: interface.name,
            description: interface.description,
            fields: { try fields(of: interface.name, from: interface.fields()) },
            interfaces: { try interface.interfaces().map { try registry.named($0.name, as: GraphQLInterfaceType.self) } },
            resolveType: resolveType,
            astNode: interface.astNode,
            extensionASTNodes: interface.extensionASTNodes
        )
    case let union as GraphQLUnionType:
        return try GraphQLUnionType(
            name: union.name,
            description: union.description,
            resolveType: resolveType,
            types: { try union.types().map { try registry.named($0.name, as: GraphQLObjectType.self) } }
        )
    default:
        // Scalars, enums and input objects hold no resolvers and reference no output types.
        return type
    }
}
