import BatonAPI
import BatonExampleAPI
import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// Collects what a watcher receives.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ReadResult] = []

    var results: [ReadResult] { lock.withLock { stored } }
    func append(_ result: ReadResult) { lock.withLock { stored.append(result) } }
}

@Suite("Store")
struct StoreTests {
    let todoList = TodoListQuery(first: 10)
    let todoData: JSONObject = [
        "viewer": [
            "__typename": "User", "id": "User:1", "totalCount": 2, "completedCount": 0,
            "todos": [
                "__typename": "TodoConnection",
                "edges": [
                    ["__typename": "TodoEdge", "cursor": "c1", "node": ["__typename": "Todo", "id": "Todo:1", "text": "One", "complete": false]],
                    ["__typename": "TodoEdge", "cursor": "c2", "node": ["__typename": "Todo", "id": "Todo:2", "text": "Two", "complete": false]],
                ],
                "pageInfo": ["__typename": "PageInfo", "hasNextPage": false, "hasPreviousPage": false, "startCursor": "c1", "endCursor": "c2"],
            ],
        ]
    ]

    func storeWithTodos() throws -> Store {
        let store = Store()
        store.write(data: try TodoListQuery.Data(jsonObject: todoData), for: todoList)
        return store
    }

    @Test func typedReadAndWriteOfQueriesAndFragments() throws {
        let store = try storeWithTodos()
        let data = try store.read(query: todoList)
        #expect(data.viewer?.todos.edges?.count == 2)
        #expect(data.viewer?.todos.edges?[1]?.node?.text == "Two")
        let todo = try store.read(fragment: TodoDetails.self, id: "Todo:1")
        #expect(todo.text == "One")
        store.write(fragment: try TodoDetails(jsonObject: ["__typename": "Todo", "id": "Todo:1", "text": "Uno", "complete": true]), id: "Todo:1")
        #expect(try store.read(query: todoList).viewer?.todos.edges?[0]?.node?.complete == true)
        #expect(throws: CacheMissError.self) { try store.read(query: TodoListQuery(first: 5)) }
        #expect(throws: CacheMissError.self) { try store.read(fragment: TodoDetails.self, id: "Todo:99") }
    }

    @Test func aWatcherEmitsOncePerRelevantChangeAndNeverForAnUnrelatedOne() throws {
        let store = try storeWithTodos()
        let received = Received()
        let (initial, subscription) = store.subscribe(OperationDescriptor(operation: todoList)) { received.append($0) }
        #expect(!initial.isMissing)
        #expect(initial.seenIDs.contains("Todo:2"))

        // An unrelated record.
        store.publish(RecordSource(records: [Record(id: "Todo:99", typename: "Todo", fields: ["text": .scalar("Elsewhere")])]))
        // A field of a seen record that the query does not select.
        store.update { $0.get("Todo:1")?.setValue("note", "privateNote") }
        // The same value again.
        store.update { $0.get("Todo:1")?.setValue(false, "complete") }
        #expect(received.results.isEmpty)

        // A relevant change: one emission.
        store.update { $0.get("Todo:2")?.setValue(true, "complete") }
        #expect(received.results.count == 1)
        let edges = received.results.last?.data?["viewer"]?["todos"]?["edges"]?.listValue
        #expect(edges?[1]["node"]?["complete"] == .bool(true))

        // Two relevant records in one publish: still one emission.
        store.update { proxy in
            proxy.get("Todo:1")?.setValue("Uno", "text")
            proxy.get("Todo:2")?.setValue("Dos", "text")
        }
        #expect(received.results.count == 2)

        subscription.cancel()
        store.update { $0.get("Todo:1")?.setValue("One", "text") }
        #expect(received.results.count == 2)
        #expect(store.watcherCount == 0)
    }

    @Test func watchersFollowNewLinks() throws {
        let store = try storeWithTodos()
        let received = Received()
        let (_, subscription) = store.subscribe(OperationDescriptor(operation: todoList)) { received.append($0) }
        defer { subscription.cancel() }
        // Link a third todo into the list: the watcher now sees Todo:3 and is told of its changes.
        store.update { proxy in
            let todo = proxy.create(id: "Todo:3", typename: "Todo")
            todo.setValue("Three", "text").setValue(false, "complete")
            let edge = proxy.create(id: "client:edge:3", typename: "TodoEdge")
            edge.setValue("c3", "cursor").setLinkedRecord(todo, "node")
            let connection = proxy.get("User:1")?.getLinkedRecord("todos", arguments: ["first": 10])
            let edges = connection?.getLinkedRecords("edges") ?? []
            connection?.setLinkedRecords(edges + [edge], "edges")
        }
        #expect(received.results.count == 1)
        store.update { $0.get("Todo:3")?.setValue(true, "complete") }
        #expect(received.results.count == 2)
        #expect(received.results.last?.seenIDs.contains("Todo:3") == true)
    }

    @Test func recordProxiesEditValuesLinksAndLists() throws {
        let store = try storeWithTodos()
        store.update { proxy in
            let user = try! #require(proxy.get("User:1"))
            #expect(user.typename == "User")
            #expect(user.getValue("totalCount") == 2)
            let connection = try! #require(user.getLinkedRecord("todos", arguments: ["first": 10]))
            #expect(connection.getLinkedRecords("edges")?.count == 2)
            let settings = user.getOrCreateLinkedRecord("settings", typename: "Settings")
            settings.setValue("dark", "theme")
            #expect(settings.dataID == "client:User:1:settings")
            #expect(user.getOrCreateLinkedRecord("settings", typename: "Settings").dataID == settings.dataID)
            let copy = proxy.create(id: "Todo:copy", typename: "Todo")
            copy.copyFields(from: try! #require(proxy.get("Todo:1")))
            #expect(copy.getValue("text") == "One")
            proxy.root.setValue(42, "answer", arguments: ["question": "life"])
            proxy.delete("Todo:2")
            #expect(proxy.get("Todo:2") == nil)
        }
        let snapshot = store.snapshot()
        #expect(snapshot["client:User:1:settings"]?["theme"] == .scalar("dark"))
        #expect(snapshot[.rootID]?[#"answer(question:"life")"#] == .scalar(42))
        #expect(snapshot.state(of: "Todo:2") == .deleted)
        #expect(snapshot["Todo:copy"]?["text"] == .scalar("One"))
        // The deleted node reads as null.
        #expect(try store.read(query: todoList).viewer?.todos.edges?[1]?.node == nil)
    }

    @Test func checkReportsAvailableStaleAndMissing() throws {
        let store = try storeWithTodos()
        let descriptor = OperationDescriptor(operation: todoList)
        store.publish(data: todoData, for: descriptor, fetched: true)
        #expect(store.check(descriptor) == .available)
        #expect(store.check(OperationDescriptor(operation: TodoListQuery(first: 3))) == .missing)
        store.invalidateRecord("Todo:2")
        #expect(store.check(descriptor) == .stale)
        store.publish(data: todoData, for: descriptor, fetched: true)
        #expect(store.check(descriptor) == .available)
        store.update { $0.get("Todo:1")?.invalidateRecord() }
        #expect(store.check(descriptor) == .stale)
        store.publish(data: todoData, for: descriptor, fetched: true)
        store.invalidateStore()
        #expect(store.check(descriptor) == .stale)
    }

    @Test func dataExpiresAfterTheQueryCacheExpirationTime() async throws {
        let store = Store(queryCacheExpirationTime: .milliseconds(100))
        let descriptor = OperationDescriptor(operation: todoList)
        store.publish(data: todoData, for: descriptor, fetched: true)
        #expect(store.check(descriptor) == .available)
        try await Task.sleep(for: .milliseconds(150))
        #expect(store.check(descriptor) == .stale)
    }

    @Test func garbageCollectionFreesReleasedRootsAndKeepsRetainedOnes() throws {
        let store = Store(releaseBufferSize: 1)
        let todos = OperationDescriptor(operation: todoList)
        store.publish(data: todoData, for: todos)
        let reviews = OperationDescriptor(operation: ReviewsQuery(episode: .case(.jedi)))
        store.publish(data: ["reviews": [["__typename": "Review", "episode": "JEDI", "stars": 4, "commentary": "ok"]]], for: reviews)
        let hero = OperationDescriptor(operation: HeroNameQuery())
        store.publish(data: ["hero": ["__typename": "Droid", "name": "R2-D2"]], for: hero)

        let keepTodos = store.retain(todos)
        let reviewsToken = store.retain(reviews)
        // Nothing retains the hero: collected.
        let removed = store.collectGarbage()
        #expect(removed == ["client:root:hero"])
        #expect(store.read(todos).isMissing == false)

        // Released roots stay while in the release buffer...
        reviewsToken.release()
        store.collectGarbage()
        #expect(store.read(reviews).isMissing == false)
        // ...and go when a newer release pushes them out (which collects at once).
        store.publish(data: ["hero": ["__typename": "Droid", "name": "R2-D2"]], for: hero)
        store.retain(hero).release()
        #expect(store.read(reviews).isMissing)
        #expect(store.read(hero).isMissing == false)
        #expect(store.read(todos).isMissing == false)
        keepTodos.release()
        // The root record always stays.
        #expect(store.snapshot()[.rootID] != nil)
    }

    @Test func watchedRecordsSurviveCollection() throws {
        let store = try storeWithTodos()
        let (_, subscription) = store.subscribe(OperationDescriptor(operation: todoList)) { _ in }
        store.collectGarbage()
        #expect(store.read(OperationDescriptor(operation: todoList)).isMissing == false)
        subscription.cancel()
        store.collectGarbage()
        #expect(store.read(OperationDescriptor(operation: todoList)).isMissing)
    }

    @Test func findingWatchersToNotifyDoesNotScanThemAll() async throws {
        // 10,000 watchers on other records: a publish to one record reads one watcher. Seconds of
        // CPU: on a thread of its own, not on Swift's cooperative pool that other tests wait on.
        let descriptors = (0..<10_000).map(descriptorFor)
        let changed = descriptorFor(77)
        let counter = Received()
        await onOwnThread {
            let store = Store()
            var subscriptions: [StoreSubscription] = []
            for (index, descriptor) in descriptors.enumerated() {
                store.publish(data: ["hero": ["__typename": "Droid", "name": .string("Droid \(index)")]], for: descriptor)
                subscriptions.append(store.subscribe(descriptor) { counter.append($0) }.subscription)
            }
            store.publish(data: ["hero": ["__typename": "Droid", "name": "Changed"]], for: changed)
            subscriptions.forEach { $0.cancel() }
        }
        #expect(counter.results.count == 1)
        #expect(counter.results.first?.data?["hero"]?["name"] == "Changed")
    }

    /// Issue 26: a commit only records what it changed; the watchers re-read after its lock,
    /// once for all the commits made meanwhile. While one watcher's callback runs (its thread
    /// holds the drain), ten publishes from another thread return without waiting for it or for
    /// any re-read, and the other watcher then hears once: the last data. (Before, each publish
    /// re-read it under the lock and it heard all ten.)
    @Test func aBurstOfCommitsWhileAWatcherIsCalledIsReReadOnce() async throws {
        let (first, second) = (descriptorFor(1), descriptorFor(2))
        @Sendable func hero(_ name: String) -> JSONObject { ["hero": ["__typename": "Droid", "name": .string(name)]] }
        let heard = Received()
        await onOwnThread {
            let store = Store()
            store.publish(data: hero("first"), for: first)
            store.publish(data: hero("second"), for: second)
            let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let busy = store.subscribe(first) { _ in
                entered.signal()
                release.wait()
            }.subscription
            let other = store.subscribe(second) { heard.append($0) }.subscription
            let publisher = DispatchGroup()
            DispatchQueue.global().async(group: publisher) { store.publish(data: hero("first, changed"), for: first) }
            entered.wait()
            for index in 0..<10 { store.publish(data: hero("second \(index)"), for: second) }
            #expect(heard.results.isEmpty)
            release.signal()
            publisher.wait()
            busy.cancel()
            other.cancel()
        }
        #expect(heard.results.count == 1)
        #expect(heard.results.first?.data?["hero"]?["name"] == "second 9")
    }

    private func descriptorFor(_ index: Int) -> OperationDescriptor {
        OperationDescriptor(
            name: "Hero\(index)",
            selections: [.field("hero", type: .object("Character"), arguments: ["index": .value(.int(index))], selections: HeroNameQuery.Data.Hero.__selections)],
            variables: [:], rootType: "Query")
    }
}
