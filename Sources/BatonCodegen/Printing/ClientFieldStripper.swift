import GraphQL

/// The documents as a server sees them: client-only fields (a client schema extension's, or
/// marked `@client`) left out with everything under them, and inline fragments and fragment
/// spreads on client-only types with them. What is left is what `DocumentPrinter` prints, sends
/// and hashes; a selection set that stripping empties is printed as `{ __typename }`, as Relay
/// prints it. Variables that only client fields used go with them.
struct ClientFieldStripper {
    let index: SchemaIndex
    /// Every fragment, stripped, by name.
    let fragments: [String: FragmentDefinition]
    /// The fragments stripping changed (the others are the definitions as written).
    let changedFragments: Set<String>

    /// Every fragment as written, by name.
    private let originals: [String: FragmentDefinition]

    init(index: SchemaIndex, fragments: [String: FragmentDefinition]) {
        self.index = index
        originals = fragments
        var stripped: [String: FragmentDefinition] = [:]
        var changed: Set<String> = []
        for (name, fragment) in fragments {
            let selections = Self.strip(fragment.selectionSet, parentType: fragment.typeCondition.name.value, index: index, fragments: fragments)
            if let selections {
                stripped[name] = fragment.set(value: .node(selections), key: "selectionSet")
                changed.insert(name)
            } else {
                stripped[name] = fragment
            }
        }
        self.fragments = stripped
        changedFragments = changed
    }

    /// The operation as sent: its client-only fields left out.
    func operation(_ operation: OperationDefinition, rootType: String) -> OperationDefinition {
        guard let selections = Self.strip(operation.selectionSet, parentType: rootType, index: index, fragments: fragments) else {
            return operation
        }
        return operation.set(value: .node(selections), key: "selectionSet")
    }

    /// Whether the operation selects nothing a server answers: its root selects client fields
    /// and, but for `__typename`, nothing else (it is answered from the store, never sent).
    func isClientOnly(_ operation: OperationDefinition, rootType: String) -> Bool {
        guard let stripped = Self.strip(operation.selectionSet, parentType: rootType, index: index, fragments: fragments) else {
            // Nothing at its root is client-only... unless a spread fragment's fields all are.
            return !Self.selectsField(operation.selectionSet, in: fragments) && Self.selectsField(operation.selectionSet, in: originals)
        }
        return !Self.selectsField(stripped, in: fragments)
    }

    /// Whether a selection set (through inline fragments and spreads of `fragments`) selects a
    /// field other than `__typename` and `__id`.
    private static func selectsField(_ set: GraphQL.SelectionSet, in fragments: [String: FragmentDefinition]) -> Bool {
        var visited: Set<String> = []
        func walk(_ set: GraphQL.SelectionSet) -> Bool {
            for selection in set.selections {
                switch selection {
                case let field as GraphQL.Field:
                    if field.name.value != "__typename" && field.name.value != "__id" { return true }
                case let inline as GraphQL.InlineFragment:
                    if walk(inline.selectionSet) { return true }
                case let spread as FragmentSpread:
                    guard visited.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value] else { continue }
                    if walk(fragment.selectionSet) { return true }
                default:
                    continue
                }
            }
            return false
        }
        return walk(set)
    }

    /// `set` without its client-only parts, on `parentType`; `nil` when nothing in it is
    /// client-only (the set is sent as written).
    static func strip(
        _ set: GraphQL.SelectionSet, parentType: String, index: SchemaIndex, fragments: [String: FragmentDefinition]
    ) -> GraphQL.SelectionSet? {
        var kept: [any GraphQL.Selection] = []
        var changed = false
        for selection in set.selections {
            switch selection {
            case let field as GraphQL.Field:
                let name = field.name.value
                if index.isClientField(name, on: parentType, directives: field.directives) {
                    changed = true
                    continue
                }
                if let nested = field.selectionSet, let info = index.field(name, on: parentType),
                    let stripped = strip(nested, parentType: getNamedType(type: info.type)?.name ?? parentType, index: index, fragments: fragments)
                {
                    kept.append(field.set(value: .node(stripped), key: "selectionSet"))
                    changed = true
                } else {
                    kept.append(field)
                }
            case let inline as GraphQL.InlineFragment:
                let type = inline.typeCondition?.name.value ?? parentType
                if index.loaded.clientExtension.isClientType(type) {
                    changed = true
                    continue
                }
                if let stripped = strip(inline.selectionSet, parentType: type, index: index, fragments: fragments) {
                    kept.append(inline.set(value: .node(stripped), key: "selectionSet"))
                    changed = true
                } else {
                    kept.append(inline)
                }
            case let spread as FragmentSpread:
                if let fragment = fragments[spread.name.value],
                    index.loaded.clientExtension.isClientType(fragment.typeCondition.name.value)
                {
                    changed = true
                    continue
                }
                kept.append(spread)
            default:
                kept.append(selection)
            }
        }
        guard changed else { return nil }
        return set.set(value: .array(kept.map { $0 as any Node }), key: "selections")
    }
}
