/// What generated code knows about the schema's composite types: which are objects, which
/// objects each interface and union can be, and the fields that make an object's cache key
/// (from `@typePolicy(keyFields:)`). The store uses it for cache keys and type conditions.
public struct SchemaMetadata: Sendable, Hashable {
    /// Every object type's name.
    public let objectTypes: Set<String>
    /// Interface name → the object types implementing it.
    public let interfaces: [String: Set<String>]
    /// Union name → its member object types.
    public let unions: [String: Set<String>]
    private let keyFieldsByType: [String: [String]]

    public init(
        objectTypes: Set<String>, interfaces: [String: Set<String>] = [:], unions: [String: Set<String>] = [:],
        keyFields: [String: [String]] = [:]
    ) {
        self.objectTypes = objectTypes
        self.interfaces = interfaces
        self.unions = unions
        self.keyFieldsByType = keyFields
    }

    /// The object types a type can be at run time: itself for an object, its members for an
    /// interface or union, nothing for an unknown name.
    public func possibleTypes(of typeName: String) -> Set<String> {
        if objectTypes.contains(typeName) { return [typeName] }
        return interfaces[typeName] ?? unions[typeName] ?? []
    }

    /// The fields whose values identify an object of this type in the cache, or `nil` when the
    /// type declares none (the store then uses `id`).
    public func keyFields(for typeName: String) -> [String]? {
        keyFieldsByType[typeName]
    }

    /// The type condition of a type, for matching a response's `__typename`.
    public func typeCondition(_ typeName: String) -> TypeCondition {
        objectTypes.contains(typeName) ? TypeCondition(typeName) : TypeCondition(typeName, possibleTypes: possibleTypes(of: typeName))
    }
}
