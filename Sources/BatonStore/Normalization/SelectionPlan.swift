import BatonAPI

/// Selections prepared for one walk over data (a normalization or a read), for one set of
/// variables. For each runtime type it holds the fields that apply: the spec's CollectFields,
/// through inline fragments and fragment spreads whose type condition matches and whose
/// `@include`/`@skip` conditions hold, grouped by response key in first-seen order. It is worked
/// out once per selection set and type, not once per object, and so are each field's storage
/// key and the plan of its sub-selections, which every object of a list then shares.
final class SelectionPlan {
    private let selections: [Selection]
    /// The type of the field (or root) these selections are on.
    private let parentType: String?
    private let variables: JSONObject
    /// The last type asked for: objects of a list mostly share one.
    private var lastTypename: String?
    private var lastObject = PlannedObject(fields: [])
    private var objectsByTypename: [String: PlannedObject] = [:]

    init(_ selections: [Selection], parentType: String?, variables: JSONObject) {
        self.selections = selections
        self.parentType = parentType
        self.variables = variables
    }

    /// The fields that apply to an object of runtime type `typename`.
    func object(for typename: String) -> PlannedObject {
        if typename == lastTypename { return lastObject }
        let object: PlannedObject
        if let known = objectsByTypename[typename] {
            object = known
        } else {
            object = plan(for: typename)
            objectsByTypename[typename] = object
        }
        lastTypename = typename
        lastObject = object
        return object
    }

    private func plan(for typename: String) -> PlannedObject {
        var groups: [(responseKey: String, fields: [Field])] = []
        var positions: [String: Int] = [:]
        collect(selections, typename: typename, into: &groups, positions: &positions)
        return PlannedObject(
            fields: groups.map { group in
                PlannedField(responseKey: group.responseKey, fields: group.fields, variables: variables)
            })
    }

    private func holds(_ conditions: [InclusionCondition]) -> Bool {
        for condition in conditions where condition.evaluate(with: variables) != true { return false }
        return true
    }

    private func collect(
        _ selections: [Selection], typename: String, into groups: inout [(responseKey: String, fields: [Field])],
        positions: inout [String: Int]
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
                    groups.append((key, [field]))
                }
            case .inlineFragment(let fragment):
                guard holds(fragment.conditions) else { continue }
                if let condition = fragment.typeCondition, !condition.applies(to: typename, inFieldOf: parentType) {
                    continue
                }
                collect(fragment.selections, typename: typename, into: &groups, positions: &positions)
            case .fragmentSpread(let spread):
                guard holds(spread.conditions), spread.typeCondition.applies(to: typename, inFieldOf: parentType) else { continue }
                collect(spread.selections, typename: typename, into: &groups, positions: &positions)
            }
        }
    }
}

/// What a ``SelectionPlan`` gives for one runtime type.
struct PlannedObject {
    let fields: [PlannedField]
    /// The storage keys of the fields stored on a record (all but `__typename` and `__id`), in
    /// order, when they are distinct: the records made with this plan share this one array.
    let storageKeys: [String]?

    init(fields: [PlannedField]) {
        self.fields = fields
        let keys = fields.filter(\.isStored).map(\.storageKey)
        storageKeys = Set(keys).count == keys.count ? keys : nil
    }
}

/// One response key of a ``SelectionPlan``: the fields selected under it, merged. A class, so
/// that the walks over every object of a list share it instead of copying its parts.
final class PlannedField {
    /// What a field is to the store.
    enum Kind {
        /// `__typename`: the record's type, not a field of it.
        case typename
        /// `__id`: the record's ID, not a field of it.
        case recordID
        /// A scalar or enum (or lists of them), stored as it came.
        case scalar
        /// An object (or lists of them), stored as links to records; `selections` are the merged
        /// sub-selections of every field under the key.
        case composite(namedType: String, selections: SelectionPlan)
    }

    let responseKey: String
    /// The first field selected under the key (its name, type and arguments are the group's).
    let field: Field
    let kind: Kind
    /// Where the normalizer stores the value on the record: `todos(first:10)`.
    let storageKey: String
    /// Where the reader finds it: the storage key, or for a `@connection` field the connection
    /// record that the connection handler keeps.
    let readKey: String
    /// The client directives of every field under the key, in selection order.
    let directives: [ClientDirective]

    /// Whether the value is stored as a field of the record (not `__typename` or `__id`).
    var isStored: Bool {
        switch kind {
        case .typename, .recordID: return false
        case .scalar, .composite: return true
        }
    }

    init(responseKey: String, fields: [Field], variables: JSONObject) {
        let field = fields[0]
        self.responseKey = responseKey
        self.field = field
        switch field.name {
        case "__typename": kind = .typename
        case "__id": kind = .recordID
        default:
            if field.type.isComposite {
                let selections = fields.count == 1 ? field.selections : fields.flatMap(\.selections)
                let namedType = field.type.namedType
                kind = .composite(
                    namedType: namedType, selections: SelectionPlan(selections, parentType: namedType, variables: variables))
            } else {
                kind = .scalar
            }
        }
        storageKey = StorageKey.make(field: field, variables: variables)
        directives = fields.count == 1 ? field.directives : fields.flatMap(\.directives)
        readKey = Reader.readKey(of: field, variables: variables, storageKey: storageKey)
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
