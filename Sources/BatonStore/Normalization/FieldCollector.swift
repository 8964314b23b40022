import BatonAPI

/// The spec's CollectFields: the fields that apply to an object of a runtime type, grouped by
/// response key in first-seen order, through inline fragments and fragment spreads whose type
/// condition matches and whose `@include`/`@skip` conditions hold.
struct FieldCollector {
    let variables: JSONObject

    struct Group {
        let responseKey: String
        var fields: [Field]

        var first: Field { fields[0] }

        /// The sub-selections of every field in the group, merged.
        var mergedSelections: [Selection] {
            fields.count == 1 ? fields[0].selections : fields.flatMap(\.selections)
        }
    }

    func collect(_ selections: [Selection], typename: String?, parentType: String) -> [Group] {
        var groups: [Group] = []
        var positions: [String: Int] = [:]
        collect(selections, typename: typename ?? parentType, into: &groups, positions: &positions)
        return groups
    }

    private func holds(_ conditions: [InclusionCondition]) -> Bool {
        for condition in conditions where condition.evaluate(with: variables) != true { return false }
        return true
    }

    private func collect(
        _ selections: [Selection], typename: String, into groups: inout [Group], positions: inout [String: Int]
    ) {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard holds(field.conditions) else { continue }
                let key = field.responseKey
                if let position = positions[key] {
                    groups[position].fields.append(field)
                } else {
                    positions[key] = groups.count
                    groups.append(Group(responseKey: key, fields: [field]))
                }
            case .inlineFragment(let fragment):
                guard holds(fragment.conditions) else { continue }
                if let condition = fragment.typeCondition, !condition.matches(typename) { continue }
                collect(fragment.selections, typename: typename, into: &groups, positions: &positions)
            case .fragmentSpread(let spread):
                guard holds(spread.conditions), spread.typeCondition.matches(typename) else { continue }
                collect(spread.selections, typename: typename, into: &groups, positions: &positions)
            }
        }
    }
}

extension FieldType {
    /// Whether values of this type are objects (stored as linked records).
    var isComposite: Bool {
        switch self {
        case .object: return true
        case .scalar, .enumeration: return false
        case .nonNull(let inner), .list(let inner): return inner.isComposite
        }
    }
}
