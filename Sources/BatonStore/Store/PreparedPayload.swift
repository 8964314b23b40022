import BatonAPI

/// A server payload checked and normalized for an operation by ``Store/prepare(data:for:errors:)``,
/// ready to publish. Made without the store's lock.
public struct PreparedPayload: Sendable {
    let payload: NormalizedPayload

    /// The payload's data in the store's shape: the record ID filled in under each `__id` the
    /// selections ask for. (`@connection` fields are as the server sent this page; the store's
    /// read gives the merged connection.)
    public var data: JSONObject { payload.shapedData }
}
