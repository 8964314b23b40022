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

/// A server's whole response body read by ``Store/prepare(responseBody:for:)``.
package struct PreparedResponse: Sendable {
    /// The body's members, in order. Its `data` is in the store's shape (record IDs under
    /// `__id`, where the selections ask for them) when it was read from the bytes.
    package let body: JSONObject
    /// The body's `data`, checked and normalized, or how it does not match the selections;
    /// `nil` when the body has no data object.
    package let payload: Result<PreparedPayload, SelectionSetDecodingError>?
    /// Whether `data` was read in the executor's walk over the bytes (the regular case), not
    /// parsed first and walked as a tree.
    package let readFromBytes: Bool
    /// The descriptor the body was read for, as it was given (the receive takes it instead of
    /// making the operation's descriptor again).
    package let descriptor: OperationDescriptor
}
