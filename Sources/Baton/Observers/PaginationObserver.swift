import BatonAPI
import BatonStore
import Observation

/// A paginated fragment kept live for a view, Relay's `usePaginationFragment`: `data` is the
/// fragment with every page loaded so far; ``loadNext(_:)`` and ``loadPrevious(_:)`` run the
/// fragment's refetch query from the connection's end or start cursor, and the store merges the
/// page into the connection; ``refetch(_:)`` starts over with new typed variables. Every property
/// is observable and changes on the main actor.
///
/// ```swift
/// let todos = try client.paginate(TodoListPagination_user.self, from: result.data!.viewer!)
/// try await todos.loadNext(10)
/// print(todos.data?.todos.edges?.count ?? 0, todos.hasNext, todos.isLoadingNext)
/// ```
///
/// In SwiftUI, `@PaginationFragment` keeps one in the view's state.
@MainActor
@Observable
public final class PaginationObserver<F: PaginatedFragment> {
    /// Whether a ``loadNext(_:)`` is under way. Observable.
    public private(set) var isLoadingNext = false
    /// Whether a ``loadPrevious(_:)`` is under way. Observable.
    public private(set) var isLoadingPrevious = false

    private let refetcher = RefetchObserver<F>()

    /// Follows the fragment on the object `reference` stands for, with `variables` (`nil`: the
    /// fragment's defaults; pass the values the spread gave with `@arguments` when they differ).
    public init(client: BatonClient, reference: some SelectionSet, variables: F.Variables? = nil) {
        refetcher.load(reference, client: client, variables: variables)
    }

    /// An observer that follows nothing until ``load(_:client:variables:)``.
    public init() {}

    /// Follows the fragment on the object `reference` stands for (nothing happens when it
    /// already does, with the same variables).
    public func load(_ reference: some SelectionSet, client: BatonClient, variables: F.Variables? = nil) {
        refetcher.load(reference, client: client, variables: variables)
    }

    /// What `@PaginationFragment` calls before each view update (the environment's client, if any).
    func load(_ reference: some SelectionSet, client: BatonClient?, variables: F.Variables?) {
        refetcher.load(reference, client: client, variables: variables)
    }

    /// The fragment with every page loaded so far; `nil` while the store lacks its data. Observable.
    public var data: F? { refetcher.data }
    /// Why there is no data to follow (a reference without a record ID). Observable.
    public var error: (any Error)? { refetcher.error }
    /// The record the fragment is read from.
    public var recordID: DataID? { refetcher.recordID }
    /// Whether a ``refetch(_:)`` is under way. Observable.
    public var isRefetching: Bool { refetcher.isRefetching }
    /// The typed variables of the last ``refetch(_:)``; `nil` before one.
    public var variables: F.Variables? { refetcher.variables }
    /// Whether the server has more items after the last one loaded. Observable (through `data`).
    public var hasNext: Bool { pageInfo("hasNextPage")?.boolValue ?? false }
    /// Whether the server has more items before the first one loaded. Observable (through `data`).
    public var hasPrevious: Bool { pageInfo("hasPreviousPage")?.boolValue ?? false }

    /// Loads `count` more items after the last one. Does nothing (and returns `nil`) while a
    /// previous `loadNext` is loading. A transport failure throws; GraphQL errors come back in
    /// the result.
    @discardableResult
    public func loadNext(_ count: Int) async throws -> GraphQLResult<F.RefetchQuery.Data>? {
        guard let forward = F.connection.forward else {
            throw BatonError.fragmentReference(
                fragmentName: F.fragmentName, reason: "its @connection has no first/after variables to page forward")
        }
        guard !isLoadingNext else { return nil }
        isLoadingNext = true
        defer { isLoadingNext = false }
        return try await load(count: count, variables: forward, cursor: pageInfo("endCursor"))
    }

    /// Loads `count` more items before the first one. Does nothing (and returns `nil`) while a
    /// previous `loadPrevious` is loading.
    @discardableResult
    public func loadPrevious(_ count: Int) async throws -> GraphQLResult<F.RefetchQuery.Data>? {
        guard let backward = F.connection.backward else {
            throw BatonError.fragmentReference(
                fragmentName: F.fragmentName, reason: "its @connection has no last/before variables to page backward")
        }
        guard !isLoadingPrevious else { return nil }
        isLoadingPrevious = true
        defer { isLoadingPrevious = false }
        return try await load(count: count, variables: backward, cursor: pageInfo("startCursor"))
    }

    /// Fetches the fragment again with `variables`, from the first page (unless they give a
    /// cursor): the connection is replaced by what the server returns.
    @discardableResult
    public func refetch(_ variables: F.Variables) async throws -> GraphQLResult<F.RefetchQuery.Data> {
        try await refetcher.refetch(variables)
    }

    // MARK: -

    private typealias PageResult = GraphQLResult<F.RefetchQuery.Data>

    private func load(count: Int, variables pagination: PaginationVariables, cursor: JSONValue?) async throws -> PageResult {
        var values = refetcher.fragment.currentVariables
        values[pagination.count] = .int(count)
        values[pagination.cursor] = cursor ?? .null
        let result = try await refetcher.fetch(values)
        refetcher.fragment.refresh()
        return result
    }

    /// A value of the connection's `pageInfo` in the current data.
    private func pageInfo(_ key: String) -> JSONValue? {
        guard var value = data.map({ JSONValue.object($0.jsonObject) }) else { return nil }
        for step in F.connection.path + ["pageInfo"] {
            guard let next = value.objectValue?[step] else { return nil }
            value = next
        }
        return value.objectValue?[key]
    }
}
