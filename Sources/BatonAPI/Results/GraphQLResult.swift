/// The result of an operation: typed data, any GraphQL errors alongside it, the response's
/// extensions, and where it came from.
public struct GraphQLResult<Data: RootSelectionSet>: Sendable {
    /// Where a result came from.
    public enum Source: Sendable, Hashable {
        case cache
        case server
    }

    /// The data; `nil` when the server returned none (an error before or during execution).
    public let data: Data?
    /// The response's errors, `nil` when it had none.
    public let errors: [GraphQLError]?
    /// The response's `extensions`.
    public let extensions: JSONObject?
    /// Whether the data came from the store or the server.
    public let source: Source
    /// For a result from the store: whether some of its data is stale (past its max age, or
    /// invalidated). A server's result is never stale.
    public let isStale: Bool
    /// For an operation under `@catch(to: RESULT)` whose data read as `nil` for a field error
    /// (or a `@required`/`@throwOnFieldError` failure): what was caught. See `catchResult`.
    public let caughtFieldError: GraphQLFieldError?
    /// For a watch's result from the store: the failure of its read by `@required(action: THROW)`
    /// or `@throwOnFieldError` (the result's `errors` say so too), for observers to surface.
    package var readFailure: SelectionSetDecodingError?

    /// A result; the client makes these.
    public init(
        data: Data?, errors: [GraphQLError]?, extensions: JSONObject?, source: Source, isStale: Bool = false,
        caughtFieldError: GraphQLFieldError? = nil
    ) {
        self.data = data
        self.errors = errors
        self.extensions = extensions
        self.source = source
        self.isStale = isStale
        self.caughtFieldError = caughtFieldError
    }
}
