/// What generated code knows about the schema's composite types: which are objects, which
/// objects each interface and union can be, the fields that make an object's cache key (from
/// `@typePolicy(keyFields:)`), and whether the schema promises IDs unique across types (Relay's
/// `Node` contract). The store takes its cache-key rule from it (see `CacheKeyConfiguration`).
public struct SchemaMetadata: Sendable, Hashable {
    /// Every object type's name.
    public let objectTypes: Set<String>
    /// Interface name → the object types implementing it.
    public let interfaces: [String: Set<String>]
    /// Union name → its member object types.
    public let unions: [String: Set<String>]
    /// The interface whose implementers' `id`s are unique across the whole schema: `Node` when
    /// the schema declares `interface Node { id: ID! }` and a root field `node(id: ID!): Node`
    /// (Relay's global object identification). `nil` when IDs are unique per type only.
    public let globalIDInterface: String?
    private let keyFieldsByType: [String: [String]]
    /// Key fields per object type: its own, else those of an interface it implements.
    public let objectKeyFields: [String: [String]]
    /// The types whose `id` is a cache key on its own: `globalIDInterface` and its implementers.
    public let globalIDTypes: Set<String>
    /// What the schema's Apollo cache directives say: embedded fields, key arguments, max ages.
    public let cacheDirectives: CacheDirectives

    /// Metadata; generated code makes it from the schema.
    public init(
        objectTypes: Set<String>, interfaces: [String: Set<String>] = [:], unions: [String: Set<String>] = [:],
        keyFields: [String: [String]] = [:], globalIDInterface: String? = nil, cacheDirectives: CacheDirectives = CacheDirectives()
    ) {
        self.cacheDirectives = cacheDirectives
        self.objectTypes = objectTypes
        self.interfaces = interfaces
        self.unions = unions
        self.keyFieldsByType = keyFields
        self.globalIDInterface = globalIDInterface
        var resolved: [String: [String]] = [:]
        for (typeName, fields) in keyFields where objectTypes.contains(typeName) { resolved[typeName] = fields }
        // An interface's key fields apply to implementers without their own (the first
        // interface by name wins, so the rule is deterministic).
        for interface in interfaces.keys.sorted() {
            guard let fields = keyFields[interface] else { continue }
            for object in interfaces[interface] ?? [] where resolved[object] == nil { resolved[object] = fields }
        }
        objectKeyFields = resolved
        if let globalIDInterface {
            globalIDTypes = (interfaces[globalIDInterface] ?? []).union([globalIDInterface])
        } else {
            globalIDTypes = []
        }
    }

    /// The object types a type can be at run time: itself for an object, its members for an
    /// interface or union, nothing for an unknown name.
    public func possibleTypes(of typeName: String) -> Set<String> {
        if objectTypes.contains(typeName) { return [typeName] }
        return interfaces[typeName] ?? unions[typeName] ?? []
    }

    /// The fields whose values identify an object of this type in the cache, or `nil` when the
    /// type declares none (the store then uses `id`). An object type without key fields of its
    /// own takes those of an interface it implements.
    public func keyFields(for typeName: String) -> [String]? {
        keyFieldsByType[typeName] ?? objectKeyFields[typeName]
    }

    /// The type condition of a type, for matching a response's `__typename`.
    public func typeCondition(_ typeName: String) -> TypeCondition {
        objectTypes.contains(typeName) ? TypeCondition(typeName) : TypeCondition(typeName, possibleTypes: possibleTypes(of: typeName))
    }
}
