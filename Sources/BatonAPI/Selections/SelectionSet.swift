/// A generated selection set: a thin, immutable struct over the response object, with the
/// static metadata of what it selects. Accessors read from ``DataDict``; the object was checked
/// against `__selections` when the value was made, so they do not fail. A selection set is also a
/// value another one's generated initializer (or setter) writes into its response object.
public protocol SelectionSet: Sendable, Hashable, SelectionSetWritableValue {
    /// The schema type the selections apply to.
    static var __parentType: TypeCondition { get }
    /// What this selection set selects, fragments and type conditions included.
    static var __selections: [Selection] { get }
    /// The response object underneath.
    var __data: DataDict { get }
    /// Wraps an object that is already known to match the selections. Use `init(jsonObject:)`
    /// for data from anywhere else.
    init(_dataDict: DataDict)
    /// The schema the selections were generated for: the store takes its cache-key rule from
    /// it. Every generated selection set gives it; `nil` for hand-written ones.
    static var __schema: SchemaMetadata? { get }
    /// `@catch(to:)` on the operation or fragment definition this selection set is the root of
    /// (`nil`: none; generated code gives it where one is written).
    static var __catchTarget: FieldErrorHandling.CatchTarget? { get }
}

extension SelectionSet {
    public static var __schema: SchemaMetadata? { nil }
}

/// The selection set of an operation's result (`Data`).
public protocol RootSelectionSet: SelectionSet {}

/// A named fragment, usable on its own and through the `fragments` of the selection sets that
/// spread it.
public protocol GraphQLFragment: SelectionSet {
    static var fragmentName: String { get }
    /// The fragment's definition as it appears in documents.
    static var fragmentDefinition: String { get }
}

/// The selection set of an inline fragment or type condition (`asHuman`).
public protocol InlineFragment: SelectionSet {}

/// The `fragments` accessor of a selection set that spreads named fragments.
public protocol FragmentContainer: Sendable, Hashable {
    var __data: DataDict { get }
    init(_dataDict: DataDict)
}

extension FragmentContainer {
    /// The spread fragment, viewing the same data.
    public func _toFragment<F: GraphQLFragment>() -> F { F(_dataDict: __data) }

    /// A fragment spread under a narrower type condition, `@include`/`@skip` or `@defer`: the
    /// fragment when the object's type matches and its unconditional fields are present.
    public func _toConditionalFragment<F: GraphQLFragment>() -> F? {
        guard __data.matches(F.__parentType, selections: F.__selections) else { return nil }
        return F(_dataDict: __data)
    }
}

extension SelectionSet {
    /// Checks a response object against the selections and wraps it. Variables decide
    /// `@include`/`@skip`; a conditional field whose variable is not given may be absent.
    /// A mismatch throws an error naming its path: `hero.friends[2].name: expected String, found Int 42`.
    /// Field errors in the object (``FieldErrorMarker``) read as `nil`, or as a failure under
    /// `@catch(to: RESULT)`; under `@throwOnFieldError` or `@required(action: THROW)` they throw.
    /// A `@required(action: NONE | LOG)` null that reaches the root throws too (there is no
    /// object to make); the client gives `data: nil` there instead.
    /// A `@catch` on the root (an operation's or fragment's) that caught a field error throws
    /// too, with the errors in `fieldErrors`.
    public init(jsonObject: JSONObject, variables: JSONObject = [:]) throws(SelectionSetDecodingError) {
        do {
            try SelectionPlanCache.plan(Self.__selections, parentType: Self.__parentType.name, variables: variables).validate(jsonObject)
        } catch {
            throw error.decodingError
        }
        let read = try Self._resolvingFieldErrorsCatching(checked: jsonObject, variables: variables)
        guard let data = read.data else {
            if Self.__catchTarget != nil {
                throw SelectionSetDecodingError(
                    path: ResponsePath(), expected: "an object", found: "a field error caught by @catch on the root",
                    fieldErrors: read.caught?.errors ?? [])
            }
            throw SelectionSetDecodingError(path: ResponsePath(), expected: "an object (a @required field was null)", found: "null")
        }
        self = data
    }

    /// The response object underneath, as received.
    public var jsonObject: JSONObject { __data.object }

    /// The object's runtime type: the response's `__typename`, or the selection set's own type
    /// when the response does not say (a concrete type needs none).
    public var __typename: String { __data.object["__typename"]?.stringValue ?? Self.__parentType.name }

    /// The data as the selection set of an inline fragment, when its type condition matches.
    public func _asInlineFragment<T: InlineFragment>() -> T? {
        let typename = __typename
        guard T.__parentType.matches(typename) else { return nil }
        return T(_dataDict: __data)
    }

    /// The data as an inline fragment with `@include`/`@skip` or `@defer`: when the type
    /// condition matches and the fragment's unconditional fields are present.
    public func _asConditionalInlineFragment<T: InlineFragment>() -> T? {
        guard __data.matches(T.__parentType, selections: T.__selections, defaultTypename: Self.__parentType.name) else { return nil }
        return T(_dataDict: __data)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.__data == rhs.__data }
    public func hash(into hasher: inout Hasher) { hasher.combine(__data) }

    public static func _fromJSON(_ value: JSONValue) -> Self? {
        guard case .object(let object) = value else { return nil }
        return Self(_dataDict: DataDict(object))
    }

    public var _selectionSetJSON: JSONValue { .object(__data.object) }
}

/// The response object underneath a selection set, with typed access for generated accessors.
public struct DataDict: Sendable, Hashable {
    /// The response object.
    public let object: JSONObject

    /// Wraps `object`, which must already match the selections.
    public init(_ object: JSONObject) {
        self.object = object
    }

    /// Whether the object's type satisfies the condition and every unconditional field the
    /// selections list directly is present.
    public func matches(_ condition: TypeCondition, selections: [Selection], defaultTypename: String? = nil) -> Bool {
        let typename = object["__typename"]?.stringValue ?? defaultTypename ?? condition.name
        guard condition.matches(typename) else { return false }
        for case .field(let field) in selections where field.conditions.isEmpty {
            if object[field.responseKey] == nil { return false }
        }
        return true
    }

    /// A field's value as the accessor's type. An absent field reads as `null`.
    public subscript<T: SelectionSetValue>(key: String) -> T {
        let value = object[key] ?? .null
        guard let typed = T._fromJSON(value) else {
            preconditionFailure("DataDict: \(key) holds \(value.kindDescription), not \(T.self); build selection sets with init(jsonObject:)")
        }
        return typed
    }
}

/// A type that a selection set's field can have: scalars, enums, nested selection sets, and
/// optionals and lists of them.
public protocol SelectionSetValue: Sendable {
    static func _fromJSON(_ value: JSONValue) -> Self?
}

extension String: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)  // an `ID` sent as a number
        default: return nil
        }
    }
}

extension Int: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> Int? { value.intValue }
}

extension Double: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> Double? { value.doubleValue }
}

extension Bool: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> Bool? { value.boolValue }
}

extension JSONValue: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> JSONValue? { value }
}

extension GraphQLEnum: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> GraphQLEnum<T>? {
        value.stringValue.map(GraphQLEnum.init(rawValue:))
    }
}

extension Optional: SelectionSetValue where Wrapped: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        // A field error kept in the data: the field reads as null, as the server sent it.
        if FieldErrorMarker.isMarker(value) { return .some(nil) }
        return Wrapped._fromJSON(value).map { .some($0) }
    }
}

extension Array: SelectionSetValue where Element: SelectionSetValue {
    public static func _fromJSON(_ value: JSONValue) -> [Element]? {
        guard case .list(let elements) = value else { return nil }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let typed = Element._fromJSON(element) else { return nil }
            result.append(typed)
        }
        return result
    }
}

extension SelectionSetValue where Self: CustomScalarType {
    public static func _fromJSON(_ value: JSONValue) -> Self? { try? Self(jsonValue: value) }
}
