import GraphQL

/// `@include(if: $x)` / `@skip(if: $x)` on a selection.
struct Condition: Hashable {
    let variable: String
    let isInverted: Bool
}

/// One generated selection-set struct: the root `Data`, a field's nested type, an inline
/// fragment's `AsX`, a named fragment, or a type that only merges fields of others.
final class SelectionScope {
    enum Kind { case root, field, inlineFragment, fragment, merged }

    let kind: Kind
    /// The GraphQL type the selections apply to.
    let typeName: String
    /// The Swift struct name.
    var swiftName: String
    /// The struct that contains this one in Swift (nil for operations' `Data` and fragments).
    weak var enclosing: SelectionScope?
    /// The Swift path of the top-level type this scope sits in (the operation or fragment).
    var qualifiedPrefix: String
    /// For a fragment: how generated code refers to its type (`TypeNames.reference`), when that
    /// is not its name.
    var topLevelReference: String?

    /// The selections as written, merged by response key: what `__selections` lists.
    var selections: [ScopedSelection] = []
    /// Nested structs, in order.
    var children: [SelectionScope] = []
    /// For an inline fragment: whether its type condition was written (`... on X`), its
    /// conditions, and whether it is deferred.
    var typeConditionWritten = true
    var conditions: [Condition] = []
    var isDeferred = false
    /// For an inline fragment with Relay's `@alias(as:)`: its accessor's name (its fields are not
    /// merged into the parent). For one the generator added (`... on Node { id }`): no accessor.
    var alias: String?
    var isAdded = false
    /// Set on an operation's `Data` or a fragment marked `@apollo_client_ios_localCacheMutation`.
    var isLocalCacheMutation = false
    /// Whether the struct is mutable (its properties have setters): inside a local cache mutation.
    var isMutable: Bool { enclosing?.isMutable ?? isLocalCacheMutation }
    /// `@catch(to:)` (`RESULT` or `NULL`) on an operation, a fragment's definition or an aliased
    /// inline fragment: a failure in its fields fails its accessor (or its root read) alone.
    var catchTarget: String?
    /// Set on an operation's `Data` or a fragment marked `@throwOnFieldError`.
    var isThrowOnFieldError = false
    /// Whether the struct's fields are read under `@throwOnFieldError`.
    var throwsOnFieldError: Bool { enclosing?.throwsOnFieldError ?? isThrowOnFieldError }

    /// Other scopes whose fields this one shows too (the same field selected elsewhere).
    var extraSources: [SelectionScope] = []
    /// Accessors, once merged.
    var mergedFields: [MergedField]?
    var isResolving = false

    init(kind: Kind, typeName: String, swiftName: String, enclosing: SelectionScope?, qualifiedPrefix: String) {
        self.kind = kind
        self.typeName = typeName
        self.swiftName = swiftName
        self.enclosing = enclosing
        self.qualifiedPrefix = qualifiedPrefix
    }

    /// The struct's full Swift name, `HeroAndFriendsQuery.Data.Hero`.
    var qualifiedName: String {
        if let enclosing { return enclosing.qualifiedName + "." + swiftName }
        if kind == .fragment { return topLevelReference ?? swiftName }
        return qualifiedPrefix.isEmpty ? swiftName : qualifiedPrefix + "." + swiftName
    }

    /// The struct's name relative to the top-level type, for doc comments: `Hero.Friend`.
    var relativeName: String {
        guard let enclosing, enclosing.kind != .root, enclosing.kind != .fragment else { return swiftName }
        return enclosing.relativeName + "." + swiftName
    }
}

/// A selection as `__selections` lists it.
enum ScopedSelection {
    case field(ScopedField)
    case inlineFragment(SelectionScope)
    /// `arguments`: the values the spread gives the fragment's own variables (`nil` is null).
    /// `alias`: Relay's `@alias(as:)`, the accessor the fragment is read through instead of
    /// `fragments` (its fields are not merged into the parent).
    case fragmentSpread(name: String, conditions: [Condition], isDeferred: Bool, arguments: [(name: String, value: (any Value)?)], alias: String?)
}

/// A field selected in a scope: all its occurrences with the same response key merged.
final class ScopedField {
    let name: String
    let alias: String?
    /// The field's type in the parent type.
    let type: any GraphQLOutputType
    let description: String?
    let arguments: [Argument]
    /// Distinct condition sets of its occurrences; `[[]]` when one occurrence is unconditional.
    var conditionSets: [[Condition]]
    var directives: [Directive]
    let node: GraphQL.Field?
    var subselections: [GraphQL.SelectionSet] = []
    var child: SelectionScope?
    /// True when every occurrence was added by the generator (Relay's `id` and `pageInfo`): sent
    /// and stored, but no accessor.
    var isAdded = false

    init(
        name: String, alias: String?, type: any GraphQLOutputType, description: String?, arguments: [Argument],
        conditions: [Condition], directives: [Directive], node: GraphQL.Field?
    ) {
        self.name = name
        self.alias = alias
        self.type = type
        self.description = description
        self.arguments = arguments
        self.conditionSets = [conditions]
        self.directives = directives
        self.node = node
    }

    var responseKey: String { alias ?? name }
}

/// A field as an accessor sees it: merged from the scope itself, its fragments and the scopes
/// it inherits from.
struct MergedField {
    let responseKey: String
    let name: String
    let type: any GraphQLOutputType
    let description: String?
    /// True when the field is there only under `@include`/`@skip`/`@defer`.
    var isConditional: Bool
    /// The struct for the field's selections, for composite fields.
    var scope: SelectionScope?
    /// `@catch`, `@required`, `@semanticNonNull` under `@throwOnFieldError`, as the scope that
    /// selects the field reads it.
    var errorSpec: FieldErrorSpec? = nil
}
