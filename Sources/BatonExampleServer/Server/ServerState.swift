/// The in-memory state of one running server; two servers never share one.
final class ServerState: Sendable {
    let starWars = StarWarsStore()
    let posts = PostStore()
    let users = UserStore()
    /// Persisted queries: automatic by default, or a fixed manifest.
    let persistedQueries: PersistedQueryStore

    init(persistedQueries: PersistedQueryStore = PersistedQueryStore()) {
        self.persistedQueries = persistedQueries
    }
    /// Todos as `changeTodoStatus` leaves them, for `Subscription.todoChanged`.
    let todoChanges = EventBroadcaster<Todo>()
}

/// The context of one request, passed to every resolver.
struct ResolverContext: Sendable {
    let state: ServerState
    /// The request's `Authorization` header.
    let authorization: String?
    /// The files of a multipart upload, by their field name.
    var uploads: [String: UploadedFile] = [:]

    /// The user whose token is in the `Authorization` header.
    var user: User? { state.users.user(authorization: authorization) }
}
