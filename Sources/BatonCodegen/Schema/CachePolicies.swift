import GraphQL

/// What Apollo's cache directives in a schema (or its extensions) say, as Apollo Kotlin and Apollo
/// iOS read them: `@typePolicy(keyFields:, embeddedFields:)`, `@fieldPolicy(forField:, keyArgs:)`,
/// `@cacheControl(maxAge:, inheritMaxAge:)` and `@cacheControlField(name:, maxAge:,
/// inheritMaxAge:)`, under whatever names
/// `@link` gave them.
public struct CachePolicies: Sendable, Hashable {
    /// Cache key fields by type: `@typePolicy(keyFields: "id")`.
    public var keyFields: [String: [String]] = [:]
    /// Fields stored inside their parent's record instead of a record of their own, by parent type:
    /// `@typePolicy(embeddedFields: "author")`.
    public var embeddedFields: [String: [String]] = [:]
    /// The arguments that make up the cache key of the object a field returns, by parent type and
    /// field: `@fieldPolicy(forField: "book", keyArgs: "id")` lets `book(id: 1)` be read from
    /// `Book:1` without a fetch.
    public var keyArgs: [String: [String: [String]]] = [:]
    /// Max ages in seconds by type: `@cacheControl(maxAge:)` on a type.
    public var typeMaxAge: [String: Int] = [:]
    /// Max ages in seconds by parent type and field: `@cacheControl(maxAge:)` on a field
    /// definition, `@cacheControlField(name:, maxAge:)` on its type.
    public var fieldMaxAge: [String: [String: Int]] = [:]
    /// Types whose fields take the max age of the field leading to them: `@cacheControl(inheritMaxAge: true)` on a type.
    public var inheritMaxAgeTypes: Set<String> = []
    /// Fields that take the max age of the field leading to their parent, by parent type:
    /// `inheritMaxAge: true` in `@cacheControl` on a field or `@cacheControlField` on its type.
    public var inheritMaxAgeFields: [String: Set<String>] = [:]

    /// Whether anything here goes into the generated `CacheDirectives` (key fields go into the
    /// schema metadata's own `keyFields`).
    var statesCacheDirectives: Bool {
        !(embeddedFields.isEmpty && keyArgs.isEmpty && typeMaxAge.isEmpty && fieldMaxAge.isEmpty && inheritMaxAgeTypes.isEmpty
            && inheritMaxAgeFields.isEmpty)
    }

    /// Reads the directives of `definitions`; `links` maps renamed directives to their own names.
    /// With `schema`, what they name is checked against it: embedded fields, a field policy's
    /// fields and their key arguments must exist (a located error otherwise).
    static func read(_ definitions: [any Definition], links: LinkImports, schema: GraphQLSchema? = nil) throws(CodegenErrors) -> CachePolicies {
        var policies = CachePolicies()
        var errors: [CodegenError] = []
        /// The fields of a type in the schema, `nil` without a schema (or for a union).
        func fields(of type: String) -> GraphQLFieldMap? {
            switch schema?.getType(name: type) {
            case let object as GraphQLObjectType: return try? object.fields()
            case let interface as GraphQLInterfaceType: return try? interface.fields()
            default: return nil
            }
        }
        func checkEmbedded(_ names: [String], on type: String, _ directive: Directive) {
            guard let fields = fields(of: type) else { return }
            for name in names where fields[name] == nil {
                errors.append(CodegenError("@typePolicy(embeddedFields:) names \"\(name)\", which is not a field of \(type)", at: .of(directive)))
            }
        }
        func checkKeyArgs(_ keyArgs: [String], field name: String, on type: String, _ directive: Directive) {
            guard let fields = fields(of: type) else { return }
            guard let field = fields[name] else {
                errors.append(CodegenError("@fieldPolicy names \"\(name)\", which is not a field of \(type)", at: .of(directive)))
                return
            }
            for argument in keyArgs where field.args[argument] == nil {
                errors.append(
                    CodegenError("@fieldPolicy(keyArgs:) names \"\(argument)\", which is not an argument of \(type).\(name)", at: .of(directive)))
            }
        }
        func string(_ directive: Directive, _ name: String) -> String? {
            (LinkImports.argument(directive, name) as? StringValue)?.value
        }
        func names(_ text: String) -> [String] {
            text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }).map(String.init)
        }
        func maxAge(_ directive: Directive) -> Int? {
            guard let value = LinkImports.argument(directive, "maxAge") else { return nil }
            guard let int = value as? IntValue, let age = Int(int.value) else {
                errors.append(CodegenError("@\(directive.name.value) needs maxAge: an integer number of seconds", at: .of(directive)))
                return nil
            }
            return age
        }
        func inheritsMaxAge(_ directive: Directive) -> Bool {
            (LinkImports.argument(directive, "inheritMaxAge") as? BooleanValue)?.value == true
        }
        /// `field`'s max age or `inheritMaxAge` from `directive` (`@cacheControl` on the field,
        /// `@cacheControlField` on its type).
        func readFieldMaxAge(_ directive: Directive, field: String, on type: String) {
            if let age = maxAge(directive) {
                policies.fieldMaxAge[type, default: [:]][field] = age
            } else if inheritsMaxAge(directive) {
                policies.inheritMaxAgeFields[type, default: []].insert(field)
            }
        }
        func readType(_ type: String, _ directives: [Directive], fields: [FieldDefinition]) {
            for directive in directives {
                switch links.canonical(directive.name.value) {
                case "typePolicy":
                    if let keys = string(directive, "keyFields").map(names), !keys.isEmpty { policies.keyFields[type] = keys }
                    if let embedded = string(directive, "embeddedFields").map(names), !embedded.isEmpty {
                        checkEmbedded(embedded, on: type, directive)
                        policies.embeddedFields[type, default: []] += embedded
                    }
                case "fieldPolicy":
                    guard let field = string(directive, "forField") ?? string(directive, "forFields") else {
                        errors.append(CodegenError("@fieldPolicy needs forField: \"fieldName\"", at: .of(directive)))
                        continue
                    }
                    let keyArgs = names(string(directive, "keyArgs") ?? "")
                    for name in names(field) {
                        checkKeyArgs(keyArgs, field: name, on: type, directive)
                        policies.keyArgs[type, default: [:]][name] = keyArgs
                    }
                case "cacheControl":
                    if let age = maxAge(directive) {
                        policies.typeMaxAge[type] = age
                    } else if inheritsMaxAge(directive) {
                        policies.inheritMaxAgeTypes.insert(type)
                    }
                case "cacheControlField":
                    guard let field = string(directive, "name") else {
                        errors.append(CodegenError("@cacheControlField needs name: \"fieldName\"", at: .of(directive)))
                        continue
                    }
                    readFieldMaxAge(directive, field: field, on: type)
                default:
                    break
                }
            }
            for field in fields {
                for directive in field.directives where links.canonical(directive.name.value) == "cacheControl" {
                    readFieldMaxAge(directive, field: field.name.value, on: type)
                }
            }
        }
        for definition in definitions {
            switch definition {
            case let object as ObjectTypeDefinition: readType(object.name.value, object.directives, fields: object.fields)
            case let interface as InterfaceTypeDefinition: readType(interface.name.value, interface.directives, fields: interface.fields)
            case let union as UnionTypeDefinition: readType(union.name.value, union.directives, fields: [])
            case let ext as TypeExtensionDefinition: readType(ext.definition.name.value, ext.definition.directives, fields: ext.definition.fields)
            case let ext as InterfaceExtensionDefinition:
                readType(ext.definition.name.value, ext.definition.directives, fields: ext.definition.fields)
            case let ext as UnionExtensionDefinition: readType(ext.definition.name.value, ext.definition.directives, fields: [])
            default: break
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }
        return policies
    }
}
