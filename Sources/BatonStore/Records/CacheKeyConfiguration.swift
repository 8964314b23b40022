import BatonAPI

/// How the store finds an object's cache key: by default its `id` field (global IDs, as Relay
/// assumes); per type, a list of key fields, like Apollo's `@typePolicy(keyFields:)`, giving
/// `Typename:value` (several fields joined by `+`).
public struct CacheKeyConfiguration: Sendable, Hashable {
    /// Key fields per type name; types not listed use `defaultKeyField`.
    public var keyFields: [String: [String]]
    /// The field that holds a cache key for types without key fields; `nil` for none.
    public var defaultKeyField: String?

    public init(keyFields: [String: [String]] = [:], defaultKeyField: String? = "id") {
        self.keyFields = keyFields
        self.defaultKeyField = defaultKeyField
    }

    public static let `default` = CacheKeyConfiguration()

    /// The cache key of a response object, or `nil` when it has none.
    public func cacheKey(typename: String?, object: JSONObject) -> DataID? {
        if let typename, let fields = keyFields[typename], !fields.isEmpty {
            var values: [String] = []
            for field in fields {
                guard let value = object[field], let text = Self.keyText(value) else { return nil }
                values.append(text)
            }
            return DataID(typename + ":" + values.joined(separator: "+"))
        }
        guard let field = defaultKeyField, let value = object[field] else { return nil }
        return Self.keyText(value).map { DataID($0) }
    }

    private static func keyText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        case .null: return nil
        default: return value.serializedString(sortedKeys: true)
        }
    }
}
