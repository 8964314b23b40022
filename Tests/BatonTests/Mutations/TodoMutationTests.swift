import BatonAPI
import BatonExampleAPI
import Foundation
import Observation
import Testing

@testable import Baton

/// Holds the responses of chosen requests until the test lets them through, in the order the
/// test decides. Requests are numbered from 1 in the order they reach it.
final class ResponseGate: GraphQLInterceptor, @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = 0
    private var opened = Set<Int>()
    private let held: Set<Int>

    init(holding held: Set<Int>) {
        self.held = held
    }

    func open(_ request: Int) { lock.withLock { _ = opened.insert(request) } }

    var arrivedCount: Int { lock.withLock { arrived } }

    func intercept(
        _ request: GraphQLRequest, next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        let number = lock.withLock {
            arrived += 1
            return arrived
        }
        let result = try await next(request)
        if held.contains(number) {
            while !lock.withLock({ opened.contains(number) }) {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return result
    }
}

@Suite("Mutations, connections and optimistic updates against the example server's todos")
@MainActor
struct TodoMutationTests {
    let viewer: DataID = "User:1"

    func todos(_ client: BatonClient) throws -> TodoConnectionQuery.Data {
        try client.store.read(query: TodoConnectionQuery(first: 10))
    }

    func connectionID() -> String {
        ConnectionHandler.getConnectionID(parentID: viewer, key: "TodoList_todos").rawValue
    }

    @Test func theConnectionIDIsTheDunderIDOfTheConnection() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.fetch(query: TodoConnectionQuery(first: 10))
            #expect(result.data?.connectionID == connectionID())
            #expect(connectionID() == #"client:User:1:__TodoList_todos_connection"#)
            #expect(result.data?.texts.count == 3)
            // Edges are client records numbered by the connection's counter.
            let snapshot = client.store.snapshot()
            #expect(snapshot[DataID(connectionID())]?["edges"]?.linkedIDs?.first == DataID(connectionID() + ":edges:0"))
        }
    }

    @Test func appendEdgeAndPrependNodeInsertIntoTheConnection() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.fetch(query: TodoConnectionQuery(first: 10))
            let connections = [connectionID()]
            _ = try await client.perform(
                mutation: TodoDirectiveMutation<AppendEdge>(input: ["text": "Appended", "userId": "User:1"], connections: connections))
            #expect(try todos(client).texts.last == "Appended")
            _ = try await client.perform(
                mutation: TodoDirectiveMutation<PrependNode>(input: ["text": "Prepended", "userId": "User:1"], connections: connections))
            #expect(try todos(client).texts.first == "Prepended")
            #expect(try todos(client).texts.count == 5)
            _ = try await client.perform(
                mutation: TodoDirectiveMutation<PrependEdge>(input: ["text": "First edge", "userId": "User:1"], connections: connections))
            _ = try await client.perform(
                mutation: TodoDirectiveMutation<AppendNode>(input: ["text": "Last node", "userId": "User:1"], connections: connections))
            let texts = try todos(client).texts
            #expect(texts.first == "First edge")
            #expect(texts.last == "Last node")
            // The server agrees on what exists.
            let server = try await client.fetch(query: TodoListQuery(first: 20), cachePolicy: .networkOnly)
            #expect(server.data?.viewer?.totalCount == 7)
        }
    }

    @Test func aNodeAlreadyInTheConnectionIsNotAddedTwice() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.fetch(query: TodoConnectionQuery(first: 10))
            let existing = try #require(try todos(client).ids.first)
            // A payload naming a node the connection already has: nothing is inserted.
            let descriptor = OperationDescriptor(
                operation: TodoDirectiveMutation<AppendNode>(input: [:], connections: [connectionID()]))
            client.store.publish(
                data: ["addTodo": ["__typename": "AddTodoPayload", "todo": ["__typename": "Todo", "id": .string(existing), "text": "x", "complete": false]]],
                for: descriptor)
            #expect(try todos(client).ids.filter { $0 == existing }.count == 1)
            #expect(try todos(client).ids.count == 3)
        }
    }

    @Test func aMissingConnectionOrNullEdgeIsSkipped() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.fetch(query: TodoConnectionQuery(first: 10))
            let result = try await client.perform(
                mutation: TodoDirectiveMutation<AppendEdge>(input: ["text": "Nowhere", "userId": "User:1"], connections: ["client:nope"]))
            #expect(result.errors == nil)
            #expect(try todos(client).texts.count == 3)
            let descriptor = OperationDescriptor(operation: TodoDirectiveMutation<AppendEdge>(input: [:], connections: [connectionID()]))
            client.store.publish(data: ["addTodo": ["__typename": "AddTodoPayload", "todoEdge": nil]], for: descriptor)
            #expect(try todos(client).texts.count == 3)
        }
    }

    @Test func deleteEdgeRemovesTheEdgeAndDeleteRecordTheRecord() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.fetch(query: TodoConnectionQuery(first: 10))
            let ids = try todos(client).ids
            _ = try await client.perform(
                mutation: TodoDirectiveMutation<DeleteEdge>(input: ["id": .string(ids[0]), "userId": "User:1"], connections: [connectionID()]))
            #expect(try todos(client).ids == Array(ids.dropFirst()))
            if case .present? = client.store.recordState(of: DataID(ids[0])) {} else {
                Issue.record("@deleteEdge must keep the record")
            }
            _ = try await client.perform(
                mutation: TodoDirectiveMutation<DeleteRecord>(input: ["id": .string(ids[1]), "userId": "User:1"], connections: []))
            #expect(client.store.recordState(of: DataID(ids[1])) == .deleted)
            // The edge of a deleted node reads with a null node.
            #expect(try todos(client).ids == [ids[2]])
        }
    }

    @Test func anOptimisticToggleIsReplacedByTheServerValue() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [2])
            let client = BatonClient(url: server.url, interceptors: [gate])
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let open = try #require(list.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { !$0.complete })
            let completed = try #require(list.data?.viewer?.completedCount)

            let mutator = client.mutator(ChangeTodoStatusWithCountsMutation.self)
            let done = Locked<GraphQLResult<ChangeTodoStatusWithCountsMutation.Data>?>(nil)
            let commit = mutator.commit(
                variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: open.id, userId: "User:1")),
                optimisticResponse: [
                    "changeTodoStatus": [
                        "__typename": "ChangeTodoStatusPayload",
                        "todo": ["__typename": "Todo", "id": .string(open.id), "complete": true],
                        "user": ["__typename": "User", "id": "User:1", "completedCount": 99],
                    ]
                ],
                completion: { result in done.withLock { $0 = try? result.get() } })
            // At once, before the server answers:
            let optimistic = try client.store.read(query: TodoListQuery(first: 10))
            #expect(optimistic.viewer?.completedCount == 99)
            #expect(optimistic.viewer?.todos.edges?.compactMap { $0?.node }.first { $0.id == open.id }?.complete == true)
            #expect(mutator.isInFlight)

            gate.open(2)
            await commit.finished()
            #expect(!mutator.isInFlight)
            #expect(done.withLock { $0 }?.data?.changeTodoStatus?.user.completedCount == completed + 1)
            let settled = try client.store.read(query: TodoListQuery(first: 10))
            #expect(settled.viewer?.completedCount == completed + 1)
            #expect(settled.viewer?.todos.edges?.compactMap { $0?.node }.first { $0.id == open.id }?.complete == true)
            #expect(client.store.optimisticUpdateCount == 0)
        }
    }

    @Test func aServerErrorRollsBackExactly() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let open = try #require(list.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { !$0.complete })
            let before = client.store.snapshot()

            let outcome = Locked<GraphQLResult<ChangeTodoStatusWithCountsMutation.Data>?>(nil)
            let commit = client.mutator(ChangeTodoStatusWithCountsMutation.self).commit(
                variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: open.id, userId: "User:999")),
                optimisticUpdater: { store, _ in store.get(DataID(open.id))?.setValue(true, "complete") },
                completion: { result in outcome.withLock { $0 = try? result.get() } })
            await commit.finished()
            #expect(outcome.withLock { $0 }?.errors?.isEmpty == false)
            // Every record is as before; the root keeps the mutation field's error, as the store
            // keeps every field a response nulled for an error (issue 29).
            var after = client.store.snapshot()
            let root = try #require(after[.rootID])
            let kept = root.fields.filter { $0.key.hasPrefix("changeTodoStatus(") }
            #expect(kept.count == 1)
            if case .fieldErrors(let errors)? = kept.first?.value {
                #expect(errors.first?.message.contains("has no todo") == true)
            } else {
                Issue.record("the mutation field keeps no error: \(String(describing: kept.first?.value))")
            }
            var withoutError = root
            for (key, _) in kept { withoutError[key] = nil }
            after.set(withoutError)
            #expect(after == before)
        }
    }

    @Test func theFirstResponseDoesNotEraseTheSecondMutationsOptimisticData() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [2, 3])
            let client = BatonClient(url: server.url, interceptors: [gate])
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let open = try #require(list.data?.viewer?.todos.edges?.compactMap { $0?.node }.filter { !$0.complete })
            try #require(open.count >= 2)
            let mutator = client.mutator(ChangeTodoStatusWithCountsMutation.self)
            @MainActor func toggle(_ id: String) -> MutationCommit {
                mutator.commit(
                    variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: id, userId: "User:1")),
                    optimisticUpdater: { store, _ in store.get(DataID(id))?.setValue(true, "complete").setValue("optimistic", "text") })
            }
            let a = toggle(open[0].id)
            try await waitUntil { gate.arrivedCount == 2 }
            let b = toggle(open[1].id)
            try await waitUntil { gate.arrivedCount == 3 }
            #expect(client.store.optimisticUpdateCount == 2)

            gate.open(2)
            await a.finished()
            // A's server data is in; B's optimistic data is still there.
            let mid = try client.store.read(query: TodoListQuery(first: 10)).viewer?.todos.edges?.compactMap { $0?.node } ?? []
            #expect(mid.first { $0.id == open[0].id }?.text == open[0].text)
            #expect(mid.first { $0.id == open[0].id }?.complete == true)
            #expect(mid.first { $0.id == open[1].id }?.text == "optimistic")
            #expect(mid.first { $0.id == open[1].id }?.complete == true)

            gate.open(3)
            await b.finished()
            let end = try client.store.read(query: TodoListQuery(first: 10)).viewer?.todos.edges?.compactMap { $0?.node } ?? []
            #expect(end.first { $0.id == open[1].id }?.text == open[1].text)
            #expect(end.first { $0.id == open[1].id }?.complete == true)
            #expect(client.store.optimisticUpdateCount == 0)
        }
    }

    @Test func aCancelledCommitRemovesItsOptimisticUpdate() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [2])
            let client = BatonClient(url: server.url, interceptors: [gate])
            _ = try await client.fetch(query: TodoConnectionQuery(first: 10))
            let before = try todos(client)
            let outcome = Locked<(any Error)?>(nil)
            let commit = client.mutator(TodoDirectiveMutation<AppendNode>.self).commit(
                variables: TodoDirectiveMutation<AppendNode>(input: ["text": "Maybe", "userId": "User:1"], connections: [connectionID()]),
                optimisticResponse: [
                    "addTodo": ["__typename": "AddTodoPayload", "todo": ["__typename": "Todo", "id": "client:optimistic:1", "text": "Maybe", "complete": false]]
                ],
                completion: { result in
                    if case .failure(let error) = result { outcome.withLock { $0 = error } }
                })
            #expect(try todos(client).texts.last == "Maybe")
            commit.cancel()
            #expect(try todos(client) == before)
            gate.open(2)
            await commit.finished()
            #expect(outcome.withLock { $0 } is CancellationError)
            #expect(try todos(client) == before)
        }
    }

    @Test func anOptimisticResponseThatDoesNotMatchIsRejectedWithItsPath() async throws {
        let port = try closedLoopbackPort()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:\(port)/graphql")!)
        let outcome = Locked<(any Error)?>(nil)
        await client.mutator(ChangeTodoStatusWithCountsMutation.self).commit(
            variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: "Todo:1", userId: "User:1")),
            optimisticResponse: ["changeTodoStatus": ["__typename": "ChangeTodoStatusPayload", "todo": ["__typename": "Todo", "id": "Todo:1", "complete": "yes"]]],
            completion: { result in
                if case .failure(let error) = result { outcome.withLock { $0 = error } }
            }
        ).finished()
        let error = try #require(outcome.withLock { $0 } as? BatonError)
        #expect("\(error)".contains("changeTodoStatus.todo.complete: expected Boolean"))
        #expect(client.store.optimisticUpdateCount == 0)
    }

    @Test func isInFlightIsObservable() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [1])
            let client = BatonClient(url: server.url, interceptors: [gate])
            let mutator = client.mutator(UpvotePostMutation.self)
            let changes = Locked(0)
            @MainActor func observe() {
                withObservationTracking { _ = mutator.isInFlight } onChange: { changes.withLock { $0 += 1 } }
            }
            observe()
            #expect(!mutator.isInFlight)
            let commit = mutator.commit(variables: UpvotePostMutation(postId: 1))
            #expect(changes.withLock { $0 } == 1)
            #expect(mutator.isInFlight)
            observe()
            gate.open(1)
            await commit.finished()
            #expect(changes.withLock { $0 } == 2)
            #expect(!mutator.isInFlight)
        }
    }

    @Test func pagesForwardAndBackMergeIntoTheConnection() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let first = try #require(try await client.fetch(query: TodoConnectionQuery(first: 1)).data)
            #expect(first.texts.count == 1)
            #expect(first.hasNextPage == true)
            let endCursor = try #require(first.endCursor)
            let second = try #require(try await client.fetch(query: TodoConnectionQuery(first: 1, after: .some(endCursor)), cachePolicy: .networkOnly).data)
            // Read through the connection: both pages, in order.
            #expect(second.texts.count == 2)
            let all = try await client.fetch(query: TodoConnectionQuery(first: 10), cachePolicy: .networkOnly)
            #expect(Array(all.data?.texts.prefix(2) ?? []) == second.texts)

            // Backwards: the last page replaces, `before` prepends.
            // A connection reads from the store whatever its page arguments: pages are fetched network-only.
            let last = try #require(try await client.fetch(query: TodoConnectionQuery(last: 1), cachePolicy: .networkOnly).data)
            #expect(last.texts.count == 1)
            let startCursor = try #require(last.startCursor)
            let earlier = try #require(try await client.fetch(query: TodoConnectionQuery(last: 1, before: .some(startCursor)), cachePolicy: .networkOnly).data)
            #expect(earlier.texts.count == 2)
            #expect(earlier.texts.last == last.texts.first)
            #expect(Array(all.data?.texts.suffix(2) ?? []) == earlier.texts)
        }
    }
}
