/// A selection set whose properties have setters: what codegen writes for operations and
/// fragments marked `@apollo_client_ios_localCacheMutation`, to edit cached data with types.
/// Setting a property rewrites the response object underneath; the store writes the edits back
/// onto the records they were read from (`Store.update(_:_:)` in BatonStore).
public protocol MutableSelectionSet: SelectionSet, SelectionSetWritableValue {
    var __data: DataDict { get set }
}

extension MutableSelectionSet {
    /// The data as a mutable inline fragment's, when its type condition matches.
    public func _asMutableInlineFragment<T: MutableInlineFragment>() -> T? {
        let typename = __typename
        guard T.__parentType.matches(typename) else { return nil }
        return T(_dataDict: __data)
    }

    /// Takes an edited inline fragment's data back (the same object, seen through its type condition).
    public mutating func _setInlineFragment<T: MutableInlineFragment>(_ fragment: T?) {
        guard let fragment else { return }
        __data = fragment.__data
    }
}

/// The mutable `Data` of a local cache mutation.
public protocol MutableRootSelectionSet: RootSelectionSet, MutableSelectionSet {}

/// A fragment marked `@apollo_client_ios_localCacheMutation`.
public protocol MutableFragment: GraphQLFragment, MutableSelectionSet {}

/// An inline fragment of a mutable selection set.
public protocol MutableInlineFragment: InlineFragment, MutableSelectionSet {}

/// An operation marked `@apollo_client_ios_localCacheMutation`: never sent, only read from and
/// written back to the store, through its mutable `Data`.
public protocol LocalCacheMutation: GraphQLOperation where Data: MutableRootSelectionSet {}

extension LocalCacheMutation {
    /// A local cache mutation reads and writes like a query.
    public static var operationType: GraphQLOperationType { .query }
}

/// A value a mutable selection set's property can be set to, as it is written into the
/// response object. A custom scalar type conforms by declaring it (its `jsonValue` is used).
public protocol SelectionSetWritableValue: SelectionSetValue {
    var _selectionSetJSON: JSONValue { get }
}

extension String: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { .string(self) }
}

extension Int: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { .int(self) }
}

extension Double: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { .double(self) }
}

extension Bool: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { .bool(self) }
}

extension JSONValue: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { self }
}

extension GraphQLEnum: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { .string(rawValue) }
}

extension Optional: SelectionSetWritableValue where Wrapped: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { self?._selectionSetJSON ?? .null }
}

extension Array: SelectionSetWritableValue where Element: SelectionSetWritableValue {
    public var _selectionSetJSON: JSONValue { .list(map(\._selectionSetJSON)) }
}

extension SelectionSetWritableValue where Self: CustomScalarType {
    public var _selectionSetJSON: JSONValue { jsonValue }
}

extension DataDict {
    /// Sets a field of the object underneath (a mutable selection set's setter).
    public mutating func _set<T: SelectionSetWritableValue>(_ value: T, for key: String) {
        var object = self.object
        object[key] = value._selectionSetJSON
        self = DataDict(object)
    }
}
