import GraphQL

/// What Relay's compiler adds to documents for its runtime when the user did not select it: `id`
/// in a `@refetchable` fragment refetched through `node(id:)`, and `pageInfo { endCursor
/// hasNextPage … }` under a `@connection` field. The additions are sent and stored; the typed
/// data shows only what the user selected (`isAdded` nodes get no accessors).
struct RelayAdditions {
    /// The source name of the nodes the generator adds.
    static let sourceName = "<added by baton for Relay>"

    let index: SchemaIndex

    /// Whether a node was added by the generator rather than written by the user.
    static func isAdded(_ node: any Node) -> Bool {
        node.loc?.source.name == sourceName
    }

    /// The documents with the additions; `nodeRefetchable` names the fragments refetched through
    /// `node(id:)`.
    func apply(to documents: ValidatedDocuments, nodeRefetchable: Set<String>) -> ValidatedDocuments {
        var fragments: [String: FragmentDefinition] = [:]
        for (name, fragment) in documents.fragments {
            let typeName = fragment.typeCondition.name.value
            var set = rewrite(fragment.selectionSet, typeName: typeName)
            if nodeRefetchable.contains(name), !selectsID(set), let added = idSelection(on: typeName) {
                set = set.set(value: .array([added] + set.selections), key: "selections")
            }
            fragments[name] = set === fragment.selectionSet ? fragment : fragment.set(value: .node(set), key: "selectionSet")
        }
        let operations = documents.operations.map { operation -> OperationDefinition in
            guard let root = index.rootTypeNames[GraphQLOperationType(operation.operation)] else { return operation }
            let set = rewrite(operation.selectionSet, typeName: root)
            return set === operation.selectionSet ? operation : operation.set(value: .node(set), key: "selectionSet")
        }
        return ValidatedDocuments(operations: operations, fragments: fragments, sourcePaths: documents.sourcePaths)
    }

    /// `id`, or `... on Node { id }` when the type has no `id` field of its own (an interface
    /// whose implementations all implement `Node`).
    func idSelection(on typeName: String) -> (any Selection)? {
        if index.field("id", on: typeName) != nil { return Self.parseSelection("id") }
        if index.schema.getType(name: "Node") != nil { return Self.parseSelection("... on Node { id }") }
        return nil
    }

    func selectsID(_ set: GraphQL.SelectionSet) -> Bool {
        set.selections.contains { ($0 as? GraphQL.Field).map { $0.name.value == "id" && $0.alias == nil } ?? false }
    }

    /// The selection set with the pageInfo fields every `@connection` under it lacks.
    func rewrite(_ set: GraphQL.SelectionSet, typeName: String) -> GraphQL.SelectionSet {
        var changed = false
        var selections: [any Selection] = []
        for selection in set.selections {
            switch selection {
            case let field as GraphQL.Field:
                guard let nested = field.selectionSet, let info = index.field(field.name.value, on: typeName),
                    let fieldType = getNamedType(type: info.type)?.name
                else {
                    selections.append(field)
                    continue
                }
                var rewritten = rewrite(nested, typeName: fieldType)
                if field.directives.contains(where: { $0.name.value == "connection" }) {
                    rewritten = addPageInfo(to: rewritten, connectionType: fieldType, arguments: Set(field.arguments.map(\.name.value)))
                }
                if rewritten === nested {
                    selections.append(field)
                } else {
                    selections.append(field.set(value: .node(rewritten), key: "selectionSet"))
                    changed = true
                }
            case let inline as GraphQL.InlineFragment:
                let rewritten = rewrite(inline.selectionSet, typeName: inline.typeCondition?.name.value ?? typeName)
                if rewritten === inline.selectionSet {
                    selections.append(inline)
                } else {
                    selections.append(inline.set(value: .node(rewritten), key: "selectionSet"))
                    changed = true
                }
            default:
                selections.append(selection)
            }
        }
        return changed ? set.set(value: .array(selections), key: "selections") : set
    }

    /// A connection's selections with `pageInfo { … }` for its direction: `endCursor
    /// hasNextPage` for `first`/`after`, `startCursor hasPreviousPage` for `last`/`before`, all
    /// four when it has neither; only what the user did not select.
    func addPageInfo(to set: GraphQL.SelectionSet, connectionType: String, arguments: Set<String>) -> GraphQL.SelectionSet {
        guard let pageInfo = index.field("pageInfo", on: connectionType), let pageInfoType = getNamedType(type: pageInfo.type)?.name else {
            return set
        }
        let forward = arguments.contains("first") || arguments.contains("after")
        let backward = arguments.contains("last") || arguments.contains("before")
        var wanted: [String] = []
        if forward || !backward { wanted += ["endCursor", "hasNextPage"] }
        if backward || !forward { wanted += ["startCursor", "hasPreviousPage"] }
        var selected: Set<String> = []
        for case let field as GraphQL.Field in set.selections where field.name.value == "pageInfo" && field.alias == nil {
            for case let sub as GraphQL.Field in field.selectionSet?.selections ?? [] where sub.alias == nil {
                selected.insert(sub.name.value)
            }
        }
        let missing = wanted.filter { !selected.contains($0) && index.field($0, on: pageInfoType) != nil }
        guard !missing.isEmpty, let added = Self.parseSelection("pageInfo { \(missing.joined(separator: " ")) }") else { return set }
        return set.set(value: .array(set.selections + [added]), key: "selections")
    }

    /// One selection parsed from text, its nodes located in `sourceName`.
    static func parseSelection(_ text: String) -> (any Selection)? {
        guard let document = try? parse(source: Source(body: "{ \(text) }", name: sourceName)),
            let operation = document.definitions.first as? OperationDefinition
        else { return nil }
        return operation.selectionSet.selections.first
    }
}
