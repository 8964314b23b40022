import BatonAPI

/// A field of a response that carries a client directive, found while normalizing.
public struct HandleInvocation: Sendable {
    /// The record holding the field.
    public let parentID: DataID
    public let field: Field
    /// Where the server's value of the field is stored on the parent.
    public let storageKey: String
    /// The field's value in the response.
    public let value: JSONValue
    public let directive: ClientDirective
}

/// Turns a response into record changes without checking it: each object with a cache key
/// becomes the record of that key, others get client IDs from their parent and field; scalars are
/// stored by storage key, objects as links. A null at a path where the response reports an error
/// is not written, so a failed field never overwrites good data with null. It is the store's one
/// executor (`ResponseExecutor`) with its checks off; the client and the store check payloads
/// in the same walk that normalizes them.
public enum ResponseNormalizer {
    /// Normalizes `data` (the response's `data`, or any object) read with `selections` into
    /// records, the object itself stored as `rootID`.
    public static func normalize(
        _ data: JSONObject, selections: [Selection], rootID: DataID = .rootID, rootType: String,
        variables: JSONObject = [:], cacheKeys: CacheKeyConfiguration = .default, errors: [GraphQLError] = []
    ) -> RecordSource {
        normalizeWithHandles(
            data, selections: selections, rootID: rootID, rootType: rootType, variables: variables, cacheKeys: cacheKeys,
            errors: errors
        ).changes
    }

    /// Normalizes and also returns the fields that carry client directives (`@connection`, the
    /// mutation directives), in response order, for their handlers to run on the result.
    public static func normalizeWithHandles(
        _ data: JSONObject, selections: [Selection], rootID: DataID = .rootID, rootType: String,
        variables: JSONObject = [:], cacheKeys: CacheKeyConfiguration = .default, errors: [GraphQLError] = []
    ) -> (changes: RecordSource, handles: [HandleInvocation]) {
        // Unchecked: nothing can throw.
        guard
            let result = try? ResponseExecutor.execute(
                data, selections: selections, rootID: rootID, rootType: rootType, variables: variables, cacheKeys: cacheKeys,
                checks: .none, errors: errors)
        else { return (RecordSource(), []) }
        return (result.records, result.handles)
    }
}
