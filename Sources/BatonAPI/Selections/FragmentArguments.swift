/// Relay's fragment arguments (`@argumentDefinitions` on a fragment, `@arguments` on a spread):
/// at a spread, the fragment's local variables are replaced by the values the spread passes (or
/// the defaults), so the interpreters over the selections see only the enclosing scope's variables.
extension Array where Element == Selection {
    /// These selections with the variables named in `arguments` replaced by their values.
    /// A variable mapped to another variable is renamed; one mapped to a literal becomes that
    /// literal; an `@include`/`@skip` whose variable becomes a literal keeps or drops its
    /// selection as the literal says.
    public func _applyingFragmentArguments(_ arguments: [String: InputValue]) -> [Selection] {
        if arguments.isEmpty { return self }
        return compactMap { $0.applyingFragmentArguments(arguments) }
    }
}

extension Selection {
    func applyingFragmentArguments(_ arguments: [String: InputValue]) -> Selection? {
        switch self {
        case .field(let field):
            guard let conditions = Self.apply(arguments, to: field.conditions) else { return nil }
            return .field(
                Field(
                    name: field.name, alias: field.alias, type: field.type,
                    arguments: field.arguments.mapValues { $0.substituting(arguments) }, conditions: conditions,
                    directives: field.directives.map { $0.substituting(arguments) }, errorHandling: field.errorHandling,
                    isClientOnly: field.isClientOnly, scalar: field.scalar,
                    selections: field.selections._applyingFragmentArguments(arguments)))
        case .inlineFragment(let fragment):
            guard let conditions = Self.apply(arguments, to: fragment.conditions) else { return nil }
            return .inlineFragment(
                InlineFragmentSelection(
                    typeCondition: fragment.typeCondition, conditions: conditions, isDeferred: fragment.isDeferred,
                    catchTarget: fragment.catchTarget, alias: fragment.alias,
                    selections: fragment.selections._applyingFragmentArguments(arguments)))
        case .fragmentSpread(let spread):
            guard let conditions = Self.apply(arguments, to: spread.conditions) else { return nil }
            return .fragmentSpread(
                FragmentSpreadSelection(
                    name: spread.name, typeCondition: spread.typeCondition, conditions: conditions, isDeferred: spread.isDeferred,
                    catchTarget: spread.catchTarget, selections: spread.selections._applyingFragmentArguments(arguments)))
        }
    }

    /// The conditions after substitution, or `nil` when a literal excludes the selection.
    static func apply(_ arguments: [String: InputValue], to conditions: [InclusionCondition]) -> [InclusionCondition]? {
        var result: [InclusionCondition] = []
        for condition in conditions {
            switch arguments[condition.variable] {
            case nil:
                result.append(condition)
            case .variable(let name):
                result.append(InclusionCondition(variable: name, isInverted: condition.isInverted))
            case .value(.bool(let value)):
                if value == condition.isInverted { return nil }
            case .value, .list, .object:
                return nil  // `@include(if: null)`: not a boolean, so the selection is left out
            }
        }
        return result
    }
}

extension InputValue {
    /// The value with the variables named in `arguments` replaced.
    public func substituting(_ arguments: [String: InputValue]) -> InputValue {
        switch self {
        case .variable(let name): return arguments[name] ?? self
        case .value: return self
        case .list(let elements): return .list(elements.map { $0.substituting(arguments) })
        case .object(let fields): return .object(fields.mapValues { $0.substituting(arguments) })
        }
    }
}

extension ClientDirective {
    func substituting(_ arguments: [String: InputValue]) -> ClientDirective {
        switch self {
        case .connection, .deleteRecord: return self
        case .appendNode(let connections, let edgeTypeName):
            return .appendNode(connections: connections.substituting(arguments), edgeTypeName: edgeTypeName)
        case .prependNode(let connections, let edgeTypeName):
            return .prependNode(connections: connections.substituting(arguments), edgeTypeName: edgeTypeName)
        case .appendEdge(let connections): return .appendEdge(connections: connections.substituting(arguments))
        case .prependEdge(let connections): return .prependEdge(connections: connections.substituting(arguments))
        case .deleteEdge(let connections): return .deleteEdge(connections: connections.substituting(arguments))
        }
    }
}
