/// Where the store keeps a selected field: relay-runtime's storage keys and connection keys. The
/// store's `StorageKey` and `ConnectionHandler` give them to users; the selection plan computes
/// them once per field.
package enum FieldKeys {
    /// The arguments of a connection field that select a page, not the connection.
    package static let paginationArguments: Set<String> = ["first", "last", "after", "before"]

    /// `name(arg:JSON,…)` with arguments sorted by name, values as JSON with object keys sorted,
    /// null or absent arguments dropped; with no arguments left, just `name`.
    package static func storageKey(fieldName: String, arguments: [String: JSONValue]) -> String {
        var parts: [String] = []
        for name in arguments.keys.sorted() {
            guard let value = arguments[name], !value.isNull else { continue }
            parts.append(name + ":" + value.serializedString(sortedKeys: true))
        }
        if parts.isEmpty { return fieldName }
        return fieldName + "(" + parts.joined(separator: ",") + ")"
    }

    /// The storage key of a selected field, its variables resolved.
    package static func storageKey(of field: Field, variables: JSONObject) -> String {
        // Worked out per plan, not once per field: a key string shared by every plan has its
        // reference count written by every thread that executes the operation. Tried: with keys
        // made once per field, two publishers used about 3.0 s of CPU where they use 2.5 s
        // (`baton-bench --profile twoPublishers 100`, on a machine noisy within ±20%).
        if field.arguments.isEmpty { return field.name }
        var resolved: [String: JSONValue] = [:]
        for (name, value) in field.arguments {
            if let json = value.resolve(with: variables) { resolved[name] = json }
        }
        return storageKey(fieldName: field.name, arguments: resolved)
    }

    /// The key of a connection's record on its parent: `__<key>_connection(filters…)`.
    package static func connectionKey(key: String, filters: [String: JSONValue]) -> String {
        storageKey(fieldName: "__\(key)_connection", arguments: filters)
    }

    /// The values of a connection field's filter arguments: those `filters` names, or every
    /// argument but the pagination ones when it names none.
    package static func connectionFilterValues(field: Field, filters: [String]?, variables: JSONObject) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for (name, argument) in field.arguments {
            if let filters {
                guard filters.contains(name) else { continue }
            } else if paginationArguments.contains(name) {
                continue
            }
            if let value = argument.resolve(with: variables) { values[name] = value }
        }
        return values
    }

    /// Where a field is read from: its storage key, or for a `@connection` field the connection
    /// record that the connection handler keeps.
    package static func readKey(of field: Field, variables: JSONObject, storageKey: String? = nil) -> String {
        for directive in field.directives {
            if case .connection(let key, let filters) = directive {
                return connectionKey(
                    key: key, filters: connectionFilterValues(field: field, filters: filters, variables: variables))
            }
        }
        return storageKey ?? Self.storageKey(of: field, variables: variables)
    }
}
