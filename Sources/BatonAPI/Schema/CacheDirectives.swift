/// What the schema's Apollo cache directives say, as generated code states it in
/// ``SchemaMetadata/cacheDirectives``: `@typePolicy(embeddedFields:)`, `@fieldPolicy(forField:,
/// keyArgs:)`, `@cacheControl(maxAge:, inheritMaxAge:)` and `@cacheControlField(name:, maxAge:,
/// inheritMaxAge:)`.
public struct CacheDirectives: Sendable, Hashable {
    /// Fields whose objects are stored inside the parent's record rather than in a record of
    /// their own, by parent type.
    public let embeddedFields: [String: Set<String>]
    /// The arguments that give the cache key of the object a field returns, by parent type and
    /// field: with `keyArgs: "id"` on `Query.book`, `book(id: 1)` is the record `Book:1`.
    public let keyArgs: [String: [String: [String]]]
    /// Max ages in seconds by type.
    public let typeMaxAge: [String: Int]
    /// Max ages in seconds by parent type and field.
    public let fieldMaxAge: [String: [String: Int]]
    /// Types whose fields take the max age of the field that leads to them rather than the
    /// default: `@cacheControl(inheritMaxAge: true)` on a type.
    public let inheritMaxAgeTypes: Set<String>
    /// Fields that take the max age of the field that leads to their parent, by parent type:
    /// `@cacheControl(inheritMaxAge: true)` on a field.
    public let inheritMaxAgeFields: [String: Set<String>]

    /// Directives; generated code makes them from the schema.
    public init(
        embeddedFields: [String: Set<String>] = [:], keyArgs: [String: [String: [String]]] = [:], typeMaxAge: [String: Int] = [:],
        fieldMaxAge: [String: [String: Int]] = [:], inheritMaxAgeTypes: Set<String> = [], inheritMaxAgeFields: [String: Set<String>] = [:]
    ) {
        self.embeddedFields = embeddedFields
        self.keyArgs = keyArgs
        self.typeMaxAge = typeMaxAge
        self.fieldMaxAge = fieldMaxAge
        self.inheritMaxAgeTypes = inheritMaxAgeTypes
        self.inheritMaxAgeFields = inheritMaxAgeFields
    }

    /// Whether the schema says nothing.
    public var isEmpty: Bool { embeddedFields.isEmpty && keyArgs.isEmpty && !statesMaxAges }

    /// Whether the schema says anything about max ages.
    public var statesMaxAges: Bool {
        !(typeMaxAge.isEmpty && fieldMaxAge.isEmpty && inheritMaxAgeTypes.isEmpty && inheritMaxAgeFields.isEmpty)
    }

    /// Whether `field` of `parentType` is stored inside its parent's record.
    public func isEmbedded(_ field: String, on parentType: String) -> Bool {
        embeddedFields[parentType]?.contains(field) ?? false
    }

    /// The key arguments of `field` of `parentType`, when `@fieldPolicy` gives some.
    public func keyArguments(of field: String, on parentType: String) -> [String]? {
        guard let arguments = keyArgs[parentType]?[field], !arguments.isEmpty else { return nil }
        return arguments
    }

    /// The max age of `field` of `parentType` returning `returnType`: the field's own, else its
    /// type's (Apollo's rule for a field without `@cacheControl`), else `nil`.
    public func maxAge(of field: String, on parentType: String, returning returnType: String? = nil) -> Int? {
        fieldMaxAge[parentType]?[field] ?? returnType.flatMap { typeMaxAge[$0] }
    }
}
