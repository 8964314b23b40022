/// Selections prepared for one walk over data, for one set of variables: the one place where
/// selections are interpreted. For each runtime type it holds the fields that apply — the spec's
/// CollectFields, through inline fragments and fragment spreads whose type condition matches and
/// whose `@include`/`@skip` conditions hold — grouped by response key in first-seen order, each
/// with what the response must hold there (``ValueCheck``), whether it must be there
/// (``PlannedField/Presence``), where the store keeps it (storage key) and reads it (read key),
/// and the plan of its sub-selections. It is worked out once per selection set and type, not
/// once per object, and every object of a list then shares it.
///
/// Every walk uses it: the response check behind `init(jsonObject:)`, the store's executor (which
/// checks and normalizes a response in one walk), the store's reader and its prefetcher.
package final class SelectionPlan {
    private let selections: [Selection]
    /// The type of the field (or root) these selections are on.
    package let parentType: String?
    package let variables: JSONObject
    /// The last type asked for: objects of a list mostly share one.
    private var lastTypename: String?
    private var lastObject = PlannedObject(fields: [])
    private var objectsByTypename: [String: PlannedObject] = [:]
    /// How many records the last execution with this plan made (the store's executor sizes its
    /// table by it). Plans are kept per thread (``SelectionPlanCache``), so this is the last
    /// walk on this thread.
    package var recordsLastMade = 0
    /// Whether the last walk of a response's bytes with this plan met something it leaves to
    /// the walk over a parsed tree (the store's executor then parses first, and tries the bytes
    /// again only after `bytesRetryAfter` more walks).
    package var bytesWalkDeclined = 0
    /// Whether these selections are under a client-only field: all their fields are client-only.
    private let isUnderClientField: Bool
    /// Whether fragments under `@catch` are kept apart (``PlannedObject/caught``) instead of
    /// collected: the field-error pass's plans, where such a fragment is read on its own.
    package let separatesCaughtFragments: Bool

    package init(
        _ selections: [Selection], parentType: String?, variables: JSONObject, isUnderClientField: Bool = false,
        separatesCaughtFragments: Bool = false
    ) {
        self.selections = selections
        self.parentType = parentType
        self.variables = variables
        self.isUnderClientField = isUnderClientField
        self.separatesCaughtFragments = separatesCaughtFragments
    }

    /// ``object(for:)``, not retained: the plan keeps every object it made for as long as it
    /// lives, so a walk that holds the plan may use them without a reference count.
    package func unretainedObject(for typename: String) -> Unmanaged<PlannedObject> {
        if typename == lastTypename { return Unmanaged.passUnretained(lastObject) }
        return Unmanaged.passUnretained(object(for: typename))
    }

    /// The fields that apply to an object of runtime type `typename`.
    package func object(for typename: String) -> PlannedObject {
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

    private struct Group {
        let responseKey: String
        var fields: [Field]
        var presence: PlannedField.Presence
    }

    private func plan(for typename: String) -> PlannedObject {
        var groups: [Group] = []
        var positions: [String: Int] = [:]
        var caught: [CaughtFragment] = []
        collect(selections, typename: typename, presence: .required, into: &groups, positions: &positions, caught: &caught)
        return PlannedObject(
            fields: groups.map { group in
                PlannedField(
                    responseKey: group.responseKey, fields: group.fields, presence: group.presence, variables: variables,
                    isUnderClientField: isUnderClientField, separatesCaughtFragments: separatesCaughtFragments)
            }, caught: caught)
    }

    /// Collects `selections` for `typename`. `presence` is what the enclosing fragments make of
    /// them: a condition whose variable is not given makes them conditional, a `@defer` deferred.
    private func collect(
        _ selections: [Selection], typename: String, presence: PlannedField.Presence, into groups: inout [Group],
        positions: inout [String: Int], caught: inout [CaughtFragment]
    ) {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard let presence = presence.under(field.conditions.evaluate(with: variables), isDeferred: false) else {
                    continue
                }
                let key = field.responseKey
                if let position = positions[key] {
                    groups[position].fields.append(field)
                    // Required under one path is required (the spec merges the fields).
                    groups[position].presence = groups[position].presence.merged(with: presence)
                } else {
                    positions[key] = groups.count
                    groups.append(Group(responseKey: key, fields: [field], presence: presence))
                }
            case .inlineFragment(let fragment):
                guard let inner = presence.under(fragment.conditions.evaluate(with: variables), isDeferred: fragment.isDeferred)
                else { continue }
                if let condition = fragment.typeCondition, !condition.applies(to: typename, inFieldOf: parentType) { continue }
                if separatesCaughtFragments, let target = fragment.catchTarget {
                    caught.append(
                        CaughtFragment(key: fragment.catchKey, target: target, selections: fragment.selections, owner: self))
                    continue
                }
                collect(
                    fragment.selections, typename: typename, presence: inner, into: &groups, positions: &positions,
                    caught: &caught)
            case .fragmentSpread(let spread):
                guard let inner = presence.under(spread.conditions.evaluate(with: variables), isDeferred: spread.isDeferred),
                    spread.typeCondition.applies(to: typename, inFieldOf: parentType)
                else { continue }
                if separatesCaughtFragments, let target = spread.catchTarget {
                    caught.append(
                        CaughtFragment(key: spread.catchKey, target: target, selections: spread.selections, owner: self))
                    continue
                }
                collect(
                    spread.selections, typename: typename, presence: inner, into: &groups, positions: &positions, caught: &caught)
            }
        }
    }
}

/// What a ``SelectionPlan`` gives for one runtime type. A class: every object of that type in a
/// walk takes it with one retain, not one per array it holds.
package final class PlannedObject {
    package let fields: [PlannedField]
    /// The storage keys of the fields stored on a record (all but `__typename` and `__id`), in
    /// order, when they are distinct: the records made with this plan share this one array.
    package let storageKeys: [String]?
    /// Whether the object selects `__id` (the store's record ID, which servers do not send).
    package let selectsRecordID: Bool
    /// The fragments under `@catch` that apply, read on their own (only in plans that
    /// separate them).
    package let caught: [CaughtFragment]
    /// The response keys of the fields a server sends (all but `__id`), in order: the keys of a
    /// response object that has every field, which the objects made from it share.
    package let responseKeys: [String]
    /// ``responseKeys`` and then those of the `__id` fields: the keys of such an object in the
    /// store's shape.
    package let responseKeysWithRecordIDs: [String]
    /// ``fields`` as the walk over a response's bytes reads them: memory of the object's own
    /// (freed with it), whose steps hold no reference counts.
    package let readSteps: UnsafeBufferPointer<ReadStep>

    init(fields: [PlannedField], caught: [CaughtFragment] = []) {
        self.fields = fields
        self.caught = caught
        let steps = UnsafeMutableBufferPointer<ReadStep>.allocate(capacity: fields.count)
        _ = steps.initialize(from: fields.map(ReadStep.init))
        readSteps = UnsafeBufferPointer(steps)
        let sent = fields.filter { if case .recordID = $0.kind { false } else { true } }.map(\.responseKey)
        responseKeys = sent
        responseKeysWithRecordIDs =
            sent + fields.filter { if case .recordID = $0.kind { true } else { false } }.map(\.responseKey)
        let keys = fields.filter(\.isStored).map(\.storageKey)
        storageKeys = Set(keys).count == keys.count ? keys : nil
        selectsRecordID = fields.contains { if case .recordID = $0.kind { true } else { false } }
    }

    deinit {
        UnsafeMutableBufferPointer(mutating: readSteps).deallocate()
    }
}

/// One field of a ``PlannedObject`` as the walk over a response's bytes reads it: plain values,
/// and references to the plan's own objects that the planned object keeps alive, held without a
/// reference count, so that reading a step and following it retains nothing (callgrind of the
/// GitHub receive: the walk retained and released each field, its check and its sub-plan).
package struct ReadStep {
    package enum Kind: UInt8 {
        case typename, recordID, scalar, composite
    }

    /// What a scalar field's value must be, when the walk can tell it in place; `.other` (a
    /// list, a custom scalar) asks the field's ``ValueCheck``.
    package enum ScalarKind: UInt8 {
        case string, int, float, boolean, id, enumeration, other
    }

    package let kind: Kind
    /// The response key's UTF-8 (``PlannedField/responseKeyUTF8``).
    package let key: UnsafeRawBufferPointer
    package let isClientOnly: Bool
    /// Whether the field has client directives (a handler takes its value).
    package let hasDirectives: Bool
    package let scalarKind: ScalarKind
    /// Whether the value may be null (the outermost level of its type).
    package let isNullable: Bool
    package let field: Unmanaged<PlannedField>
    package let check: Unmanaged<ValueCheck>
    /// The sub-selections' plan of an object field.
    package let selections: Unmanaged<SelectionPlan>?

    init(_ field: PlannedField) {
        switch field.kind {
        case .typename: kind = .typename
        case .recordID: kind = .recordID
        case .scalar: kind = .scalar
        case .composite: kind = .composite
        }
        key = field.responseKeyUTF8
        isClientOnly = field.isClientOnly
        hasDirectives = !field.directives.isEmpty
        self.field = Unmanaged.passUnretained(field)
        check = Unmanaged.passUnretained(field.check)
        if case .composite(_, let plan) = field.kind {
            selections = Unmanaged.passUnretained(plan)
        } else {
            selections = nil
        }
        isNullable = field.check.kind != .nonNull
        let level = field.check.kind == .nonNull ? field.check.inner!.kind : field.check.kind
        switch level {
        case .string: scalarKind = .string
        case .int: scalarKind = .int
        case .float: scalarKind = .float
        case .boolean: scalarKind = .boolean
        case .id: scalarKind = .id
        case .enumeration: scalarKind = .enumeration
        case .nonNull, .list, .object, .custom: scalarKind = .other
        }
    }

    /// Whether `value` is what a scalar field of this step takes, told in place; `nil` when
    /// only the field's ``ValueCheck`` can tell.
    @inline(__always)
    package func scalarMatches(_ value: JSONValue) -> Bool? {
        switch (scalarKind, value) {
        case (.other, _): return nil
        case (_, .null): return isNullable
        case (.string, .string), (.int, .int), (.float, .double), (.float, .int), (.boolean, .bool), (.id, .string),
            (.id, .int), (.enumeration, .string):
            return true
        default: return false
        }
    }
}

/// A fragment under `@catch` in a plan that separates them: the field-error pass reads its
/// selections on their own, and a failure in them is noted under `key` instead of failing the
/// read.
package struct CaughtFragment {
    package let key: String
    package let target: FieldErrorHandling.CatchTarget
    /// The plan of the fragment's selections on the same object.
    package let plan: SelectionPlan

    init(key: String, target: FieldErrorHandling.CatchTarget, selections: [Selection], owner: SelectionPlan) {
        self.key = key
        self.target = target
        plan = SelectionPlan(selections, parentType: owner.parentType, variables: owner.variables, separatesCaughtFragments: true)
    }
}

/// One response key of a ``SelectionPlan``: the fields selected under it, merged. A class, so
/// that the walks over every object of a list share it instead of copying its parts.
package final class PlannedField {
    /// What a field is to the store.
    package enum Kind {
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

    /// Whether the response must have the field.
    package enum Presence {
        /// Selected unconditionally: its absence is an error.
        case required
        /// Under a `@defer` that may not have arrived yet: what is there must match, but its
        /// absence is no error (a read of the store still counts it missing).
        case deferred
        /// Under `@include`/`@skip` whose variable was not given: it may or may not be there.
        case conditional

        /// The presence of a selection under conditions that evaluate to `holds` (`nil`: a
        /// variable not given) inside this one; `nil` when it is not selected.
        func under(_ holds: Bool?, isDeferred: Bool) -> Presence? {
            switch holds {
            case false?: return nil
            case nil: return .conditional
            case true?:
                if self == .conditional { return .conditional }
                return isDeferred ? .deferred : self
            }
        }

        /// The presence of a response key selected twice.
        func merged(with other: Presence) -> Presence {
            if self == .required || other == .required { return .required }
            if self == .deferred || other == .deferred { return .deferred }
            return .conditional
        }
    }

    package let responseKey: String
    /// ``responseKey``'s UTF-8, to compare with a key read from a response's bytes: memory of
    /// the field's own (freed with it), which the walk reads without a reference count.
    package let responseKeyUTF8: UnsafeRawBufferPointer
    /// The first field selected under the key (its name, type and arguments are the group's).
    package let field: Field
    /// The field's name, kept here so that the walks read it without touching `field`'s storage,
    /// which every thread's plans share (its reference count would be written by all of them).
    package let fieldName: String
    package let kind: Kind
    package let presence: Presence
    /// What the response must hold under the key.
    package let check: ValueCheck
    /// Where the store keeps the value on the record: `todos(first:10)`.
    package let storageKey: String
    /// Where a read finds it: the storage key, or for a `@connection` field the connection
    /// record that the connection handler keeps.
    package let readKey: String
    /// The client directives of every field under the key, in selection order.
    package let directives: [ClientDirective]
    /// `@catch`, `@required`, `@throwOnFieldError` on the fields under the key, merged (one
    /// object underlies every fragment's view of it, so the strictest reading wins).
    package let errorHandling: FieldErrorHandling?
    /// Whether the value lives only on the client (a client schema extension's field, one marked
    /// `@client`, or any field under one): a server's response never has it, so its absence
    /// there is no error and leaves the stored value as it is, and a read that finds no value
    /// reads a nullable one as null without counting it missing (relay-runtime's reader).
    package let isClientOnly: Bool

    /// Whether the value is stored as a field of the record (not `__typename` or `__id`).
    package var isStored: Bool {
        switch kind {
        case .typename, .recordID: return false
        case .scalar, .composite: return true
        }
    }

    /// Whether a response without it is an error.
    package var isRequired: Bool { presence == .required && !isRecordID }

    private var isRecordID: Bool {
        if case .recordID = kind { return true }
        return false
    }

    init(
        responseKey: String, fields: [Field], presence: Presence, variables: JSONObject, isUnderClientField: Bool = false,
        separatesCaughtFragments: Bool = false
    ) {
        let field = fields[0]
        self.responseKey = responseKey
        let utf8 = UnsafeMutableRawBufferPointer.allocate(byteCount: max(responseKey.utf8.count, 1), alignment: 1)
        utf8.copyBytes(from: responseKey.utf8)
        responseKeyUTF8 = UnsafeRawBufferPointer(rebasing: utf8[..<responseKey.utf8.count])
        self.field = field
        fieldName = field.name
        self.presence = presence
        // Client-only when every field under the key is (a server field selected beside it is sent).
        let isClientOnly = isUnderClientField || fields.allSatisfy(\.isClientOnly)
        self.isClientOnly = isClientOnly
        switch field.name {
        case "__typename": kind = .typename
        case "__id": kind = .recordID
        default:
            if field.type.isComposite {
                let selections = fields.count == 1 ? field.selections : fields.flatMap(\.selections)
                let namedType = field.type.namedType
                kind = .composite(
                    namedType: namedType,
                    selections: SelectionPlan(
                        selections, parentType: namedType, variables: variables, isUnderClientField: isClientOnly,
                        separatesCaughtFragments: separatesCaughtFragments))
            } else {
                kind = .scalar
            }
        }
        check = ValueCheck(type: field.type, scalar: field.scalar)
        let storageKey = FieldKeys.storageKey(of: field, variables: variables)
        self.storageKey = storageKey
        directives = fields.count == 1 ? field.directives : fields.flatMap(\.directives)
        errorHandling = fields.count == 1 ? field.errorHandling : FieldErrorHandling.merged(fields.compactMap(\.errorHandling))
        readKey = FieldKeys.readKey(of: field, variables: variables, storageKey: storageKey)
    }

    deinit {
        UnsafeMutableRawPointer(mutating: responseKeyUTF8.baseAddress)?.deallocate()
    }
}

extension FieldType {
    /// Whether values of this type are objects (stored as linked records).
    package var isComposite: Bool {
        switch self {
        case .object: return true
        case .scalar, .enumeration: return false
        case .nonNull(let inner), .list(let inner): return inner.isComposite
        }
    }
}
