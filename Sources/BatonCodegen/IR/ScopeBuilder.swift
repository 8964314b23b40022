import GraphQL

/// Builds the tree of selection-set structs of operations and fragments from the AST, merging
/// selections with the same response key, and names the structs.
final class ScopeBuilder {
    let index: SchemaIndex
    let fragmentDefinitions: [String: FragmentDefinition]
    let fragmentArguments: FragmentArgumentTable
    /// Names nested structs must avoid: top-level generated types and Swift/Baton names.
    let reservedNames: Set<String>
    /// Fragments' Swift type names by GraphQL name, where they differ (`GeneratedNames`).
    let fragmentTypeNames: [String: String]
    private(set) var fragmentScopes: [String: SelectionScope] = [:]
    private var building: Set<String> = []
    var errors: [CodegenError] = []

    init(
        index: SchemaIndex, fragments: [String: FragmentDefinition], arguments: FragmentArgumentTable, reservedNames: Set<String>,
        fragmentTypeNames: [String: String] = [:]
    ) {
        self.index = index
        self.fragmentTypeNames = fragmentTypeNames
        self.fragmentDefinitions = fragments
        self.fragmentArguments = arguments
        self.reservedNames = reservedNames.union(SwiftNaming.reservedTypeNames)
    }

    /// The scope of a named fragment, built on first use.
    func fragmentScope(_ name: String) -> SelectionScope? {
        if let scope = fragmentScopes[name] { return scope }
        guard let definition = fragmentDefinitions[name], !building.contains(name) else { return nil }
        building.insert(name)
        defer { building.remove(name) }
        let scope = SelectionScope(
            kind: .fragment, typeName: definition.typeCondition.name.value, swiftName: fragmentTypeNames[name] ?? name, enclosing: nil, qualifiedPrefix: "")
        scope.isLocalCacheMutation = definition.directives.contains { $0.name.value == ClientDirectives.localCacheMutation }
        scope.isThrowOnFieldError = definition.directives.contains { $0.name.value == "throwOnFieldError" }
        scope.catchTarget = Self.catchTarget(definition.directives)
        fill(scope, with: [definition.selectionSet], addTypename: true)
        fragmentScopes[name] = scope
        return scope
    }

    /// The `Data` scope of an operation whose Swift type is `typeName`.
    func operationScope(_ operation: OperationDefinition, rootType: String, typeName: String) -> SelectionScope {
        let scope = SelectionScope(kind: .root, typeName: rootType, swiftName: "Data", enclosing: nil, qualifiedPrefix: typeName)
        scope.isLocalCacheMutation = operation.directives.contains { $0.name.value == ClientDirectives.localCacheMutation }
        scope.isThrowOnFieldError = operation.directives.contains { $0.name.value == "throwOnFieldError" }
        scope.catchTarget = Self.catchTarget(operation.directives)
        fill(scope, with: [operation.selectionSet], addTypename: false)
        return scope
    }

    /// Conditions from `@include`/`@skip`; `nil` when a literal `false` excludes the selection.
    func conditions(_ directives: [Directive]) -> [Condition]? {
        var result: [Condition] = []
        for directive in directives where directive.name.value == "include" || directive.name.value == "skip" {
            let inverted = directive.name.value == "skip"
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            if let variable = argument.value as? Variable {
                result.append(Condition(variable: variable.name.value, isInverted: inverted))
            } else if let literal = argument.value as? BooleanValue {
                if literal.value == inverted { return nil }
            }
        }
        return result
    }

    /// Relay's `@alias(as:)` of a spread or inline fragment: the name given, else `defaultName`;
    /// nil without `@alias`.
    static func alias(_ directives: [Directive], default defaultName: String) -> String? {
        guard let directive = directives.first(where: { $0.name.value == "alias" }) else { return nil }
        if let name = (directive.arguments.first { $0.name.value == "as" }?.value as? StringValue)?.value { return name }
        return defaultName
    }

    /// `@catch(to:)`'s target (`RESULT` when `to` is not given); nil without `@catch`.
    static func catchTarget(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == "catch" }) else { return nil }
        return (directive.arguments.first { $0.name.value == "to" }?.value as? EnumValue)?.value ?? "RESULT"
    }

    func isDeferred(_ directives: [Directive]) -> Bool {
        directives.contains { directive in
            guard directive.name.value == "defer" else { return false }
            if let argument = directive.arguments.first(where: { $0.name.value == "if" }), let literal = argument.value as? BooleanValue {
                return literal.value
            }
            return true
        }
    }

    private enum Entry {
        case field(String)
        case inline(String)
        case spread(String)
    }

    private struct InlineGroup {
        let typeCondition: String?
        let conditions: [Condition]
        let isDeferred: Bool
        let alias: String?
        let isAdded: Bool
        let catchTarget: String?
        var selectionSets: [GraphQL.SelectionSet]
    }

    /// Fills a scope with the selections of one or more selection sets (merged field occurrences).
    func fill(_ scope: SelectionScope, with selectionSets: [GraphQL.SelectionSet], addTypename: Bool) {
        var entries: [Entry] = []
        var fields: [String: ScopedField] = [:]
        var inlines: [String: InlineGroup] = [:]
        var spreads: [String: (name: String, conditions: [Condition], isDeferred: Bool, arguments: [(name: String, value: (any Value)?)], alias: String?)] = [:]
        var typenameSeen = false

        func collect(_ selectionSet: GraphQL.SelectionSet) {
            for selection in selectionSet.selections {
                switch selection {
                case let node as GraphQL.Field:
                    guard let conditions = conditions(node.directives) else { continue }
                    let key = node.alias?.value ?? node.name.value
                    if let existing = fields[key] {
                        if existing.name != node.name.value {
                            errors.append(
                                CodegenError(
                                    "\"\(key)\" selects both \"\(existing.name)\" and \"\(node.name.value)\"; use different aliases",
                                    at: .of(node)))
                            continue
                        }
                        if DocumentPrinter.unorderedArguments(existing.arguments) != DocumentPrinter.unorderedArguments(node.arguments) {
                            errors.append(
                                CodegenError(
                                    "\"\(key)\" is selected with different arguments; use different aliases", at: .of(node)))
                            continue
                        }
                        if existing.conditionSets.contains([]) || conditions.isEmpty {
                            existing.conditionSets = [[]]
                        } else if !existing.conditionSets.contains(conditions) {
                            existing.conditionSets.append(conditions)
                        }
                        existing.directives += node.directives.filter { d in !existing.directives.contains { $0.name.value == d.name.value } }
                        if let set = node.selectionSet { existing.subselections.append(set) }
                        if !RelayAdditions.isAdded(node) { existing.isAdded = false }
                        continue
                    }
                    guard let info = index.field(node.name.value, on: scope.typeName) else {
                        errors.append(CodegenError("no field \"\(node.name.value)\" on type \"\(scope.typeName)\"", at: .of(node)))
                        continue
                    }
                    let field = ScopedField(
                        name: node.name.value, alias: node.alias?.value, type: info.type, description: info.description,
                        arguments: node.arguments, conditions: conditions, directives: node.directives, node: node)
                    if let set = node.selectionSet { field.subselections.append(set) }
                    field.isAdded = RelayAdditions.isAdded(node)
                    if key == "__typename", node.alias == nil { typenameSeen = true }
                    fields[key] = field
                    entries.append(.field(key))
                case let node as GraphQL.InlineFragment:
                    guard let conditions = conditions(node.directives) else { continue }
                    let deferred = isDeferred(node.directives)
                    let typeCondition = node.typeCondition?.name.value
                    let alias = Self.alias(node.directives, default: typeCondition.map(SwiftNaming.lowerFirst) ?? "")
                    let added = RelayAdditions.isAdded(node)
                    let catchTarget = Self.catchTarget(node.directives)
                    if catchTarget != nil, alias == nil {
                        // Relay's rule: an inline fragment's fields are read with its parent's
                        // unless it has an accessor of its own, which `@catch` needs.
                        errors.append(CodegenError("@catch on an inline fragment needs @alias(as:): its result is read through its own accessor", at: .of(node)))
                        continue
                    }
                    let key = "\(typeCondition ?? "")|\(conditions.map { "\($0.isInverted ? "!" : "")\($0.variable)" })|\(deferred)|\(alias ?? "")|\(added)|\(catchTarget ?? "")"
                    if inlines[key] != nil {
                        inlines[key]?.selectionSets.append(node.selectionSet)
                    } else {
                        inlines[key] = InlineGroup(
                            typeCondition: typeCondition, conditions: conditions, isDeferred: deferred, alias: alias, isAdded: added,
                            catchTarget: catchTarget, selectionSets: [node.selectionSet])
                        entries.append(.inline(key))
                    }
                case let node as FragmentSpread:
                    guard let conditions = conditions(node.directives) else { continue }
                    let deferred = isDeferred(node.directives)
                    let arguments = fragmentArguments.values(for: node.name.value, at: node)
                    let printedArguments = arguments.map { "\($0.name):\($0.value.map { DocumentPrinter.value($0) } ?? "null")" }
                    let alias = Self.alias(node.directives, default: SwiftNaming.lowerCamel(node.name.value))
                    let key = "\(node.name.value)|\(conditions.map { "\($0.isInverted ? "!" : "")\($0.variable)" })|\(deferred)|\(printedArguments)|\(alias ?? "")"
                    if spreads[key] == nil {
                        spreads[key] = (node.name.value, conditions, deferred, arguments, alias)
                        entries.append(.spread(key))
                    }
                default:
                    break
                }
            }
        }
        for selectionSet in selectionSets { collect(selectionSet) }

        var usedNames: Set<String> = []
        func uniqueName(_ base: String) -> String {
            var name = base
            if reservedNames.contains(name) || name == scope.swiftName && scope.kind == .fragment { name += "_SelectionSet" }
            var counter = 2
            let stem = name
            while usedNames.contains(name) {
                name = stem + String(counter)
                counter += 1
            }
            usedNames.insert(name)
            return name
        }

        if addTypename {
            if typenameSeen, let index = entries.firstIndex(where: { if case .field("__typename") = $0 { return true } else { return false } }) {
                entries.remove(at: index)
            } else {
                fields["__typename"] = ScopedField(
                    name: "__typename", alias: nil, type: GraphQLNonNull(GraphQLString), description: nil, arguments: [],
                    conditions: [], directives: [], node: nil)
            }
            entries.insert(.field("__typename"), at: 0)
        }

        for entry in entries {
            switch entry {
            case .field(let key):
                guard let field = fields[key] else { continue }
                let namedType = getNamedType(type: field.type)?.name ?? ""
                if index.isComposite(namedType) {
                    let child = SelectionScope(
                        kind: .field, typeName: namedType, swiftName: uniqueName(SwiftNaming.typeName(forResponseKey: key)),
                        enclosing: scope, qualifiedPrefix: "")
                    field.child = child
                    scope.children.append(child)
                    fill(child, with: field.subselections, addTypename: true)
                }
                scope.selections.append(.field(field))
            case .inline(let key):
                guard let group = inlines[key] else { continue }
                let typeName = group.typeCondition ?? scope.typeName
                var name = group.typeCondition.map { "As" + SwiftNaming.capitalized($0) } ?? ""
                for condition in group.conditions {
                    name += (condition.isInverted ? "IfNot" : "If") + SwiftNaming.capitalized(condition.variable)
                }
                if group.isDeferred { name += "Deferred" }
                if let alias = group.alias, !alias.isEmpty { name = SwiftNaming.capitalized(alias) }
                if name.isEmpty { name = "As" + SwiftNaming.capitalized(typeName) }
                let child = SelectionScope(
                    kind: .inlineFragment, typeName: typeName, swiftName: uniqueName(name), enclosing: scope, qualifiedPrefix: "")
                child.typeConditionWritten = group.typeCondition != nil
                child.conditions = group.conditions
                child.isDeferred = group.isDeferred
                child.alias = group.alias
                child.isAdded = group.isAdded
                child.catchTarget = group.catchTarget
                scope.children.append(child)
                fill(child, with: group.selectionSets, addTypename: false)
                scope.selections.append(.inlineFragment(child))
            case .spread(let key):
                guard let spread = spreads[key] else { continue }
                _ = fragmentScope(spread.name)
                scope.selections.append(
                    .fragmentSpread(
                        name: spread.name, conditions: spread.conditions, isDeferred: spread.isDeferred, arguments: spread.arguments,
                        alias: spread.alias))
            }
        }
    }
}
