import GraphQL

/// Swift spellings of GraphQL types in generated code.
struct TypeNames {
    let namespace: String?
    let customScalars: [String: String]
    /// Relay providers mapped to Swift types.
    var providedVariables: [String: String] = [:]
    /// Fragments' Swift type names by GraphQL name, where they differ (`GeneratedNames`).
    var fragmentTypeNames: [String: String] = [:]
    /// Top-level generated names that a member of a generated type could hide: generated code
    /// reaches them through `__Name` (`GeneratedNames.shadowable`).
    var shadowed: Set<String> = []

    /// How generated code refers to a top-level generated type (an operation, a fragment, a schema
    /// type outside a namespace, the namespace): its name, or `__Name` when a member of a
    /// generated type could hide it. GraphQL reserves names starting with `__`, so the alias
    /// never meets a user's name.
    func reference(_ topLevel: String) -> String {
        shadowed.contains(topLevel) ? "__" + topLevel : SwiftNaming.identifier(topLevel)
    }

    /// The alias `reference` needs for `topLevel`, declared beside the type, or nil.
    func alias(for topLevel: String) -> String? {
        shadowed.contains(topLevel) ? "public typealias __\(topLevel) = \(SwiftNaming.identifier(topLevel))\n" : nil
    }

    /// A fragment's Swift type name.
    func fragmentType(_ name: String) -> String {
        fragmentTypeNames[name] ?? name
    }

    /// Fragments' accessor names in `Fragments` where two fragments' lower-camel names are the
    /// same (`project` and `Project`): their GraphQL names.
    var fragmentAccessorNames: [String: String] = [:]

    /// A fragment's accessor in `Fragments`: `CharacterName` → `characterName`.
    func fragmentAccessor(_ name: String) -> String {
        fragmentAccessorNames[name] ?? SwiftNaming.lowerCamel(name)
    }

    /// Accessor names for fragments whose lower-camel names are the same: each its own name.
    static func fragmentAccessorNames(_ fragments: some Sequence<String>) -> [String: String] {
        let groups = Dictionary(grouping: fragments, by: SwiftNaming.lowerCamel)
        var result: [String: String] = [:]
        for (_, names) in groups where names.count > 1 {
            for name in names { result[name] = name }
        }
        return result
    }

    /// How generated code refers to a fragment's Swift type.
    func fragment(_ name: String) -> String {
        reference(fragmentType(name))
    }

    /// A schema type's Swift name (inside the namespace when there is one).
    func schemaType(_ name: String) -> String {
        namespace.map { "\(reference($0)).\(SwiftNaming.identifier(name))" } ?? reference(name)
    }

    func scalar(_ name: String) -> String {
        switch name {
        case "String", "ID": return "Swift.String"
        case "Int": return "Swift.Int"
        case "Float": return "Swift.Double"
        case "Boolean": return "Swift.Bool"
        default: return schemaType(name)
        }
    }

    /// The Swift type of a leaf named type: scalar, or `GraphQLEnum<E>` for an enum.
    func leaf(_ named: any GraphQLNamedType) -> String {
        if named is GraphQLEnumType { return "BatonAPI.GraphQLEnum<\(schemaType(named.name))>" }
        if named is GraphQLInputObjectType { return schemaType(named.name) }
        return scalar(named.name)
    }

    /// An accessor's type; `composite` names the struct for object, interface and union types.
    func output(_ type: any GraphQLType, composite: String?, nonNullLevels: Set<Int> = []) -> String {
        func inner(_ type: any GraphQLType, nullable: Bool, level: Int) -> String {
            if let nonNull = type as? GraphQLNonNull { return inner(nonNull.ofType, nullable: false, level: level) }
            let nullable = nullable && !nonNullLevels.contains(level)
            let base: String
            if let list = type as? GraphQLList {
                base = "[" + inner(list.ofType, nullable: true, level: level + 1) + "]"
            } else if let named = type as? any GraphQLNamedType {
                base = (named is GraphQLObjectType || named is GraphQLInterfaceType || named is GraphQLUnionType)
                    ? (composite ?? "BatonAPI.JSONValue") : leaf(named)
            } else {
                base = "BatonAPI.JSONValue"
            }
            return nullable ? base + "?" : base
        }
        return inner(type, nullable: true, level: 0)
    }

    /// A variable's or input field's type: `GraphQLNullable<T>` at the top when nullable.
    func input(_ type: any GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return inputInner(nonNull.ofType) }
        return "BatonAPI.GraphQLNullable<\(inputInner(type))>"
    }

    private func inputInner(_ type: any GraphQLType) -> String {
        if let list = type as? GraphQLList {
            let element = list.ofType
            if let nonNull = element as? GraphQLNonNull { return "[" + inputInner(nonNull.ofType) + "]" }
            return "[" + inputInner(element) + "?]"
        }
        if let named = type as? any GraphQLNamedType { return leaf(named) }
        return "BatonAPI.JSONValue"
    }

    /// `FieldType` metadata: `.nonNull(.list(.enumeration("Episode")))`.
    func fieldType(_ type: any GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return ".nonNull(\(fieldType(nonNull.ofType)))" }
        if let list = type as? GraphQLList { return ".list(\(fieldType(list.ofType)))" }
        guard let named = type as? any GraphQLNamedType else { return ".scalar(\"String\")" }
        switch named {
        case is GraphQLEnumType: return ".enumeration(\(SwiftNaming.stringLiteral(named.name)))"
        case is GraphQLObjectType, is GraphQLInterfaceType, is GraphQLUnionType: return ".object(\(SwiftNaming.stringLiteral(named.name)))"
        default: return ".scalar(\(SwiftNaming.stringLiteral(named.name)))"
        }
    }
}
