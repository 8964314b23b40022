import BatonAPI
import BatonExampleAPI
import Foundation
import Observation
import Testing

@testable import Baton

@Suite("Refetchable fragments, fragment arguments, pagination and fragment watching against the example server")
@MainActor
struct FragmentPaginationTests {
    func texts(_ fragment: TodoListPagination_user?) -> [String] {
        fragment?.todos.edges?.compactMap { $0?.node?.fragments.todoDetails.text } ?? []
    }

    func texts(_ fragment: TodoListBackward_user?) -> [String] {
        fragment?.todos.edges?.compactMap { $0?.node?.fragments.todoDetails.text } ?? []
    }

    @Test func fragmentArgumentsAreAppliedToTheDocumentsSent() {
        // The spread's @arguments replace the fragment's own variables in a copy of the fragment.
        let document = PaginatedTodosQuery.operationDocument
        #expect(document.contains("query PaginatedTodos($first: Int) { viewer { __typename id ...TodoListPagination_user_"))
        #expect(document.contains("todos(first: $first, after: null)"))
        #expect(!document.contains("@arguments") && !document.contains("@argumentDefinitions") && !document.contains("$count"))
        // The generated refetch query declares the fragment's variables with their defaults.
        let refetch = TodoListPaginationQuery.operationDocument
        #expect(refetch.hasPrefix("query TodoListPaginationQuery($count: Int = 2, $cursor: String) { viewer { __typename ...TodoListPagination_user_"))
        #expect(refetch.contains("todos(first: $count, after: $cursor)"))
        #expect(TodoListPagination_user.refetchRoot == .viewer)
        #expect(TodoListPagination_user.connection.path == ["todos"])
        #expect(TodoListPagination_user.connection.forward == PaginationVariables(count: "count", cursor: "cursor"))
        #expect(TodoListBackward_user.connection.backward == PaginationVariables(count: "count", cursor: "cursor"))
        #expect(TodoListPagination_user.argumentDefaults == ["count": .int(2)])
    }

    @Test func fragmentArgumentsReachTheSelectionsTheStoreReads() {
        // The spread in PaginatedTodos passes $first for the fragment's $count.
        guard case .field(let viewer) = PaginatedTodosQuery.Data.__selections.first(where: {
            if case .field(let field) = $0 { field.name == "viewer" } else { false }
        }) else {
            Issue.record("no viewer field")
            return
        }
        let spread = viewer.selections.compactMap { selection -> FragmentSpreadSelection? in
            if case .fragmentSpread(let spread) = selection { spread } else { nil }
        }.first
        let todos = spread?.selections.compactMap { selection -> BatonAPI.Field? in
            if case .field(let field) = selection, field.name == "todos" { field } else { nil }
        }.first
        #expect(todos?.arguments["first"] == .variable("first"))
        #expect(todos?.arguments["after"] == .value(.null))
    }

    @Test func loadNextAppendsPagesUntilThereAreNoMore() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.fetch(query: PaginatedTodosQuery(first: 2))
            let viewer = try #require(result.data?.viewer)
            #expect(texts(viewer.fragments.todoListPagination_user) == ["Taste JavaScript", "Buy a unicorn"])

            let pagination = try client.paginate(TodoListPagination_user.self, from: viewer, variables: .init(count: 2))
            #expect(texts(pagination.data) == ["Taste JavaScript", "Buy a unicorn"])
            #expect(pagination.hasNext)
            #expect(!pagination.isLoadingNext)

            // isLoadingNext goes true, then false, and observers hear both.
            let changes = Locked(0)
            withObservationTracking { _ = pagination.isLoadingNext } onChange: { changes.withLock { $0 += 1 } }
            try await pagination.loadNext(2)
            #expect(changes.withLock { $0 } == 1)
            #expect(!pagination.isLoadingNext)
            #expect(texts(pagination.data) == ["Taste JavaScript", "Buy a unicorn", "Learn Relay"])
            #expect(!pagination.hasNext)

            // The query that spread the fragment reads the merged connection too.
            let cached = try await client.fetch(query: PaginatedTodosQuery(first: 2), cachePolicy: .returnCacheDataDontFetch)
            #expect(texts(cached.data?.viewer?.fragments.todoListPagination_user) == ["Taste JavaScript", "Buy a unicorn", "Learn Relay"])
        }
    }

    @Test func loadPreviousPrependsPages() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.fetch(query: BackwardTodosQuery())
            let viewer = try #require(result.data?.viewer)
            let pagination = try client.paginate(TodoListBackward_user.self, from: viewer)
            #expect(texts(pagination.data) == ["Buy a unicorn", "Learn Relay"])
            #expect(pagination.hasPrevious)
            try await pagination.loadPrevious(5)
            #expect(texts(pagination.data) == ["Taste JavaScript", "Buy a unicorn", "Learn Relay"])
            #expect(!pagination.hasPrevious)
            // This fragment pages only backward.
            await #expect(throws: BatonError.self) { try await pagination.loadNext(1) }
        }
    }

    @Test func refetchReplacesTheConnectionWithNewVariables() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let viewer = try #require(try await client.fetch(query: PaginatedTodosQuery(first: 2)).data?.viewer)
            let pagination = try client.paginate(TodoListPagination_user.self, from: viewer, variables: .init(count: 2))
            try await pagination.loadNext(2)
            #expect(texts(pagination.data).count == 3)
            try await pagination.refetch(.init(count: 1))
            #expect(texts(pagination.data) == ["Taste JavaScript"])
            #expect(pagination.variables?.variablesJSON == ["count": 1])
            #expect(pagination.hasNext)

            // The one-shot form for refetchable fragments.
            let refetched = try await client.refetch(TodoListPagination_user.self, from: viewer, variables: .init(count: 3))
            #expect(texts(refetched) == ["Taste JavaScript", "Buy a unicorn", "Learn Relay"])
        }
    }

    @Test func watchFragmentFollowsItsRecord() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.fetch(query: PaginatedTodosQuery(first: 2))
            let todo = try #require(result.data?.viewer?.fragments.todoListPagination_user.todos.edges?[1]?.node)
            #expect(client.recordID(of: todo) == "Todo:2")
            var updates = client.watch(fragment: TodoDetails.self, from: todo).makeAsyncIterator()
            let first = try await updates.next()
            #expect(first?.complete == false)
            _ = try await client.perform(
                mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: "Todo:2", userId: "User:1")))
            let second = try await updates.next()
            #expect(second?.complete == true)
            #expect(second?.text == "Buy a unicorn")
        }
    }

    @Test func watchFragmentWithoutARecordIDFails() async throws {
        let client = BatonClient(url: URL(string: "http://127.0.0.1:1/graphql")!)
        let data = try CharacterName(jsonObject: ["__typename": "Human", "name": "Luke Skywalker"])
        var updates = client.watch(fragment: CharacterName.self, from: data).makeAsyncIterator()
        do {
            _ = try await updates.next()
            Issue.record("expected the stream to fail")
        } catch {
            #expect(error is BatonError)
        }
    }
}
