import GraphQL

/// Fast lookups into a schema for the generator: fields by type, possible types, kinds.
/// GraphQLSwift rebuilds field maps on every call, so they are read once here.
final class SchemaIndex {
    /// What a named type is.
    enum Kind { case scalar, object, interface, union, enumeration, inputObject }

    struct FieldInfo {
        let name: String
        let type: any GraphQLOutputType
        let description: String?
        let deprecationReason: String?
        /// Argument types by name.
        var arguments: [String: any GraphQLInputType] = [:]
    }

    let loaded: LoadedSchema
    var schema: GraphQLSchema { loaded.schema }
    private var fieldCache: [String: [String: FieldInfo]] = [:]
    private var possibleCache: [String: [String]] = [:]

    init(_ loaded: LoadedSchema) {
        self.loaded = loaded
    }

    func kind(of name: String) -> Kind? {
        switch schema.getType(name: name) {
        case is GraphQLScalarType: return .scalar
        case is GraphQLObjectType: return .object
        case is GraphQLInterfaceType: return .interface
        case is GraphQLUnionType: return .union
        case is GraphQLEnumType: return .enumeration
        case is GraphQLInputObjectType: return .inputObject
        default: return nil
        }
    }

    func isComposite(_ name: String) -> Bool {
        switch kind(of: name) {
        case .object, .interface, .union: return true
        default: return false
        }
    }

    func isAbstract(_ name: String) -> Bool {
        switch kind(of: name) {
        case .interface, .union: return true
        default: return false
        }
    }

    /// Whether field `name` of `typeName`, selected with `directives`, lives only on the client:
    /// a client schema extension declares it, or it is marked `@client`.
    func isClientField(_ name: String, on typeName: String, directives: [Directive]) -> Bool {
        loaded.clientExtension.isClientField(name, on: typeName)
            || directives.contains { $0.name.value == ClientDirectives.client }
    }

    /// A field of an object or interface (`__typename` and `__id` on any composite type).
    func field(_ name: String, on typeName: String) -> FieldInfo? {
        if name == "__typename" {
            return FieldInfo(name: name, type: GraphQLNonNull(GraphQLString), description: nil, deprecationReason: nil)
        }
        if name == "__id" {
            return FieldInfo(name: name, type: GraphQLNonNull(GraphQLID), description: nil, deprecationReason: nil)
        }
        if typeName == schema.queryType?.name, let meta = introspectionField(name) { return meta }
        if let cached = fieldCache[typeName] { return cached[name] }
        var fields: [String: FieldInfo] = [:]
        let map: GraphQLFieldMap?
        switch schema.getType(name: typeName) {
        case let object as GraphQLObjectType: map = try? object.fields()
        case let interface as GraphQLInterfaceType: map = try? interface.fields()
        default: map = nil
        }
        for (fieldName, field) in map ?? [:] {
            var info = FieldInfo(
                name: fieldName, type: field.type, description: field.description, deprecationReason: field.deprecationReason)
            for (argumentName, argument) in field.args { info.arguments[argumentName] = argument.type }
            fields[fieldName] = info
        }
        fieldCache[typeName] = fields
        return fields[name]
    }

    /// The query root's introspection fields (`__schema`, `__type(name:)`), which every schema
    /// has without declaring them (GraphQL spec, "Schema Introspection").
    private func introspectionField(_ name: String) -> FieldInfo? {
        switch name {
        case "__schema":
            guard let type = schema.getType(name: "__Schema") as? GraphQLObjectType else { return nil }
            return FieldInfo(name: name, type: GraphQLNonNull(type), description: "Access the current type schema of this server.", deprecationReason: nil)
        case "__type":
            guard let type = schema.getType(name: "__Type") as? GraphQLObjectType else { return nil }
            var info = FieldInfo(name: name, type: type, description: "Request the type information of a single type.", deprecationReason: nil)
            info.arguments["name"] = GraphQLNonNull(GraphQLString)
            return info
        default:
            return nil
        }
    }

    /// The object types an abstract type can be, in schema order; an object type is itself.
    func possibleTypes(of name: String) -> [String] {
        if let cached = possibleCache[name] { return cached }
        let result: [String]
        switch schema.getType(name: name) {
        case let abstract as GraphQLAbstractType: result = schema.getPossibleTypes(abstractType: abstract).map(\.name)
        case let object as GraphQLObjectType: result = [object.name]
        default: result = []
        }
        possibleCache[name] = result
        return result
    }

    /// Whether every object of `scopeType` satisfies the type condition.
    func condition(_ condition: String, alwaysMatches scopeType: String) -> Bool {
        if condition == scopeType { return true }
        let conditionTypes = Set(possibleTypes(of: condition))
        let scopeTypes = possibleTypes(of: scopeType)
        return !scopeTypes.isEmpty && scopeTypes.allSatisfy(conditionTypes.contains)
    }

    var rootTypeNames: [GraphQLOperationType: String] {
        var result: [GraphQLOperationType: String] = [:]
        if let query = schema.queryType { result[.query] = query.name }
        if let mutation = schema.mutationType { result[.mutation] = mutation.name }
        if let subscription = schema.subscriptionType { result[.subscription] = subscription.name }
        return result
    }

    /// The cache key fields of a type: its own `@typePolicy`, else that of an interface it implements.
    func keyFields(of typeName: String) -> [String]? {
        if let own = loaded.keyFields[typeName] { return own }
        guard let object = schema.getType(name: typeName) as? GraphQLObjectType,
            let interfaces = try? object.interfaces()
        else { return nil }
        for interface in interfaces {
            if let fields = loaded.keyFields[interface.name] { return fields }
        }
        return nil
    }
}

/// The operation kinds the generator names types after.
enum GraphQLOperationType: String {
    case query, mutation, subscription

    init(_ type: OperationType) {
        switch type {
        case .query: self = .query
        case .mutation: self = .mutation
        case .subscription: self = .subscription
        }
    }

    var suffix: String {
        switch self {
        case .query: return "Query"
        case .mutation: return "Mutation"
        case .subscription: return "Subscription"
        }
    }
}
