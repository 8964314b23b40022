import BatonAPI
import BatonStore
import Observation

/// A paginated fragment kept live from the store, Relay's `usePaginationFragment`: `data` is the
/// fragment with every page loaded so far; `loadNext`/`loadPrevious` run the fragment's refetch
/// query from the connection's end or start cursor, and the store merges the page into the
/// connection. `data`, `hasNext`, `hasPrevious`, `isLoadingNext` and `isLoadingPrevious` are
/// observable.
///
/// ```swift
/// let todos = try client.paginate(TodoList_user.self, from: result.data!.viewer!)
/// try await todos.loadNext(10)
/// print(todos.data?.todos.edges?.count ?? 0, todos.hasNext)
/// ```
public final class FragmentPagination<F: PaginatedFragment>: Observable, Sendable {
    /// The client that fetches the pages and whose store holds them.
    public let client: BatonClient
    /// The record the fragment is read from.
    public let recordID: DataID
    private let registrar = ObservationRegistrar()

    private struct State: @unchecked Sendable {
        var data: F?
        var variables: JSONObject
        var loadingNext = false
        var loadingPrevious = false
        var subscription: StoreSubscription?
        var token: RetainToken?
    }
    private let state: Locked<State>

    /// Starts keeping the fragment on `recordID` live, with the fragment's variables (its own
    /// defaults under `variables`).
    public init(client: BatonClient, recordID: DataID, variables: JSONObject = [:]) {
        self.client = client
        self.recordID = recordID
        state = Locked(State(variables: BatonClient.fragmentVariables(F.self, variables)))
        subscribe()
    }

    deinit {
        let (subscription, token) = state.withLock { ($0.subscription, $0.token) }
        subscription?.cancel()
        token?.release()
    }

    /// The fragment with every page loaded so far; `nil` while the store lacks its data.
    public var data: F? {
        registrar.access(self, keyPath: \.data)
        return state.withLock { $0.data }
    }

    /// The fragment's variables, the last refetch's included.
    public var variables: JSONObject {
        registrar.access(self, keyPath: \.variables)
        return state.withLock { $0.variables }
    }

    /// Whether the server has more items after the last one loaded.
    public var hasNext: Bool { pageInfo("hasNextPage")?.boolValue ?? false }
    /// Whether the server has more items before the first one loaded.
    public var hasPrevious: Bool { pageInfo("hasPreviousPage")?.boolValue ?? false }

    /// Whether a ``loadNext(_:)`` is under way (observable).
    public var isLoadingNext: Bool {
        registrar.access(self, keyPath: \.isLoadingNext)
        return state.withLock { $0.loadingNext }
    }

    /// Whether a ``loadPrevious(_:)`` is under way (observable).
    public var isLoadingPrevious: Bool {
        registrar.access(self, keyPath: \.isLoadingPrevious)
        return state.withLock { $0.loadingPrevious }
    }

    /// Loads `count` more items after the last one. Does nothing while a previous `loadNext` is
    /// loading. A transport failure throws; GraphQL errors come back in the result.
    @discardableResult
    public func loadNext(_ count: Int) async throws -> GraphQLResult<F.RefetchQuery.Data>? {
        guard let forward = F.connection.forward else {
            throw BatonError.fragmentReference(
                fragmentName: F.fragmentName, reason: "its @connection has no first/after variables to page forward")
        }
        return try await load(count: count, variables: forward, cursor: pageInfo("endCursor"), loading: \.loadingNext, keyPath: \.isLoadingNext)
    }

    /// Loads `count` more items before the first one.
    @discardableResult
    public func loadPrevious(_ count: Int) async throws -> GraphQLResult<F.RefetchQuery.Data>? {
        guard let backward = F.connection.backward else {
            throw BatonError.fragmentReference(
                fragmentName: F.fragmentName, reason: "its @connection has no last/before variables to page backward")
        }
        return try await load(
            count: count, variables: backward, cursor: pageInfo("startCursor"), loading: \.loadingPrevious, keyPath: \.isLoadingPrevious)
    }

    /// Fetches the fragment again with new values for its variables, from the first page: the
    /// cursors are dropped, so the connection is replaced by what the server returns.
    @discardableResult
    public func refetch(variables changes: JSONObject = [:]) async throws -> GraphQLResult<F.RefetchQuery.Data> {
        var values = state.withLock { $0.variables }
        for (name, value) in changes { values[name] = value }
        for pagination in [F.connection.forward, F.connection.backward].compactMap({ $0 }) where changes[pagination.cursor] == nil {
            values[pagination.cursor] = nil
        }
        let result = try await client.fetch(
            query: RefetchOperation<F.RefetchQuery>(values: try queryValues(values)), cachePolicy: .fetchIgnoringCacheData)
        registrar.withMutation(of: self, keyPath: \.variables) {
            state.withLock { $0.variables = values }
        }
        subscribe()
        return result
    }

    // MARK: -

    private func load(
        count: Int, variables pagination: PaginationVariables, cursor: JSONValue?, loading: WritableKeyPath<State, Bool>,
        keyPath: KeyPath<FragmentPagination, Bool>
    ) async throws -> GraphQLResult<F.RefetchQuery.Data>? {
        let started = state.withLock { state -> Bool in
            if state[keyPath: loading] { return false }
            state[keyPath: loading] = true
            return true
        }
        guard started else { return nil }
        registrar.withMutation(of: self, keyPath: keyPath) {}
        defer {
            registrar.withMutation(of: self, keyPath: keyPath) {
                state.withLock { $0[keyPath: loading] = false }
            }
        }
        var values = state.withLock { $0.variables }
        values[pagination.count] = .int(count)
        values[pagination.cursor] = cursor ?? .null
        let query = RefetchOperation<F.RefetchQuery>(values: try queryValues(values))
        let result = try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData)
        refresh()
        return result
    }

    /// The refetch query's variables: the fragment's, plus the object's id for `node(id:)`.
    private func queryValues(_ values: JSONObject) throws -> JSONObject {
        guard F.refetchRoot == .node else { return values }
        var result = values
        guard let id = state.withLock({ $0.data })?.jsonObject["id"] else {
            throw BatonError.fragmentReference(fragmentName: F.fragmentName, reason: "no id to refetch \(recordID.rawValue) with yet")
        }
        result["id"] = id
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

    private var descriptor: OperationDescriptor {
        OperationDescriptor(fragment: F.self, id: recordID, variables: state.withLock { $0.variables })
    }

    /// Watches the fragment with the current variables (replacing an earlier watch).
    private func subscribe() {
        let descriptor = self.descriptor
        let variables = descriptor.variables
        let token = client.store.retain(descriptor)
        let (initial, subscription) = client.store.subscribe(descriptor) { [weak self] read in
            guard let self, !read.isMissing, let object = read.data, let data = try? F(jsonObject: object, variables: variables) else {
                return
            }
            self.setData(data)
        }
        let old = state.withLock { state -> (StoreSubscription?, RetainToken?) in
            defer {
                state.subscription = subscription
                state.token = token
            }
            return (state.subscription, state.token)
        }
        old.0?.cancel()
        old.1?.release()
        if !initial.isMissing, let object = initial.data, let data = try? F(jsonObject: object, variables: variables) {
            setData(data)
        }
    }

    /// Reads the fragment from the store again (after a page was published).
    private func refresh() {
        let descriptor = self.descriptor
        let read = client.store.read(descriptor)
        if !read.isMissing, let object = read.data, let data = try? F(jsonObject: object, variables: descriptor.variables) {
            setData(data)
        }
    }

    private func setData(_ data: F) {
        registrar.withMutation(of: self, keyPath: \.data) {
            state.withLock { $0.data = data }
        }
    }
}

extension BatonClient {
    /// A paginated fragment kept live from the object `reference` stands for (data read from a
    /// result; it needs `__id` or a cache key). `variables` are the fragment's own, when they
    /// differ from its defaults (the values the spread passed with `@arguments`).
    public func paginate<F: PaginatedFragment>(
        _ fragment: F.Type, from reference: some SelectionSet, variables: JSONObject = [:]
    ) throws -> FragmentPagination<F> {
        guard let id = recordID(of: reference, schema: F.__schema) else { throw Self.noRecordID(F.self) }
        return FragmentPagination(client: self, recordID: id, variables: variables)
    }

    /// Fetches a `@refetchable` fragment's object again with new values for its variables, and
    /// returns the fragment as the store then holds it.
    public func refetch<F: RefetchableFragment>(
        _ fragment: F.Type, from reference: some SelectionSet, variables: JSONObject = [:]
    ) async throws -> F {
        guard let id = recordID(of: reference, schema: F.__schema) else { throw Self.noRecordID(F.self) }
        var values = Self.fragmentVariables(F.self, variables)
        if F.refetchRoot == .node {
            guard let objectID = reference.jsonObject["id"] else {
                throw BatonError.fragmentReference(fragmentName: F.fragmentName, reason: "the data given has no id to refetch with")
            }
            values["id"] = objectID
        }
        let result = try await fetch(query: RefetchOperation<F.RefetchQuery>(values: values), cachePolicy: .fetchIgnoringCacheData)
        let fragmentVariables = Self.fragmentVariables(F.self, variables)
        let read = store.read(OperationDescriptor(fragment: F.self, id: id, variables: fragmentVariables))
        guard !read.isMissing, let object = read.data else {
            if let errors = result.errors, !errors.isEmpty {
                throw BatonError.fragmentReference(
                    fragmentName: F.fragmentName, reason: "refetch failed: " + errors.map(\.message).joined(separator: "; "))
            }
            throw BatonError.cacheMiss(operationName: F.RefetchQuery.operationName)
        }
        do {
            return try F(jsonObject: object, variables: fragmentVariables)
        } catch {
            throw BatonError.dataMismatch(operationName: F.RefetchQuery.operationName, error)
        }
    }
}
