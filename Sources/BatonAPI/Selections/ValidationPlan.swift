/// The checks of one selection set for a response walk, worked out per runtime type: which
/// fields must be there and which type each value must have, through inline fragments and
/// fragment spreads whose type condition matches and whose `@include`/`@skip` conditions hold.
/// Made for one set of variables; the objects of a list share it.
final class ValidationPlan {
    private let selections: [Selection]
    private let parentType: String
    private let variables: JSONObject
    /// The last runtime type asked for: objects of a list mostly share one.
    private var lastTypename: String?
    private var lastChecks: [FieldCheck] = []
    private var checksByTypename: [String: [FieldCheck]] = [:]

    init(selections: [Selection], parentType: String, variables: JSONObject) {
        self.selections = selections
        self.parentType = parentType
        self.variables = variables
    }

    /// Checks `object` against the selections.
    func validate(_ object: JSONObject) throws(ValidationMismatch) {
        let checks = checks(for: object["__typename"]?.stringValue ?? parentType)
        // Values are looked at in place, not copied out: a copy retains the value's storage,
        // which on a large response is a cache miss per value.
        try object.values.withUnsafeBufferPointer { values throws(ValidationMismatch) in
            for check in checks {
                guard let position = object.position(of: check.responseKey) else {
                    if check.isRequired {
                        throw ValidationMismatch(
                            at: .key(check.responseKey), expected: check.value.type.graphQLDescription, found: "nothing")
                    }
                    continue
                }
                do throws(ValidationMismatch) {
                    try check.value.validate(values[position])
                } catch {
                    throw error.inside(.key(check.responseKey))
                }
            }
        }
    }

    private func checks(for typename: String) -> [FieldCheck] {
        if typename == lastTypename { return lastChecks }
        let checks: [FieldCheck]
        if let known = checksByTypename[typename] {
            checks = known
        } else {
            var collected: [FieldCheck] = []
            collect(selections, typename: typename, optional: false, into: &collected)
            checks = collected
            checksByTypename[typename] = checks
        }
        lastTypename = typename
        lastChecks = checks
        return checks
    }

    /// Whether selections under these conditions apply: `true`, `false`, or `nil` when a
    /// variable they need was not given (then the data may or may not be there).
    private func applies(_ conditions: [InclusionCondition]) -> Bool? {
        conditions.evaluate(with: variables)
    }

    private func fragment(on condition: TypeCondition?, appliesTo typename: String) -> Bool {
        condition?.applies(to: typename, inFieldOf: parentType) ?? true
    }

    /// The checks of `selections` for `typename`, in selection order. `optional` marks
    /// selections under a condition that cannot be evaluated (a variable not given) or a
    /// `@defer` that may not have arrived: what is there must match, but nothing is required.
    private func collect(_ selections: [Selection], typename: String, optional: Bool, into checks: inout [FieldCheck]) {
        for selection in selections {
            switch selection {
            case .field(let field):
                let applies = applies(field.conditions)
                if applies == false { continue }
                // `__id` is the store's record ID: servers do not send it.
                let isRequired = !optional && applies != nil && field.name != "__id"
                checks.append(
                    FieldCheck(responseKey: field.responseKey, isRequired: isRequired, value: ValueCheck(field, variables: variables)))
            case .inlineFragment(let fragment):
                collectFragment(
                    fragment.selections, condition: fragment.typeCondition, conditions: fragment.conditions,
                    isDeferred: fragment.isDeferred, typename: typename, optional: optional, into: &checks)
            case .fragmentSpread(let spread):
                collectFragment(
                    spread.selections, condition: spread.typeCondition, conditions: spread.conditions,
                    isDeferred: spread.isDeferred, typename: typename, optional: optional, into: &checks)
            }
        }
    }

    private func collectFragment(
        _ selections: [Selection], condition: TypeCondition?, conditions: [InclusionCondition], isDeferred: Bool,
        typename: String, optional: Bool, into checks: inout [FieldCheck]
    ) {
        switch applies(conditions) {
        case false?:
            return
        case true? where !isDeferred:
            guard fragment(on: condition, appliesTo: typename) else { return }
            collect(selections, typename: typename, optional: optional, into: &checks)
        default:
            // A variable not given, or a deferred fragment that may not have arrived yet.
            guard fragment(on: condition, appliesTo: typename) else { return }
            collect(selections, typename: typename, optional: true, into: &checks)
        }
    }
}

/// One field of a ``ValidationPlan``: where it is in the object and what its value must be.
final class FieldCheck {
    let responseKey: String
    /// Whether its absence is an error.
    let isRequired: Bool
    let value: ValueCheck

    init(responseKey: String, isRequired: Bool, value: ValueCheck) {
        self.responseKey = responseKey
        self.isRequired = isRequired
        self.value = value
    }
}

/// What a value must be: one level of a field's type, with the level below it.
final class ValueCheck {
    enum Kind {
        case nonNull, list, string, int, float, boolean, id, enumeration, object
        /// A custom scalar: its Swift type reads it, or anything goes when it has none.
        case custom
    }

    let kind: Kind
    /// This level of the field's type, for error messages.
    let type: FieldType
    /// The level below, for a non-null or a list.
    let inner: ValueCheck?
    /// The checks of an object's selections.
    let plan: ValidationPlan?
    let scalar: (any SelectionSetValue.Type)?

    convenience init(_ field: Field, variables: JSONObject) {
        self.init(type: field.type, field: field, variables: variables)
    }

    private init(type: FieldType, field: Field, variables: JSONObject) {
        self.type = type
        var inner: ValueCheck?
        var plan: ValidationPlan?
        var scalar: (any SelectionSetValue.Type)?
        switch type {
        case .nonNull(let wrapped):
            kind = .nonNull
            inner = ValueCheck(type: wrapped, field: field, variables: variables)
        case .list(let element):
            kind = .list
            inner = ValueCheck(type: element, field: field, variables: variables)
        case .scalar(let name):
            switch name {
            case "String": kind = .string
            case "Int": kind = .int
            case "Float": kind = .float
            case "Boolean": kind = .boolean
            case "ID": kind = .id
            default:
                kind = .custom
                scalar = field.scalar
            }
        case .enumeration:
            kind = .enumeration
        case .object(let name):
            kind = .object
            plan = ValidationPlan(selections: field.selections, parentType: name, variables: variables)
        }
        self.inner = inner
        self.plan = plan
        self.scalar = scalar
    }

    func validate(_ value: JSONValue) throws(ValidationMismatch) {
        if case .null = value {
            if kind == .nonNull { throw ValidationMismatch(expected: type.graphQLDescription, found: "null") }
            return
        }
        switch kind {
        case .nonNull:
            try inner!.validate(value)
            return
        case .list:
            guard case .list(let elements) = value else { break }
            let inner = inner!
            try elements.withUnsafeBufferPointer { elements throws(ValidationMismatch) in
                for index in elements.indices {
                    do throws(ValidationMismatch) {
                        try inner.validate(elements[index])
                    } catch {
                        throw error.inside(.index(index))
                    }
                }
            }
            return
        case .object:
            guard case .object(let object) = value else { break }
            try plan!.validate(object)
            return
        case .string:
            if case .string = value { return }
        case .int:
            if case .int = value { return }
        case .float:
            switch value {
            case .double, .int: return
            default: break
            }
        case .boolean:
            if case .bool = value { return }
        case .id:
            switch value {
            case .string, .int: return
            default: break
            }
        case .enumeration:
            if case .string = value { return }
        case .custom:
            // Custom scalars read themselves; without a Swift type anything goes.
            if scalar.map({ $0._fromJSON(value) != nil }) ?? true { return }
        }
        throw ValidationMismatch(expected: expectation, found: value.kindDescription)
    }

    /// What the selections call for at this level, as an error says it.
    private var expectation: String {
        switch type {
        case .scalar(let name): return name
        case .enumeration(let name): return "\(name) (an enum value)"
        case .object(let name): return "\(name) (an object)"
        case .nonNull, .list: return type.graphQLDescription
        }
    }
}

/// A value that does not match its check, with the path to it built while unwinding (innermost
/// component first), so a walk that succeeds keeps no path at all.
struct ValidationMismatch: Error {
    var reversedPath: [ResponsePath.Component] = []
    let expected: String
    let found: String

    init(at component: ResponsePath.Component? = nil, expected: String, found: String) {
        if let component { reversedPath = [component] }
        self.expected = expected
        self.found = found
    }

    func inside(_ component: ResponsePath.Component) -> ValidationMismatch {
        var outer = self
        outer.reversedPath.append(component)
        return outer
    }
}
