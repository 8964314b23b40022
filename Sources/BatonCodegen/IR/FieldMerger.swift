import GraphQL

/// Works out each struct's accessors: the fields it selects, those of fragments and type
/// conditions that always apply to it, those of its parent (for `AsX`), and those selected for
/// the same field elsewhere (GraphQL's field merging). Decides which struct each composite
/// accessor returns, and adds structs that only merge others where needed.
final class FieldMerger {
    let builder: ScopeBuilder
    var index: SchemaIndex { builder.index }

    init(builder: ScopeBuilder) {
        self.builder = builder
    }

    /// Fields a scope brings by itself: its own selections, and those of inline fragments and
    /// fragment spreads whose type condition always holds for it.
    func ownFields(_ scope: SelectionScope) -> [MergedField] {
        var result: [MergedField] = []
        for selection in scope.selections {
            switch selection {
            case .field(let field):
                if field.isAdded { continue }
                result.append(
                    MergedField(
                        responseKey: field.responseKey, name: field.name, type: field.type, description: field.description,
                        isConditional: !field.conditionSets.contains([]), scope: field.child,
                        errorSpec: FieldErrorSpec.of(
                            field, parentType: scope.typeName, throwsOnFieldError: scope.throwsOnFieldError, index: index)))
            case .inlineFragment(let child):
                guard child.alias == nil, index.condition(child.typeName, alwaysMatches: scope.typeName) else { continue }
                let conditional = !child.conditions.isEmpty || child.isDeferred
                for var field in ownFields(child) {
                    field.isConditional = field.isConditional || conditional
                    result.append(field)
                }
            case .fragmentSpread(let name, let conditions, let isDeferred, _, let alias):
                // A fragment under `@catch` is read through its own accessor only.
                guard alias == nil, let fragment = builder.fragmentScope(name), fragment.catchTarget == nil,
                    index.condition(fragment.typeName, alwaysMatches: scope.typeName)
                else { continue }
                let conditional = !conditions.isEmpty || isDeferred
                for var field in ownFields(fragment) {
                    field.isConditional = field.isConditional || conditional
                    result.append(field)
                }
            }
        }
        return result
    }

    /// Fields of the parent's other type conditions and fragments that hold for every object of
    /// an `AsX` but not for every object of the parent (`... on Publication` for `AsBook`).
    func siblingFields(of scope: SelectionScope, in parent: SelectionScope) -> [MergedField] {
        var result: [MergedField] = []
        func narrows(_ typeName: String) -> Bool {
            index.condition(typeName, alwaysMatches: scope.typeName) && !index.condition(typeName, alwaysMatches: parent.typeName)
        }
        for selection in parent.selections {
            switch selection {
            case .inlineFragment(let sibling):
                guard sibling !== scope, sibling.alias == nil, narrows(sibling.typeName) else { continue }
                let conditional = !sibling.conditions.isEmpty || sibling.isDeferred
                for var field in ownFields(sibling) {
                    field.isConditional = field.isConditional || conditional
                    result.append(field)
                }
            case .fragmentSpread(let name, let conditions, let isDeferred, _, let alias):
                guard alias == nil, let fragment = builder.fragmentScope(name), fragment.catchTarget == nil, narrows(fragment.typeName) else { continue }
                let conditional = !conditions.isEmpty || isDeferred
                for var field in ownFields(fragment) {
                    field.isConditional = field.isConditional || conditional
                    result.append(field)
                }
            case .field:
                break
            }
        }
        return result
    }

    /// Computes `mergedFields` of a scope (its parents first).
    func resolve(_ scope: SelectionScope) {
        if scope.mergedFields != nil || scope.isResolving { return }
        scope.isResolving = true
        defer { scope.isResolving = false }
        var entries: [MergedField] = []
        if scope.kind == .inlineFragment, let parent = scope.enclosing {
            resolve(parent)
            entries += parent.mergedFields ?? []
            entries += siblingFields(of: scope, in: parent)
        }
        entries += ownFields(scope)
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(scope)]
        var queue = scope.extraSources[...]
        while let source = queue.popFirst() {
            guard visited.insert(ObjectIdentifier(source)).inserted else { continue }
            entries += ownFields(source)
            queue.append(contentsOf: source.extraSources)
        }

        var order: [String] = []
        var groups: [String: [MergedField]] = [:]
        for entry in entries {
            if groups[entry.responseKey] == nil { order.append(entry.responseKey) }
            groups[entry.responseKey, default: []].append(entry)
        }
        var directChildren: [String: SelectionScope] = [:]
        for case .field(let field) in scope.selections {
            if let child = field.child { directChildren[field.responseKey] = child }
        }
        var usedNames = Set(scope.children.map(\.swiftName))
        var merged: [MergedField] = []
        for key in order {
            guard let occurrences = groups[key], let first = occurrences.first else { continue }
            let info = index.field(first.name, on: scope.typeName)
            // Every occurrence must read the field alike for its accessor to leave `Optional` or
            // become a `Result` (the data underneath is one object); otherwise it is as the schema says.
            let errorSpec = occurrences.allSatisfy { $0.errorSpec == first.errorSpec } ? first.errorSpec : nil
            var field = MergedField(
                responseKey: key, name: first.name, type: info?.type ?? first.type, description: info?.description ?? first.description,
                isConditional: occurrences.allSatisfy(\.isConditional), scope: nil, errorSpec: errorSpec)
            let namedType = getNamedType(type: field.type)?.name ?? ""
            if index.isComposite(namedType) {
                var others: [SelectionScope] = []
                let direct = directChildren[key]
                for occurrence in occurrences {
                    guard let source = occurrence.scope, source !== direct, !others.contains(where: { $0 === source }) else { continue }
                    others.append(source)
                }
                if let direct {
                    direct.extraSources = others
                    field.scope = direct
                } else if others.count == 1 {
                    field.scope = others[0]
                } else if others.count > 1 {
                    var name = SwiftNaming.typeName(forResponseKey: key)
                    if builder.reservedNames.contains(name) { name += "_SelectionSet" }
                    let stem = name
                    var counter = 2
                    while usedNames.contains(name) {
                        name = stem + String(counter)
                        counter += 1
                    }
                    usedNames.insert(name)
                    let mergedScope = SelectionScope(kind: .merged, typeName: namedType, swiftName: name, enclosing: scope, qualifiedPrefix: "")
                    mergedScope.extraSources = others
                    scope.children.append(mergedScope)
                    field.scope = mergedScope
                }
            }
            merged.append(field)
        }
        scope.mergedFields = merged
    }

    /// Resolves a scope and everything nested in it, parents before children.
    func resolveTree(_ scope: SelectionScope) {
        resolve(scope)
        var index = 0
        while index < scope.children.count {
            resolveTree(scope.children[index])
            index += 1
        }
    }

    /// The named fragments reachable through `fragments.<name>`: spread here, in type
    /// conditions that always apply, or (for `AsX`) in the parent. Optional when they may not apply.
    func fragmentAccessors(_ scope: SelectionScope) -> [(name: String, isOptional: Bool)] {
        var result: [(name: String, isOptional: Bool)] = []
        func add(_ name: String, _ optional: Bool) {
            if let existing = result.firstIndex(where: { $0.name == name }) {
                if !optional { result[existing].isOptional = false }
            } else {
                result.append((name, optional))
            }
        }
        if scope.kind == .inlineFragment, let parent = scope.enclosing {
            for (name, optional) in fragmentAccessors(parent) {
                let alwaysHolds = builder.fragmentScope(name).map { index.condition($0.typeName, alwaysMatches: scope.typeName) } ?? false
                add(name, optional && !alwaysHolds)
            }
        }
        func collect(_ current: SelectionScope, conditional: Bool) {
            for selection in current.selections {
                switch selection {
                case .fragmentSpread(let name, let conditions, let isDeferred, _, let alias):
                    guard alias == nil, let fragment = builder.fragmentScope(name) else { continue }
                    let optional = conditional || !conditions.isEmpty || isDeferred || !index.condition(fragment.typeName, alwaysMatches: scope.typeName)
                    add(name, optional)
                case .inlineFragment(let child):
                    guard child.alias == nil, index.condition(child.typeName, alwaysMatches: scope.typeName) else { continue }
                    collect(child, conditional: conditional || !child.conditions.isEmpty || child.isDeferred)
                case .field:
                    break
                }
            }
        }
        if scope.kind == .inlineFragment, let parent = scope.enclosing {
            for case .inlineFragment(let sibling) in parent.selections
            where sibling !== scope && sibling.alias == nil && index.condition(sibling.typeName, alwaysMatches: scope.typeName)
                && !index.condition(sibling.typeName, alwaysMatches: parent.typeName)
            {
                collect(sibling, conditional: !sibling.conditions.isEmpty || sibling.isDeferred)
            }
        }
        collect(scope, conditional: false)
        return result
    }
}
