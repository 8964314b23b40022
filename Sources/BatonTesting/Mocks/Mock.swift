import BatonAPI

/// Any test mock, whatever its object type: what a field of interface or union type holds (the
/// concrete mock decides the object's `__typename`), and what `SelectionSet.from(_:variables:)` reads.
public protocol AnyMock: Sendable {
    /// The object type the mock stands for.
    var __typename: String { get }
    /// The value set for a field, by the field's schema name; `nil` when unset.
    func _value(forField name: String) -> (any Sendable)?
}

/// A mock object of type `O` for tests: its fields are set by name, with their Swift types, and
/// any operation's or fragment's data is built from it with `Data.from(mock)`.
///
/// ```swift
/// var luke = Mock<Human>(name: "Luke Skywalker")
/// luke.friends = [Mock<Droid>(name: "R2-D2", primaryFunction: "Astromech")]
/// let query = Mock<Query>(hero: luke)
/// let data = try HeroAndFriendsQuery.Data.from(query)
/// ```
///
/// Unlike Apollo iOS's `Mock` (a class), a `Mock` is a value: copies are independent, and it is
/// `Sendable` as it is. A field not set reads as `nil`, and becomes `null` in built data when the
/// field is nullable (a non-null field not set is an error naming its path).
@dynamicMemberLookup
public struct Mock<O: MockObject>: AnyMock {
    private var values: [String: any Sendable] = [:]

    /// A mock with no field set.
    public init() {}

    /// The object type's name.
    public var __typename: String { O.__typename }

    /// A field's value: `mock.name`, `mock.friends = [Mock<Droid>(…)]`. Setting `nil` unsets it.
    public subscript<T: Sendable>(dynamicMember field: KeyPath<O.MockFields, MockField<T>>) -> T? {
        get { values[O._mockFields[keyPath: field].name] as? T }
        set { values[O._mockFields[keyPath: field].name] = newValue }
    }

    public func _value(forField name: String) -> (any Sendable)? {
        values[name]
    }

    /// Sets a field by its schema name, to any value (a test of what a malformed mock does).
    public mutating func _setValue(_ value: (any Sendable)?, forField name: String) {
        values[name] = value
    }
}
