import BatonAPI

/// How the store finds an object's cache key (its record ID), Apollo's and Relay's rules in one:
///
/// 1. A type with key fields (`@typePolicy(keyFields:)`, or given here): `Typename:value`,
///    several values joined by `+` (a `\` or `+` inside a value escaped with `\`).
/// 2. Otherwise its `id` field: the bare `id` when the schema promises IDs unique across types
///    (Relay's `Node` contract, for `Node` and its implementers), else `Typename:id`, safe when
///    IDs are unique per type only, as in most schemas.
/// 3. Only strings and integers make keys; an object whose key value is anything else (a boolean,
///    float, object, list or null) has no cache key and gets a client ID from its place.
///
/// A client made from generated operations takes this from the generated `SchemaMetadata` with
/// no code of yours; a `Store(cacheKeys:)` given one uses it instead, for every operation.
public struct CacheKeyConfiguration: Sendable, Hashable {
    /// Which types' `id` is a cache key on its own.
    public enum GlobalIDs: Sendable, Hashable {
        /// None: every `id` is qualified by its typename, `Typename:id` (Apollo iOS's form).
        case none
        /// Every type's: the bare `id` (relay-runtime's default; IDs must be unique across types).
        case all
        /// These types' (the `Node` interface and its implementers); others get `Typename:id`.
        case only(Set<String>)
    }

    /// Key fields per type name; types not listed use `defaultKeyField`.
    public var keyFields: [String: [String]]
    /// The field that holds a cache key for types without key fields; `nil` for none.
    public var defaultKeyField: String?
    /// Which types' `defaultKeyField` value is a key without the typename in front.
    public var globalIDs: GlobalIDs

    public init(keyFields: [String: [String]] = [:], defaultKeyField: String? = "id", globalIDs: GlobalIDs = .none) {
        self.keyFields = keyFields
        self.defaultKeyField = defaultKeyField
        self.globalIDs = globalIDs
    }

    /// The rule a generated schema declares: its `@typePolicy(keyFields:)` key fields (an
    /// interface's apply to its implementers), and bare IDs for the global-ID interface's types.
    public init(schema: SchemaMetadata) {
        self.init(
            keyFields: schema.objectKeyFields, defaultKeyField: "id",
            globalIDs: schema.globalIDInterface == nil ? .none : .only(schema.globalIDTypes))
    }

    /// `Typename:id` for every type: safe whatever the schema.
    public static let `default` = CacheKeyConfiguration()
    /// relay-runtime's rule: the bare `id` of every type.
    public static let globalIDs = CacheKeyConfiguration(globalIDs: .all)

    /// The cache key of a response object of type `typename`, or `nil` when it has none.
    public func cacheKey(typename: String?, object: JSONObject) -> DataID? {
        // Most schemas declare no key fields: no lookup (and no hash of the typename) then.
        if !keyFields.isEmpty, let typename, let fields = keyFields[typename], !fields.isEmpty {
            var values: [String] = []
            values.reserveCapacity(fields.count)
            for field in fields {
                guard let value = object[field], let text = Self.keyText(value) else { return nil }
                values.append(Self.escaped(text))
            }
            return DataID(typename + ":" + values.joined(separator: "+"))
        }
        guard let field = defaultKeyField, let value = object[field], let text = Self.keyText(value) else { return nil }
        switch globalIDs {
        case .all:
            return DataID(text)
        case .only(let types) where typename.map(types.contains) ?? false:
            return DataID(text)
        case .none, .only:
            guard let typename else { return nil }
            return DataID(typename + ":" + text)
        }
    }

    /// A key-field value with `\` and `+` escaped (as Apollo iOS does), so that different
    /// values never join into the same key: `["a+b", "c"]` and `["a", "b+c"]` stay apart.
    private static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "+") }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 2)
        for character in text {
            if character == "\\" || character == "+" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A key value's text: strings and integers only, as Apollo iOS takes them.
    private static func keyText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        default: return nil
        }
    }
}
