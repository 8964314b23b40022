import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Foundation
import Testing

/// Typed fragment and object watchers over a client with MockNetworkTransport (issue 29, item 4):
/// `watch(fragment:id:)` gives the generated fragment type, emits when a field it reads changes
/// and only then, follows any generated selection set (`watch(object:id:)`), and tells when its
/// record is deleted (`snapshots(of:id:)`, which `FragmentObserver` follows).
@Suite("Scenario: typed fragment and object watchers")
struct FragmentWatchScenario {
    let transport = MockNetworkTransport()
    let client: BatonClient

    init() {
        client = BatonClient(networkTransport: transport)
    }

    static func todo(_ id: String, _ text: String, complete: Bool = false) -> JSONValue {
        ["__typename": "TodoEdge", "cursor": .string("c" + id), "node": ["__typename": "Todo", "id": .string(id), "text": .string(text), "complete": .bool(complete)]]
    }

    static let todoList: JSONObject = [
        "data": [
            "viewer": [
                "__typename": "User", "id": "me", "totalCount": 2, "completedCount": 0,
                "todos": [
                    "__typename": "TodoConnection", "edges": [todo("T1", "Buy milk"), todo("T2", "Walk the dog")],
                    "pageInfo": ["__typename": "PageInfo", "hasNextPage": false, "hasPreviousPage": false, "startCursor": "cT1", "endCursor": "cT2"],
                ],
            ]
        ]
    ]

    func loadTodos() async throws {
        transport.enqueue(body: Self.todoList, for: TodoListQuery.self)
        _ = try await client.fetch(query: TodoListQuery(first: 10))
    }

    func changeStatus(_ id: String, complete: Bool, completedCount: Int) async throws {
        transport.enqueue(
            body: [
                "data": [
                    "changeTodoStatus": [
                        "__typename": "ChangeTodoStatusPayload", "todo": ["__typename": "Todo", "id": .string(id), "complete": .bool(complete)],
                        "user": ["__typename": "User", "id": "me", "completedCount": .int(completedCount)],
                    ]
                ]
            ], for: ChangeTodoStatusWithCountsMutation.self)
        _ = try await client.perform(
            mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: complete, id: id, userId: "me")))
    }

    @Test func aFragmentWatchIsTypedAndEmitsWhenAFieldItReadsChanges() async throws {
        try await loadTodos()
        var updates = client.watch(fragment: TodoDetails.self, id: "T1").makeAsyncIterator()
        let first: TodoDetails? = try await updates.next()
        #expect(first?.text == "Buy milk")
        #expect(first?.complete == false)

        try await changeStatus("T1", complete: true, completedCount: 1)
        let second = try await updates.next()
        #expect(second?.complete == true)
        #expect(second?.text == "Buy milk")
    }

    @Test func aFragmentWatchDoesNotEmitForFieldsOrRecordsItDoesNotRead() async throws {
        try await loadTodos()
        var updates = client.watch(fragment: TodoDetails.self, id: "T1").makeAsyncIterator()
        _ = try await updates.next()
        // Another todo, the viewer's counts, and a field of T1 the fragment does not select.
        try await changeStatus("T2", complete: true, completedCount: 1)
        client.store.update { store in _ = store.get("T1")?.setValue("not selected", "note") }
        // Then one it reads: the next emission is that one, nothing came before it.
        client.store.update { store in _ = store.get("T1")?.setValue("Buy oat milk", "text") }
        let next = try await updates.next()
        #expect(next?.text == "Buy oat milk")
        #expect(next?.complete == false)
    }

    /// Any generated selection set, not only named fragments: an object of a query's data.
    @Test func anObjectWatchFollowsAQuerysNestedSelectionSet() async throws {
        try await loadTodos()
        typealias Viewer = TodoListQuery.Data.Viewer
        var updates = client.watch(object: Viewer.self, id: "me", variables: ["first": 10]).makeAsyncIterator()
        let first: Viewer? = try await updates.next()
        #expect(first?.completedCount == 0)
        #expect(first?.todos.edges?.count == 2)
        try await changeStatus("T2", complete: true, completedCount: 1)
        let second = try await updates.next()
        #expect(second?.completedCount == 1)
        #expect(second?.todos.edges?.last??.node?.complete == true)
    }

    @Test func snapshotsTellADeletedRecord() async throws {
        try await loadTodos()
        var snapshots = client.snapshots(of: TodoDetails.self, id: "T1").makeAsyncIterator()
        let first = await snapshots.next()
        #expect(first?.data?.text == "Buy milk")
        #expect(first?.isMissing == false)
        client.store.update { store in store.delete("T1") }
        let gone = await snapshots.next()
        #expect(gone?.data == nil)
        #expect(gone?.isMissing == false)
    }

    @Test @MainActor func aFragmentObserverFollowsTheWatchAndEmptiesOnDeletion() async throws {
        try await loadTodos()
        let observer = FragmentObserver<TodoDetails>()
        observer.load(id: "T1", client: client)
        #expect(observer.data?.text == "Buy milk")
        try await changeStatus("T1", complete: true, completedCount: 1)
        try await waitUntil { observer.data?.complete == true }
        client.store.update { store in store.delete("T1") }
        try await waitUntil { observer.data == nil }
    }

    /// A fragment watch over a store with max ages: its snapshots say when the data is stale.
    @Test @MainActor func aFragmentObserverTellsStaleData() async throws {
        let clock = ManualFreshnessClock()
        let client = BatonClient(
            networkTransport: transport, store: Store(freshness: CacheFreshness(maxAgeByField: ["Todo": ["text": .seconds(30)]]), clock: clock))
        transport.enqueue(body: Self.todoList, for: TodoListQuery.self)
        _ = try await client.fetch(query: TodoListQuery(first: 10))
        var snapshots = client.snapshots(of: TodoDetails.self, id: "T1").makeAsyncIterator()
        let fresh = await snapshots.next()
        #expect(fresh?.isStale == false)
        #expect(fresh?.staleAt == clock.now.addingTimeInterval(30))
        clock.advance(by: .seconds(31))
        let observer = FragmentObserver<TodoDetails>()
        observer.load(id: "T1", client: client)
        try await waitUntil { observer.isStale }
        #expect(observer.data?.text == "Buy milk")
    }
}
