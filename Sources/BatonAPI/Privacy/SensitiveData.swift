/// What must never reach a log or the persistent cache: header values such as `Authorization`,
/// and the values of variables named as sensitive (like Rails' `filter_parameters`).
///
/// A variable is sensitive when its name is in ``variableNames``; so is a field of an input
/// object, at any depth, whose name is there (`input: {email, password}` with `"password"`).
/// Boolean values are left alone: they steer `@include`/`@skip` and hold no secret.
///
/// ```swift
/// let sensitive = SensitiveData(variableNames: ["password", "token"])
/// let store = Store(cache: try SQLiteNormalizedCache(fileURL: url), sensitiveData: sensitive)
/// let client = BatonClient(url: endpoint, store: store, sensitiveData: sensitive)
/// ```
public struct SensitiveData: Sendable, Hashable {
    /// Header names whose values are redacted, lowercased.
    public var headerNames: Set<String>
    /// Variable and input-field names whose values are redacted.
    public var variableNames: Set<String>

    /// `headerNames` are added to ``defaultHeaderNames``.
    public init(headerNames: Set<String> = [], variableNames: Set<String> = []) {
        self.headerNames = Self.defaultHeaderNames.union(headerNames.map { $0.lowercased() })
        self.variableNames = variableNames
    }

    /// The headers always treated as secret.
    public static let defaultHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
    ]

    /// Only the default headers; no variable is sensitive.
    public static let `default` = SensitiveData()

    /// What redacted values read as in logs.
    public static let redactedMarker = "<redacted>"

    /// Whether the header `name` (any case) is secret.
    public func isSensitiveHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// Whether some variable or input field is sensitive at all.
    public var hasSensitiveVariables: Bool { !variableNames.isEmpty }

    /// `variables` with every sensitive value replaced by `replacement(value)`.
    public func redacting(_ variables: JSONObject, with replacement: (JSONValue) -> JSONValue) -> JSONObject {
        guard hasSensitiveVariables else { return variables }
        return redactingObject(variables, replacement)
    }

    /// `variables` with every sensitive value replaced by ``redactedMarker``, for logs.
    public func redactedForLogging(_ variables: JSONObject) -> JSONObject {
        redacting(variables) { _ in .string(Self.redactedMarker) }
    }

    /// The sensitive values found in `variables` (strings and numbers as text), so a log line
    /// built by someone else (an error description with a URL) can be scrubbed of them.
    public func sensitiveValues(in variables: JSONObject) -> [String] {
        var found: [String] = []
        _ = redacting(variables) { value in
            Self.collectScalars(value, into: &found)
            return value
        }
        return found
    }

    private func redactingObject(_ object: JSONObject, _ replacement: (JSONValue) -> JSONValue) -> JSONObject {
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(object.count)
        values.reserveCapacity(object.count)
        for (key, value) in object {
            keys.append(key)
            values.append(variableNames.contains(key) ? redactingValue(value, replacement) : descending(value, replacement))
        }
        return JSONObject(uniqueKeys: keys, values: values)
    }

    /// A sensitive value: scalars replaced, structure kept (a list of secrets stays a list).
    private func redactingValue(_ value: JSONValue, _ replacement: (JSONValue) -> JSONValue) -> JSONValue {
        switch value {
        case .null, .bool: value
        case .list(let items): .list(items.map { redactingValue($0, replacement) })
        default: replacement(value)
        }
    }

    /// A value that is not sensitive itself but may hold sensitive input fields.
    private func descending(_ value: JSONValue, _ replacement: (JSONValue) -> JSONValue) -> JSONValue {
        switch value {
        case .object(let object): .object(redactingObject(object, replacement))
        case .list(let items): .list(items.map { descending($0, replacement) })
        default: value
        }
    }

    private static func collectScalars(_ value: JSONValue, into found: inout [String]) {
        switch value {
        case .string(let string): if !string.isEmpty { found.append(string) }
        case .object(let object): for (_, member) in object { collectScalars(member, into: &found) }
        case .list(let items): for item in items { collectScalars(item, into: &found) }
        case .null, .bool: break
        default: found.append(value.serializedString())
        }
    }
}
