import BatonAPI
import BatonStore
import Observation

/// A `@refetchable` fragment kept live for a view, Relay's `useRefetchableFragment`: `data`
/// follows the store, and ``refetch(_:)`` fetches the fragment's object again with new values for
/// its variables (typed: the fragment's generated `Variables`), then follows the fragment with
/// them. State changes on the main actor.
///
/// ```swift
/// let user = RefetchObserver<TodoListPagination_user>(client: client, reference: viewer)
/// try await user.refetch(.init(count: 5))
/// print(user.data?.todos.edges?.count ?? 0, user.isRefetching)   // observable
/// ```
///
/// In SwiftUI, `@RefetchableFragment` keeps one in the view's state.
@MainActor
@Observable
public final class RefetchObserver<F: GraphQLRefetchableFragment> {
    /// Whether a ``refetch(_:)`` is under way. Observable.
    public private(set) var isRefetching = false
    /// The typed variables of the last ``refetch(_:)``; `nil` before one (the fragment is read
    /// with those it was loaded with).
    public private(set) var variables: F.Variables?

    let fragment = FragmentObserver<F>()

    /// Follows the fragment on the object `reference` stands for, with `variables` (`nil`: the
    /// fragment's defaults; pass the values the spread gave with `@arguments` when they differ).
    public init(client: BatonClient, reference: some SelectionSet, variables: F.Variables? = nil) {
        load(reference, client: client, variables: variables)
    }

    /// An observer that follows nothing until ``load(_:client:variables:)``.
    public init() {}

    /// The fragment as the store holds it now; `nil` while the store lacks its data. Observable.
    public var data: F? { fragment.data }
    /// Why there is no data to follow (a reference without a record ID). Observable.
    public var error: (any Error)? { fragment.error }
    /// The record followed.
    public var recordID: DataID? { fragment.recordID }

    /// Follows the fragment on the object `reference` stands for (nothing happens when it
    /// already does, with the same variables).
    public func load(_ reference: some SelectionSet, client: BatonClient, variables: F.Variables? = nil) {
        fragment.load(reference, client: client, variables: variables?.variablesJSON ?? [:])
    }

    /// What the SwiftUI wrappers call before each view update (the environment's client, if any).
    func load(_ reference: some SelectionSet, client: BatonClient?, variables: F.Variables?) {
        fragment.load(reference, client: client, variables: variables?.variablesJSON ?? [:])
    }

    /// Fetches the fragment's object again with `variables` (all of them: those left out of the
    /// initializer take the fragment's defaults), then follows the fragment with them. A
    /// transport failure throws; GraphQL errors come back in the result.
    @discardableResult
    public func refetch(_ variables: F.Variables) async throws -> GraphQLResult<F.RefetchQuery.Data> {
        isRefetching = true
        defer { isRefetching = false }
        let values = BatonClient.fragmentVariables(F.self, variables.variablesJSON)
        let result = try await fetch(values)
        self.variables = variables
        if let client = fragment.client, let id = fragment.recordID { fragment.load(id: id, client: client, variables: values) }
        return result
    }

    /// Runs the refetch query with the fragment's variables `values` (the object's id added for
    /// `node(id:)`), from the server, publishing to the store.
    func fetch(_ values: JSONObject) async throws -> GraphQLResult<F.RefetchQuery.Data> {
        guard let client = fragment.client, let recordID = fragment.recordID else {
            throw fragment.error
                ?? BatonError.fragmentReference(fragmentName: F.fragmentName, reason: "the observer follows no object yet")
        }
        var queryValues = values
        if F.refetchRoot == .node {
            guard let id = fragment.data?.jsonObject["id"] else {
                throw BatonError.fragmentReference(fragmentName: F.fragmentName, reason: "no id to refetch \(recordID.rawValue) with yet")
            }
            queryValues["id"] = id
        }
        return try await client.fetch(query: RefetchOperation<F.RefetchQuery>(values: queryValues), cachePolicy: .fetchIgnoringCacheData)
    }
}
