import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Testing

/// Seed 001's optimistic response as Relay takes it: no `__typename` on the concrete payload
/// type, only the fields the app knows; shown at once, replaced by the server's payload, and
/// rolled back exactly when the server fails.
@Suite("Scenario: an optimistic response without __typename")
@MainActor
struct OptimisticResponseScenario {
    static let todo: JSONObject = ["data": ["node": ["__typename": "Todo", "id": "Todo:1", "text": "Write tests", "complete": false]]]

    func seeded() async throws -> Scenario {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.todo, for: NodeQuery.self)
        _ = try await scenario.client.fetch(query: NodeQuery(id: "Todo:1"), cachePolicy: .fetchIgnoringCacheData)
        return scenario
    }

    func completeField(in store: Store) -> RecordValue? {
        store.read(OperationDescriptor(operation: NodeQuery(id: "Todo:1"))).data?["node"]?["complete"].map(RecordValue.scalar)
    }

    @Test func isShownAtOnceAndReplacedByTheServersPayload() async throws {
        let scenario = try await seeded()
        let gate = AsyncGate()
        scenario.transport.setHandler { _ in
            await gate.wait()
            return [
                "data": [
                    "changeTodoStatus": ["__typename": "ChangeTodoStatusPayload", "todo": ["__typename": "Todo", "id": "Todo:1", "complete": true]]
                ]
            ]
        }
        let mutator = scenario.client.mutator(ChangeTodoStatusMutation.self)
        let id = "Todo:1"
        let complete = true
        var outcome: Result<GraphQLResult<ChangeTodoStatusMutation.Data>, any Error>?
        let commit = mutator.commit(
            variables: ChangeTodoStatusMutation(input: .init(complete: complete, id: id, userId: "me")),
            optimisticResponse: ["changeTodoStatus": ["todo": ["id": .string(id), "complete": .bool(complete)]]],
            completion: { outcome = $0 })
        #expect(scenario.client.store.optimisticUpdateCount == 1)
        #expect(completeField(in: scenario.client.store) == .scalar(true))
        #expect(mutator.isInFlight)
        await gate.open()
        await commit.finished()
        #expect(try outcome?.get().data?.changeTodoStatus?.todo.complete == true)
        #expect(scenario.client.store.optimisticUpdateCount == 0)
        #expect(completeField(in: scenario.client.store) == .scalar(true))
        #expect(scenario.client.store.snapshot()["Todo:1"]?["text"] == .scalar("Write tests"))
    }

    @Test func isRolledBackExactlyWhenTheServerFails() async throws {
        let scenario = try await seeded()
        let before = scenario.client.store.snapshot()
        scenario.transport.setHandler { _ in throw URLErrorStandIn() }
        let mutator = scenario.client.mutator(ChangeTodoStatusMutation.self)
        var outcome: Result<GraphQLResult<ChangeTodoStatusMutation.Data>, any Error>?
        let commit = mutator.commit(
            variables: ChangeTodoStatusMutation(input: .init(complete: true, id: "Todo:1", userId: "me")),
            optimisticResponse: ["changeTodoStatus": ["todo": ["id": "Todo:1", "complete": true]]],
            completion: { outcome = $0 })
        await commit.finished()
        #expect(throws: URLErrorStandIn.self) { try outcome?.get() }
        #expect(scenario.client.store.optimisticUpdateCount == 0)
        #expect(scenario.client.store.snapshot() == before)
        #expect(completeField(in: scenario.client.store) == .scalar(false))
    }

    @Test func aValueOfTheWrongTypeFailsTheCommitWithItsPathAndSendsNothing() async throws {
        let scenario = try await seeded()
        let mutator = scenario.client.mutator(ChangeTodoStatusMutation.self)
        var outcome: Result<GraphQLResult<ChangeTodoStatusMutation.Data>, any Error>?
        _ = mutator.commit(
            variables: ChangeTodoStatusMutation(input: .init(complete: true, id: "Todo:1", userId: "me")),
            optimisticResponse: ["changeTodoStatus": ["todo": ["id": "Todo:1", "complete": "yes"]]],
            completion: { outcome = $0 })
        guard case .failure(BatonError.dataMismatch(_, let error))? = outcome else {
            Issue.record("expected a data mismatch, got \(String(describing: outcome))")
            return
        }
        #expect(error.path.description == "changeTodoStatus.todo.complete")
        #expect(scenario.transport.requests.count == 1)  // the seeding query only
        #expect(scenario.client.store.optimisticUpdateCount == 0)
    }
}

/// A transport failure.
struct URLErrorStandIn: Error {}

/// Holds a mock server's answer until the test opens it.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
