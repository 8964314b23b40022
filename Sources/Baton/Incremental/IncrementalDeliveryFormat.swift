/// A format of incremental (`@defer`/`@stream`) responses the client asks for in `Accept`. The
/// client reads either format whatever it asked for.
public enum IncrementalDeliveryFormat: String, Sendable, Hashable, CaseIterable {
    /// The GraphQL spec draft as graphql-js 17 implements it (`pending`/`incremental`/`completed`
    /// with ids), asked for as Apollo Server does: `multipart/mixed;incrementalDeliverySpec=3283f8a`.
    case specDraft = "multipart/mixed;incrementalDeliverySpec=3283f8a"
    /// Apollo's format (`incremental: [{data, path, label}]`, `items` for `@stream`):
    /// `multipart/mixed;deferSpec=20220824`.
    case deferSpec20220824 = "multipart/mixed;deferSpec=20220824"

    /// The `Accept` media range that asks for this format.
    public var acceptRange: String { rawValue }
}
