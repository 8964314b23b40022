import GraphQL

/// What Relay's `@refetchable(queryName:)` gives a fragment: a query that fetches the fragment's
/// object again, and, when the fragment holds a `@connection`, what pagination needs.
struct RefetchableFragment {
    /// How the refetch query reaches the fragment's object.
    enum Root: String { case query, viewer, node }

    struct Pagination {
        /// The variables of `first`/`after` (forward) or `last`/`before` (backward).
        let countVariable: String
        let cursorVariable: String
    }

    let fragmentName: String
    let queryName: String
    let root: Root
    /// Response keys from the fragment's object to the connection field.
    var connectionPath: [String]?
    var forward: Pagination?
    var backward: Pagination?
    /// Literal defaults of the fragment's own variables.
    var argumentDefaults: [(name: String, value: any Value)] = []
}

/// Writes the refetch query of every `@refetchable` fragment as a GraphQL document, so it is
/// validated and generated like any other operation.
struct RefetchQuerySynthesizer {
    let index: SchemaIndex
    let fragments: [String: FragmentDefinition]
    let arguments: FragmentArgumentTable
    let sourcePaths: [String: String]

    private(set) var errors: [CodegenError] = []
    private(set) var refetchables: [String: RefetchableFragment] = [:]
    /// The file of the fragment each refetch query was written for, by the query's source path.
    private(set) var fragmentPaths: [String: String] = [:]

    mutating func synthesize() -> [DocumentSource] {
        var sources: [DocumentSource] = []
        guard let queryType = index.rootTypeNames[.query] else { return [] }
        for name in fragments.keys.sorted() {
            guard let fragment = fragments[name],
                let directive = fragment.directives.first(where: { $0.name.value == "refetchable" })
            else { continue }
            guard let queryName = (directive.arguments.first { $0.name.value == "queryName" }?.value as? StringValue)?.value,
                !queryName.isEmpty
            else {
                errors.append(CodegenError("@refetchable needs a queryName", at: .of(directive)))
                continue
            }
            let typeName = fragment.typeCondition.name.value
            let root: RefetchableFragment.Root
            if typeName == queryType {
                root = .query
            } else if let viewer = index.field("viewer", on: queryType), getNamedType(type: viewer.type)?.name == typeName {
                root = .viewer
            } else if isNode(typeName), let node = index.field("node", on: queryType), node.arguments["id"] != nil {
                root = .node
            } else {
                errors.append(
                    CodegenError(
                        "@refetchable fragment \"\(name)\" must be on \(queryType), on the type of \(queryType).viewer, or on a type with an id that \(queryType).node(id:) returns",
                        at: .of(directive)))
                continue
            }

            // The query's variables: the fragment's own, then the operation variables it uses.
            var variables: [String] = []
            var declared: Set<String> = []
            var refetchable = RefetchableFragment(fragmentName: name, queryName: queryName, root: root)
            // Provided variables are not the refetch query's: their providers give them.
            let ownArguments = (arguments.definitions[name] ?? []).filter { $0.provider == nil }
            for definition in ownArguments {
                var text = "$\(definition.name): \(definition.typeText)"
                if let value = definition.defaultValue {
                    text += " = " + DocumentPrinter.value(value)
                    refetchable.argumentDefaults.append((definition.name, value))
                }
                variables.append(text)
                declared.insert(definition.name)
            }
            var inferred: [String: String] = [:]
            var order: [String] = []
            var visited: Set<String> = []
            globalVariables(of: name, into: &inferred, order: &order, visited: &visited)
            for variable in order where !declared.contains(variable) {
                guard let type = inferred[variable], !type.isEmpty else {
                    errors.append(CodegenError("cannot tell the type of $\(variable) for the refetch query of \"\(name)\"", at: .of(directive)))
                    continue
                }
                variables.append("$\(variable): \(type)")
                declared.insert(variable)
            }
            if root == .node {
                if declared.contains("id") {
                    errors.append(CodegenError("the refetch query of \"\(name)\" needs $id for node(id:); rename the fragment's $id", at: .of(directive)))
                    continue
                }
                variables.append("$id: ID!")
            }
            let passed = ownArguments.map { "\($0.name): $\($0.name)" }
            var spread = "...\(name)"
            if !passed.isEmpty { spread += " @arguments(\(passed.joined(separator: ", ")))" }
            let body: String
            switch root {
            case .query: body = spread
            case .viewer: body = "viewer { \(spread) }"
            case .node: body = "node(id: $id) { \(spread) }"
            }
            let header = variables.isEmpty ? "" : "(" + variables.joined(separator: ", ") + ")"
            let fragmentPath = sourcePaths["fragment " + name] ?? "<documents>"
            let path = fragmentPath + " (the refetch query of \(name))"
            fragmentPaths[path] = fragmentPath
            sources.append(DocumentSource(path: path, text: "query \(queryName)\(header) { \(body) }\n"))

            if let connection = findConnection(fragment.selectionSet, typeName: typeName, path: []) {
                refetchable.connectionPath = connection.path
                let args = Dictionary(connection.field.arguments.map { ($0.name.value, $0.value) }, uniquingKeysWith: { a, _ in a })
                if let count = args["first"] as? Variable, let cursor = args["after"] as? Variable {
                    refetchable.forward = .init(countVariable: count.name.value, cursorVariable: cursor.name.value)
                }
                if let count = args["last"] as? Variable, let cursor = args["before"] as? Variable {
                    refetchable.backward = .init(countVariable: count.name.value, cursorVariable: cursor.name.value)
                }
                // The pageInfo fields pagination reads are added when not selected (RelayAdditions).
                // A connection without count/cursor variables can be refetched, not paginated.
            }
            refetchables[name] = refetchable
        }
        return sources
    }

    private func isNode(_ typeName: String) -> Bool {
        if typeName == "Node" { return true }
        if let object = index.schema.getType(name: typeName) as? GraphQLObjectType, let interfaces = try? object.interfaces() {
            return interfaces.contains { $0.name == "Node" }
        }
        if let interface = index.schema.getType(name: typeName) as? GraphQLInterfaceType, let interfaces = try? interface.interfaces() {
            if interfaces.contains(where: { $0.name == "Node" }) { return true }
            // An interface whose implementations all implement Node: refetched through node(id:).
            let possible = index.possibleTypes(of: typeName)
            return !possible.isEmpty && possible.allSatisfy(isNode)
        }
        return false
    }

    /// The first `@connection` field under a selection set, with its path of response keys.
    private func findConnection(_ set: GraphQL.SelectionSet, typeName: String, path: [String]) -> (field: GraphQL.Field, path: [String])? {
        for case let field as GraphQL.Field in set.selections {
            let key = field.alias?.value ?? field.name.value
            if field.directives.contains(where: { $0.name.value == "connection" }) { return (field, path + [key]) }
            if let nested = field.selectionSet, let info = index.field(field.name.value, on: typeName),
                let type = getNamedType(type: info.type)?.name,
                let found = findConnection(nested, typeName: type, path: path + [key])
            {
                return found
            }
        }
        return nil
    }

    /// The variables a fragment (and those it spreads) uses that are not its own, with the types
    /// of the places they are used in.
    private func globalVariables(of name: String, into types: inout [String: String], order: inout [String], visited: inout Set<String>) {
        guard visited.insert(name).inserted, let fragment = fragments[name] else { return }
        let locals = Set((arguments.definitions[name] ?? []).map(\.name))
        func note(_ variable: String, _ type: String) {
            if locals.contains(variable) { return }
            if types[variable] == nil { order.append(variable) }
            if types[variable]?.isEmpty ?? true { types[variable] = type }
        }
        func visit(_ value: any Value, type: (any GraphQLInputType)?) {
            switch value {
            case let variable as Variable:
                note(variable.name.value, type.map(Self.typeText) ?? "")
            case let list as ListValue:
                let element = ((type as? GraphQLNonNull)?.ofType as? GraphQLList ?? type as? GraphQLList)?.ofType as? any GraphQLInputType
                for item in list.values { visit(item, type: element) }
            case let object as ObjectValue:
                for field in object.fields { visit(field.value, type: nil) }
            default:
                break
            }
        }
        func directives(_ list: [Directive]) {
            for directive in list where directive.name.value == "include" || directive.name.value == "skip" {
                directive.arguments.forEach { visit($0.value, type: GraphQLNonNull(GraphQLBoolean)) }
            }
        }
        var spreads: [String] = []
        func walk(_ set: GraphQL.SelectionSet, typeName: String) {
            for selection in set.selections {
                switch selection {
                case let field as GraphQL.Field:
                    let info = index.field(field.name.value, on: typeName)
                    for argument in field.arguments { visit(argument.value, type: info?.arguments[argument.name.value]) }
                    directives(field.directives)
                    if let nested = field.selectionSet, let type = info.flatMap({ getNamedType(type: $0.type)?.name }) {
                        walk(nested, typeName: type)
                    }
                case let inline as GraphQL.InlineFragment:
                    directives(inline.directives)
                    walk(inline.selectionSet, typeName: inline.typeCondition?.name.value ?? typeName)
                case let spread as FragmentSpread:
                    directives(spread.directives)
                    for directive in spread.directives where directive.name.value == "arguments" {
                        for argument in directive.arguments {
                            let definition = arguments.definitions[spread.name.value]?.first { $0.name == argument.name.value }
                            if let variable = argument.value as? Variable { note(variable.name.value, definition?.typeText ?? "") }
                        }
                    }
                    spreads.append(spread.name.value)
                default:
                    break
                }
            }
        }
        walk(fragment.selectionSet, typeName: fragment.typeCondition.name.value)
        for spread in spreads { globalVariables(of: spread, into: &types, order: &order, visited: &visited) }
    }

    static func typeText(_ type: any GraphQLType) -> String {
        switch type {
        case let nonNull as GraphQLNonNull: return typeText(nonNull.ofType) + "!"
        case let list as GraphQLList: return "[" + typeText(list.ofType) + "]"
        case let named as any GraphQLNamedType: return named.name
        default: return ""
        }
    }
}
