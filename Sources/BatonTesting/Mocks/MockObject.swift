import BatonAPI

/// An object type of the schema as test mocks see it: generated per object type the documents
/// select (`public enum Droid: MockObject` in the mocks' output), named by `Mock<Droid>`.
///
/// The type is a marker: it has no instances. ``MockFields`` lists the fields a mock of it
/// sets, each a ``MockField`` that `Mock`'s dynamic member lookup reads and writes.
public protocol MockObject: Sendable {
    /// The generated struct of the type's fields: one ``MockField`` property per field.
    associatedtype MockFields: Sendable
    /// The object type's name: a mock's `__typename`.
    static var __typename: String { get }
    /// The type's fields, for `Mock`'s dynamic member lookup.
    static var _mockFields: MockFields { get }
}

/// A field of a ``MockObject``: its name in the schema and, as `Value`, the Swift type a mock
/// holds for it (`String`, `GraphQLEnum<Episode>`, `Mock<Droid>`, `any AnyMock` for an interface
/// or union, lists of them).
public struct MockField<Value>: Sendable {
    /// The field's name in the schema (a mock answers every alias of it).
    public let name: String

    /// The field named `name`.
    public init(_ name: String) {
        self.name = name
    }
}
