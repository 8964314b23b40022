import Baton
import BatonExampleAPI
import BatonTesting
import Testing

/// A first page of a `@connection` replaces the connection's edges, so the client gives the
/// response's data as it is, without reading it back (issue 26); a later page merges into the
/// edges kept and is read back merged. Either way the result is what the store reads.
@Suite("Scenario: connection pages")
struct ConnectionPagesScenario {
    static func todo(_ id: String) -> JSONValue {
        ["__typename": "Todo", "id": .string(id), "text": .string("Todo \(id)"), "complete": false]
    }

    static func page(_ ids: [String], endCursor: String, hasNextPage: Bool) -> JSONObject {
        let edges = ids.map { id -> JSONValue in ["__typename": "TodoEdge", "cursor": .string("c\(id)"), "node": todo(id)] }
        return [
            "data": [
                "viewer": [
                    "__typename": "User", "id": "me",
                    "todos": [
                        "__typename": "TodoConnection", "edges": .list(edges),
                        "pageInfo": ["__typename": "PageInfo", "endCursor": .string(endCursor), "hasNextPage": .bool(hasNextPage)],
                    ],
                ]
            ]
        ]
    }

    func ids(_ fragment: TodoListPagination_user?) -> [String] {
        fragment?.todos.edges?.compactMap { $0?.node?.id } ?? []
    }

    func storeIDs(_ client: BatonClient) async throws -> [String] {
        let cached = try await client.fetch(query: PaginatedTodosQuery(first: 2), cachePolicy: .returnCacheDataDontFetch)
        return ids(cached.data?.viewer?.fragments.todoListPagination_user)
    }

    @Test func aFirstPageIsTheResponseAndWhatTheStoreReads() async throws {
        let scenario = Scenario()
        let client = scenario.client
        scenario.transport.enqueue(body: Self.page(["1", "2"], endCursor: "c2", hasNextPage: true), for: PaginatedTodosQuery.self)
        let first = try await client.fetch(query: PaginatedTodosQuery(first: 2), cachePolicy: .fetchIgnoringCacheData)
        let fragment = first.data?.viewer?.fragments.todoListPagination_user
        #expect(ids(fragment) == ["1", "2"])
        #expect(fragment?.todos.pageInfo.endCursor == "c2")
        #expect(try await storeIDs(client) == ["1", "2"])

        // A page after the end cursor is read back merged.
        scenario.transport.enqueue(body: Self.page(["3"], endCursor: "c3", hasNextPage: false), for: TodoListPaginationQuery.self)
        let next = try await client.fetch(query: TodoListPaginationQuery(count: 1, cursor: "c2"), cachePolicy: .fetchIgnoringCacheData)
        #expect(ids(next.data?.viewer?.fragments.todoListPagination_user) == ["1", "2", "3"])
        #expect(next.data?.viewer?.fragments.todoListPagination_user.todos.pageInfo.hasNextPage == false)
        #expect(try await storeIDs(client) == ["1", "2", "3"])

        // The first page again replaces the merged edges: the response and the store agree.
        scenario.transport.enqueue(body: Self.page(["1", "4"], endCursor: "c4", hasNextPage: true), for: PaginatedTodosQuery.self)
        let again = try await client.fetch(query: PaginatedTodosQuery(first: 2), cachePolicy: .fetchIgnoringCacheData)
        #expect(ids(again.data?.viewer?.fragments.todoListPagination_user) == ["1", "4"])
        #expect(try await storeIDs(client) == ["1", "4"])
    }

    @Test func aFirstPageNotWrittenIsTheResponse() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.page(["1", "2"], endCursor: "c2", hasNextPage: true), for: PaginatedTodosQuery.self)
        let first = try await scenario.client.fetch(query: PaginatedTodosQuery(first: 2), cachePolicy: .fetchIgnoringCacheCompletely)
        #expect(ids(first.data?.viewer?.fragments.todoListPagination_user) == ["1", "2"])
        #expect(scenario.client.store.snapshot().count == 1)  // the root alone
    }
}
