import BatonAPI

/// Storage keys of fields with arguments, in relay-runtime's format: `name(arg:JSON,…)` with
/// arguments sorted by name, values as JSON with object keys sorted, null or absent arguments
/// dropped; with no arguments left, just `name`.
public enum StorageKey {
    /// `todos(first:10)`, `node(id:"1")`, `friends(first:1,orderby:["name"])`.
    public static func make(fieldName: String, arguments: [String: JSONValue]) -> String {
        var parts: [String] = []
        for name in arguments.keys.sorted() {
            guard let value = arguments[name], !value.isNull else { continue }
            parts.append(name + ":" + value.serializedString(sortedKeys: true))
        }
        if parts.isEmpty { return fieldName }
        return fieldName + "(" + parts.joined(separator: ",") + ")"
    }

    /// The storage key of a selected field, its variables resolved.
    public static func make(field: Field, variables: JSONObject) -> String {
        if field.arguments.isEmpty { return field.name }
        var resolved: [String: JSONValue] = [:]
        for (name, value) in field.arguments {
            if let json = value.resolve(with: variables) { resolved[name] = json }
        }
        return make(fieldName: field.name, arguments: resolved)
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
