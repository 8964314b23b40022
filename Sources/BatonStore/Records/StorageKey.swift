import BatonAPI

/// Storage keys of fields with arguments, in relay-runtime's format: `name(arg:JSON,…)` with
/// arguments sorted by name, values as JSON with object keys sorted, null or absent arguments
/// dropped; with no arguments left, just `name`.
public enum StorageKey {
    /// `todos(first:10)`, `node(id:"1")`, `friends(first:1,orderby:["name"])`.
    public static func make(fieldName: String, arguments: [String: JSONValue]) -> String {
        FieldKeys.storageKey(fieldName: fieldName, arguments: arguments)
    }

    /// The storage key of a selected field, its variables resolved.
    public static func make(field: Field, variables: JSONObject) -> String {
        FieldKeys.storageKey(of: field, variables: variables)
    }
}

/// Client IDs for objects without a cache key, exactly as relay-runtime makes them.
public enum ClientID {
    /// `client:<parentID>:<storageKey>`, plus `:<index>` for an item of a list.
    public static func make(parentID: DataID, storageKey: String, index: Int? = nil) -> DataID {
        let parent = parentID.rawValue
        let prefixed = parent.hasPrefix("client:")
        let suffix = index.map { ":" + String($0) } ?? ""
        var raw = ""
        raw.reserveCapacity((prefixed ? 0 : 7) + parent.utf8.count + 1 + storageKey.utf8.count + suffix.utf8.count)
        if !prefixed { raw += "client:" }
        raw += parent
        raw += ":"
        raw += storageKey
        raw += suffix
        return DataID(raw)
    }
}
