/// Static metadata of one selection in a generated selection set. The reader, the normalizer and
/// `init(jsonObject:)` are small interpreters over this tree, so none of them needs reflection.
public indirect enum Selection: Sendable, Hashable {
    /// A field, with its own nested selections when it is of a composite type.
    case field(Field)
    /// `... on Type { … }` (or `... { … }` with only directives).
    case inlineFragment(InlineFragmentSelection)
    /// `...FragmentName`, carrying the fragment's selections so interpreters need no lookup.
    case fragmentSpread(FragmentSpreadSelection)
}

extension Selection {
    /// A field selection: `.field("hero", type: .object("Character"), arguments: ["episode": .variable("episode")], selections: […])`.
    public static func field(
        _ name: String,
        alias: String? = nil,
        type: FieldType,
        arguments: [String: InputValue] = [:],
        conditions: [InclusionCondition] = [],
        directives: [ClientDirective] = [],
        errorHandling: FieldErrorHandling? = nil,
        isClientOnly: Bool = false,
        scalar: (any SelectionSetValue.Type)? = nil,
        selections: [Selection] = []
    ) -> Selection {
        .field(
            Field(
                name: name, alias: alias, type: type, arguments: arguments, conditions: conditions,
                directives: directives, errorHandling: errorHandling, isClientOnly: isClientOnly, scalar: scalar,
                selections: selections))
    }

    /// An inline fragment selection; `isDeferred` for `... @defer { … }`.
    public static func inlineFragment(
        on typeCondition: TypeCondition?,
        conditions: [InclusionCondition] = [],
        isDeferred: Bool = false,
        catching catchTarget: FieldErrorHandling.CatchTarget? = nil,
        alias: String? = nil,
        selections: [Selection]
    ) -> Selection {
        .inlineFragment(
            InlineFragmentSelection(
                typeCondition: typeCondition, conditions: conditions, isDeferred: isDeferred, catchTarget: catchTarget, alias: alias,
                selections: selections))
    }

    /// A fragment spread selection; `isDeferred` for `...Name @defer`.
    public static func fragment(
        _ name: String,
        on typeCondition: TypeCondition,
        conditions: [InclusionCondition] = [],
        isDeferred: Bool = false,
        catching catchTarget: FieldErrorHandling.CatchTarget? = nil,
        selections: [Selection]
    ) -> Selection {
        .fragmentSpread(
            FragmentSpreadSelection(
                name: name, typeCondition: typeCondition, conditions: conditions, isDeferred: isDeferred, catchTarget: catchTarget,
                selections: selections))
    }
}

extension Array where Element == Selection {
    /// Whether these selections (at any depth) need the store to be read: they select `__id`
    /// or a `@connection` field, which only the store can answer.
    public var needsStore: Bool {
        !traits.isDisjoint(with: [.recordID, .connection])
    }

    /// Whether these selections (at any depth) select a `@connection` field, whose merged pages
    /// only the store can give.
    public var selectsConnection: Bool {
        traits.contains(.connection)
    }

    /// Whether these selections select `__id` (the store's record ID) at any depth.
    public var selectsRecordID: Bool {
        traits.contains(.recordID)
    }

    /// What these selections select at any depth, from each field's own traits (worked out once,
    /// when the field was made: generated selections are static, so once per process).
    package var traits: SelectionTraits {
        var traits: SelectionTraits = []
        for selection in self {
            switch selection {
            case .field(let field): traits.formUnion(field.subtreeTraits)
            case .inlineFragment(let fragment): traits.formUnion(fragment.selections.traits)
            case .fragmentSpread(let spread): traits.formUnion(spread.selections.traits)
            }
        }
        return traits
    }

    /// Whether a client must read a result for these selections back from the store after
    /// writing it, because the response's data is not what the store reads: they select a
    /// client-only field (its value is the store's), a `@connection` field whose page merges into
    /// the edges the store keeps (it has an `after` or `before` cursor with these variables), or
    /// `__id` at or under a `@connection` field (the connection and its edges are client records
    /// of the store's). A page without a cursor replaces the connection's edges and page info
    /// with the server's, so the response's data is what the store reads.
    public func readsBackFromStore(variables: JSONObject) -> Bool {
        let traits = self.traits
        if traits.contains(.clientOnly) { return true }
        guard traits.contains(.connection) else { return false }
        func needsRead(_ selections: [Selection], underConnection: Bool) -> Bool {
            for selection in selections {
                switch selection {
                case .field(let field):
                    // Outside a connection only the way to one matters.
                    if !underConnection && !field.subtreeTraits.contains(.connection) { continue }
                    if field.isClientOnly || (underConnection && field.name == "__id") { return true }
                    var under = underConnection
                    if field.isConnection {
                        for cursor in ["after", "before"] {
                            if let value = field.arguments[cursor]?.resolve(with: variables), !value.isNull { return true }
                        }
                        under = true
                    }
                    if needsRead(field.selections, underConnection: under) { return true }
                case .inlineFragment(let fragment):
                    if needsRead(fragment.selections, underConnection: underConnection) { return true }
                case .fragmentSpread(let spread):
                    if needsRead(spread.selections, underConnection: underConnection) { return true }
                }
            }
            return false
        }
        return needsRead(self, underConnection: false)
    }

    /// Whether these selections select a client-only field at any depth (a client schema
    /// extension's or one marked `@client`): its value comes from the store, never the server.
    public var selectsClientOnlyField: Bool {
        traits.contains(.clientOnly)
    }

    /// Whether every field these selections select at their own level (through fragments) is
    /// client-only, `__typename` or `__id`, and there is at least one client-only field: an
    /// operation with such a root is answered from the store alone, never sent (Relay's
    /// client-only queries).
    public var selectsOnlyClientFields: Bool {
        var sawClientField = false
        func check(_ selections: [Selection]) -> Bool {
            for selection in selections {
                switch selection {
                case .field(let field):
                    if field.isClientOnly {
                        sawClientField = true
                    } else if field.name != "__typename" && field.name != "__id" {
                        return false
                    }
                case .inlineFragment(let fragment):
                    if !check(fragment.selections) { return false }
                case .fragmentSpread(let spread):
                    if !check(spread.selections) { return false }
                }
            }
            return true
        }
        return check(self) && sawClientField
    }
}

extension Field {
    /// Whether the field has `@connection`.
    var isConnection: Bool {
        directives.contains { if case .connection = $0 { true } else { false } }
    }
}

/// A selected field. Its parts live in one shared, immutable box, so copying a `Field` (as
/// every walk over selections does when it matches `.field(let field)`) is one retain.
public struct Field: Sendable, Hashable {
    private final class Storage: Sendable {
        let name: String
        let alias: String?
        let type: FieldType
        let arguments: [String: InputValue]
        let conditions: [InclusionCondition]
        let directives: [ClientDirective]
        let errorHandling: FieldErrorHandling?
        let isClientOnly: Bool
        let selections: [Selection]
        let scalar: (any SelectionSetValue.Type)?
        let responseKey: String
        let subtreeTraits: SelectionTraits

        init(
            name: String, alias: String?, type: FieldType, arguments: [String: InputValue], conditions: [InclusionCondition],
            directives: [ClientDirective], errorHandling: FieldErrorHandling?, isClientOnly: Bool, selections: [Selection],
            scalar: (any SelectionSetValue.Type)?
        ) {
            self.name = name
            self.alias = alias
            self.type = type
            self.arguments = arguments
            self.conditions = conditions
            self.directives = directives
            self.errorHandling = errorHandling
            self.isClientOnly = isClientOnly
            self.selections = selections
            self.scalar = scalar
            responseKey = alias ?? name
            var traits = selections.traits
            if name == "__id" { traits.insert(.recordID) }
            if isClientOnly { traits.insert(.clientOnly) }
            if directives.contains(where: { if case .connection = $0 { true } else { false } }) { traits.insert(.connection) }
            subtreeTraits = traits
        }
    }

    private let storage: Storage

    /// The field's name in the schema.
    public var name: String { storage.name }
    /// The alias it was selected under, if any.
    public var alias: String? { storage.alias }
    /// The field's type, with nullability and lists.
    public var type: FieldType { storage.type }
    /// Arguments by name, as literals or variables.
    public var arguments: [String: InputValue] { storage.arguments }
    /// `@include`/`@skip` conditions; all must hold for the field to be selected.
    public var conditions: [InclusionCondition] { storage.conditions }
    /// Baton's client directives on the field (`@connection`, mutation directives).
    public var directives: [ClientDirective] { storage.directives }
    /// What a field error or a null at the field does: `@catch`, `@required`,
    /// `@semanticNonNull` under `@throwOnFieldError`; `nil` for none.
    public var errorHandling: FieldErrorHandling? { storage.errorHandling }
    /// Whether the field lives only on the client: declared by a client schema extension (Relay's
    /// `extend type User { isSelected: Boolean }`, or on a client-only type) or marked `@client`
    /// (Apollo's). It is never sent and never in a server's response: the store keeps it, reads
    /// it, and updaters, local cache writes and optimistic updates set it. The fields under a
    /// client-only field are client-only too.
    public var isClientOnly: Bool { storage.isClientOnly }
    /// Nested selections, for fields of object, interface or union type.
    public var selections: [Selection] { storage.selections }
    /// For a custom scalar field, the Swift type that reads it, so a response it cannot read is
    /// a decoding error instead of a failing accessor.
    public var scalar: (any SelectionSetValue.Type)? { storage.scalar }

    /// A field selection; generated code makes these.
    public init(
        name: String, alias: String? = nil, type: FieldType, arguments: [String: InputValue] = [:],
        conditions: [InclusionCondition] = [], directives: [ClientDirective] = [], errorHandling: FieldErrorHandling? = nil,
        isClientOnly: Bool = false, scalar: (any SelectionSetValue.Type)? = nil, selections: [Selection] = []
    ) {
        storage = Storage(
            name: name, alias: alias, type: type, arguments: arguments, conditions: conditions, directives: directives,
            errorHandling: errorHandling, isClientOnly: isClientOnly, selections: selections, scalar: scalar)
    }

    /// The key of the field in the response: its alias, or its name.
    public var responseKey: String { storage.responseKey }

    /// What the field and its selections select at any depth (`__id`, `@connection`, client-only
    /// fields), worked out when the field was made.
    package var subtreeTraits: SelectionTraits { storage.subtreeTraits }

    public static func == (lhs: Field, rhs: Field) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.name == rhs.name && lhs.alias == rhs.alias && lhs.type == rhs.type && lhs.arguments == rhs.arguments
            && lhs.conditions == rhs.conditions && lhs.directives == rhs.directives && lhs.errorHandling == rhs.errorHandling
            && lhs.isClientOnly == rhs.isClientOnly && lhs.selections == rhs.selections
            && lhs.scalar.map(ObjectIdentifier.init) == rhs.scalar.map(ObjectIdentifier.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(alias)
        hasher.combine(type)
        hasher.combine(arguments)
        hasher.combine(conditions)
        hasher.combine(directives)
        hasher.combine(errorHandling)
        hasher.combine(isClientOnly)
        hasher.combine(selections)
        hasher.combine(scalar.map(ObjectIdentifier.init))
    }
}

/// The type of a selected field as the schema declares it.
public indirect enum FieldType: Sendable, Hashable {
    /// A scalar by name: `String`, `Int`, `Float`, `Boolean`, `ID` or a custom scalar.
    case scalar(String)
    /// An enum type by name.
    case enumeration(String)
    /// An object, interface or union type by name; the field has nested selections.
    case object(String)
    case nonNull(FieldType)
    case list(FieldType)

    /// The type without its outer non-null wrapper.
    public var nullable: FieldType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// The named type at the bottom of the lists and non-nulls.
    public var namedType: String {
        switch self {
        case .scalar(let name), .enumeration(let name), .object(let name): return name
        case .nonNull(let inner), .list(let inner): return inner.namedType
        }
    }

    /// The type as GraphQL writes it: `[String!]!`.
    public var graphQLDescription: String {
        switch self {
        case .scalar(let name), .enumeration(let name), .object(let name): return name
        case .nonNull(let inner): return inner.graphQLDescription + "!"
        case .list(let inner): return "[" + inner.graphQLDescription + "]"
        }
    }
}

/// The type a fragment applies to: a type name, and for an interface or union the object types
/// that belong to it (so a response's `__typename` can be matched without the schema).
public struct TypeCondition: Sendable, Hashable {
    /// The type's name.
    public let name: String
    /// For an interface or union, the object types that belong to it.
    public let possibleTypes: Set<String>

    /// A condition on `name`, matched also by `possibleTypes`.
    public init(_ name: String, possibleTypes: Set<String> = []) {
        self.name = name
        self.possibleTypes = possibleTypes
    }

    /// Whether an object of this runtime type satisfies the condition.
    public func matches(_ typename: String) -> Bool {
        typename == name || possibleTypes.contains(typename)
    }

    /// Whether a fragment on this condition applies to an object of runtime type `typename` in
    /// a field of type `parentType`: when the condition matches the typename, or the parent
    /// type itself. In the second case every object there is of the fragment's type whatever
    /// its `__typename` says (a type added to the schema after the code was generated, say):
    /// the generated accessors read the fragment's fields as the parent's, so `init(jsonObject:)`
    /// requires them and the store writes and reads them.
    public func applies(to typename: String, inFieldOf parentType: String?) -> Bool {
        matches(typename) || (parentType.map(matches) ?? false)
    }
}

/// `@include(if: $variable)` (not inverted) or `@skip(if: $variable)` (inverted).
public struct InclusionCondition: Sendable, Hashable {
    /// The Boolean variable the condition reads.
    public let variable: String
    /// `true` for `@skip` (selected when the variable is false), `false` for `@include`.
    public let isInverted: Bool

    /// `@include(if: $variable)`.
    public static func include(if variable: String) -> InclusionCondition {
        InclusionCondition(variable: variable, isInverted: false)
    }

    /// `@skip(if: $variable)`.
    public static func skip(if variable: String) -> InclusionCondition {
        InclusionCondition(variable: variable, isInverted: true)
    }

    /// A condition on `variable`, inverted for `@skip`.
    public init(variable: String, isInverted: Bool) {
        self.variable = variable
        self.isInverted = isInverted
    }

    /// Whether the condition holds for these variables; `nil` when the variable is not given.
    public func evaluate(with variables: JSONObject) -> Bool? {
        guard let value = variables[variable]?.boolValue else { return nil }
        return value != isInverted
    }
}

extension Sequence where Element == InclusionCondition {
    /// Whether every condition holds for these variables: `false` as soon as one does not, `nil`
    /// when none fails but a variable one needs is not given (the data may or may not be there).
    public func evaluate(with variables: JSONObject) -> Bool? {
        var result: Bool? = true
        for condition in self {
            switch condition.evaluate(with: variables) {
            case false?: return false
            case nil: result = nil
            case true?: break
            }
        }
        return result
    }
}

/// An argument value in a document: a literal or a reference to a variable, possibly nested.
public indirect enum InputValue: Sendable, Hashable {
    case variable(String)
    /// A literal scalar or enum value (enums as their name).
    case value(JSONValue)
    case list([InputValue])
    case object([String: InputValue])

    /// The value with its variables replaced; an absent variable gives `nil`.
    public func resolve(with variables: JSONObject) -> JSONValue? {
        switch self {
        case .variable(let name):
            return variables[name]
        case .value(let value):
            return value
        case .list(let elements):
            return .list(elements.map { $0.resolve(with: variables) ?? .null })
        case .object(let fields):
            var object = JSONObject()
            for key in fields.keys.sorted() {
                if let value = fields[key]?.resolve(with: variables) { object[key] = value }
            }
            return .object(object)
        }
    }
}

extension InputValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .value(.string(value)) }
}

extension InputValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .value(.int(value)) }
}

extension InputValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
}

/// An inline fragment.
public struct InlineFragmentSelection: Sendable, Hashable {
    /// The fragment's `on Type`; `nil` for `... @include(if:) { }` without one.
    public let typeCondition: TypeCondition?
    /// `@include`/`@skip` conditions; all must hold.
    public let conditions: [InclusionCondition]
    /// `@defer`: the server may send the fragment's fields in a later part of the response, so
    /// until then they are "not yet arrived", not missing.
    public let isDeferred: Bool
    /// `@catch(to:)` on the fragment (Relay's rule: an aliased one): a field error or a
    /// `@required`/`@throwOnFieldError` failure in its fields fails the fragment's accessor alone.
    public let catchTarget: FieldErrorHandling.CatchTarget?
    /// `@alias(as:)`: the name of the fragment's own accessor.
    public let alias: String?
    /// The fragment's selections.
    public let selections: [Selection]

    /// An inline fragment selection; generated code makes these.
    public init(
        typeCondition: TypeCondition?, conditions: [InclusionCondition] = [], isDeferred: Bool = false,
        catchTarget: FieldErrorHandling.CatchTarget? = nil, alias: String? = nil, selections: [Selection]
    ) {
        self.typeCondition = typeCondition
        self.conditions = conditions
        self.isDeferred = isDeferred
        self.catchTarget = catchTarget
        self.alias = alias
        self.selections = selections
    }

    /// Where the field-error pass notes a failure caught at this fragment, in its parent's
    /// object (see ``FieldErrorMarker/caughtKey(inlineFragment:)``).
    public var catchKey: String { FieldErrorMarker.caughtKey(inlineFragment: alias ?? typeCondition?.name ?? "") }
}

/// A named fragment spread, with the fragment's selections inlined.
public struct FragmentSpreadSelection: Sendable, Hashable {
    /// The fragment's name.
    public let name: String
    /// The fragment's `on Type`.
    public let typeCondition: TypeCondition
    /// `@include`/`@skip` conditions on the spread; all must hold.
    public let conditions: [InclusionCondition]
    /// `@defer`: the fragment's fields may arrive in a later part of the response.
    public let isDeferred: Bool
    /// `@catch(to:)` on the fragment's definition: a field error or a
    /// `@required`/`@throwOnFieldError` failure in its fields fails the fragment's accessor alone.
    public let catchTarget: FieldErrorHandling.CatchTarget?
    /// The fragment's selections, inlined.
    public let selections: [Selection]

    /// A fragment spread; generated code makes these.
    public init(
        name: String, typeCondition: TypeCondition, conditions: [InclusionCondition] = [], isDeferred: Bool = false,
        catchTarget: FieldErrorHandling.CatchTarget? = nil, selections: [Selection]
    ) {
        self.name = name
        self.typeCondition = typeCondition
        self.conditions = conditions
        self.isDeferred = isDeferred
        self.catchTarget = catchTarget
        self.selections = selections
    }

    /// Where the field-error pass notes a failure caught at this fragment, in its parent's
    /// object (see ``FieldErrorMarker/caughtKey(fragment:)``).
    public var catchKey: String { FieldErrorMarker.caughtKey(fragment: name) }
}

/// Baton's client-only directives, as the store's handlers need them.
public enum ClientDirective: Sendable, Hashable {
    /// `@connection(key:, filters:)`: the field is a Relay connection kept by the store.
    case connection(key: String, filters: [String]?)
    /// `@appendNode(connections:, edgeTypeName:)`
    case appendNode(connections: InputValue, edgeTypeName: String)
    /// `@prependNode(connections:, edgeTypeName:)`
    case prependNode(connections: InputValue, edgeTypeName: String)
    /// `@appendEdge(connections:)`
    case appendEdge(connections: InputValue)
    /// `@prependEdge(connections:)`
    case prependEdge(connections: InputValue)
    /// `@deleteEdge(connections:)`: the field holds IDs whose edges are removed.
    case deleteEdge(connections: InputValue)
    /// `@deleteRecord`: the field holds IDs whose records are deleted.
    case deleteRecord
}

/// What selections hold at any depth that changes how a response to them is handled.
package struct SelectionTraits: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `__id`: the store's record ID, which servers do not send.
    package static let recordID = SelectionTraits(rawValue: 1 << 0)
    /// A `@connection` field.
    package static let connection = SelectionTraits(rawValue: 1 << 1)
    /// A client-only field.
    package static let clientOnly = SelectionTraits(rawValue: 1 << 2)
}
