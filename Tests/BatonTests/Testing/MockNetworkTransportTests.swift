import Baton
import Foundation
import BatonAPI
import BatonExampleAPI
import BatonExampleMocks
import BatonTesting
import Testing

/// A real `BatonClient` and store over `MockNetworkTransport`, with data from the generated
/// mocks (the `BatonExampleMocks` target, written by `baton generate --only-test-mocks` from the example API's
/// `baton.json`) and initializers: no server.
@Suite("Mock transport")
struct MockNetworkTransportTests {
    static let r2 = Mock<Droid>(
        appearsIn: [.case(.empire)], friends: [Mock<Human>(name: "Luke Skywalker"), Mock<Droid>(name: "C-3PO")], id: "2001",
        name: "R2-D2", primaryFunction: "Astromech")

    @Test func aClientFetchesEnqueuedMockDataAndThenReadsItFromTheStore() async throws {
        let transport = MockNetworkTransport()
        let client = BatonClient(networkTransport: transport)
        let query = HeroAndFriendsQuery(episode: .empire)
        transport.enqueue(try HeroAndFriendsQuery.Data.from(Mock<Query>(hero: Self.r2), variables: query.variablesJSON), for: HeroAndFriendsQuery.self)

        let result = try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData)
        #expect(result.source == .server)
        let hero = try #require(result.data?.hero)
        #expect(hero.name == "R2-D2")
        #expect(hero.asDroid?.primaryFunction == "Astromech")
        #expect(hero.friends?.compactMap { $0?.name } == ["Luke Skywalker", "C-3PO"])
        #expect(hero.fragments.characterName.name == "R2-D2")

        let cached = try await client.fetch(query: query, cachePolicy: .returnCacheDataDontFetch)
        #expect(cached.source == .cache)
        #expect(cached.data == result.data)
        #expect(transport.requests.map(\.operationName) == ["HeroAndFriends"])
        #expect(transport.requests(of: HeroAndFriendsQuery.self).first?.variablesJSON == ["episode": "EMPIRE"])
        #expect(transport.pendingResponseCount == 0)
    }

    @Test func graphQLErrorsTransportFailuresAndMissingResponses() async throws {
        let transport = MockNetworkTransport()
        let client = BatonClient(networkTransport: transport)
        let query = HeroAndFriendsQuery()
        let data = try HeroAndFriendsQuery.Data.from(Mock<Query>(hero: Self.r2))
        transport.enqueue(data, errors: [GraphQLError(message: "friends are late", path: ["hero", "friends"])], for: HeroAndFriendsQuery.self)
        transport.enqueue(errors: [GraphQLError(message: "no hero today")], for: HeroAndFriendsQuery.self)
        transport.enqueue(failure: URLError(.notConnectedToInternet), for: HeroAndFriendsQuery.self)

        let partial = try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData)
        #expect(partial.data?.hero?.name == "R2-D2")
        #expect(partial.errors?.map(\.message) == ["friends are late"])
        #expect(partial.errors?.first?.path == ["hero", "friends"])
        let failed = try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData)
        #expect(failed.data == nil)
        #expect(failed.errors?.map(\.message) == ["no hero today"])
        await #expect(throws: URLError.self) { try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData) }
        let missing = await #expect(throws: MockNetworkTransportError.self) {
            try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData)
        }
        #expect(missing?.operationName == "HeroAndFriends")
        #expect(transport.requests.count == 4)
    }

    @Test func aHandlerAnswersWhatNothingEnqueuedDoesAndSeesTheRequests() async throws {
        let transport = MockNetworkTransport { request in
            let episode = request.variables["episode"]?.stringValue ?? "none"
            let hero = Mock<Human>(appearsIn: [], friends: [], id: "1000", name: "Hero of \(episode)")
            return ["data": .object(try HeroAndFriendsQuery.Data.from(Mock<Query>(hero: hero)).jsonObject)]
        }
        let client = BatonClient(networkTransport: transport)
        let names = try await withThrowingTaskGroup(of: String?.self) { group in
            for episode in [Episode.empire, .jedi, .newhope] {
                group.addTask {
                    try await client.fetch(query: HeroAndFriendsQuery(episode: .init(episode)), cachePolicy: .fetchIgnoringCacheCompletely).data?.hero?.name
                }
            }
            var names: [String] = []
            for try await name in group { names.append(name ?? "") }
            return names.sorted()
        }
        #expect(names == ["Hero of EMPIRE", "Hero of JEDI", "Hero of NEWHOPE"])
        #expect(transport.requests.count == 3)
        transport.clearRequests()
        #expect(transport.requests.isEmpty)
    }

    @Test @MainActor func anOptimisticResponseBuiltWithInitializersIsReplacedByTheServerResponse() async throws {
        let gate = AsyncStream.makeStream(of: Void.self)
        let transport = MockNetworkTransport { _ in
            for await _ in gate.stream { break }
            return ["data": .object(try ChangeTodoStatusWithCountsMutation.Data.from(Self.changed(complete: false, count: 0)).jsonObject)]
        }
        let client = BatonClient(networkTransport: transport)
        // The example schema's IDs are global (`Node`): a todo's record is its id.
        client.store.write(fragment: TodoDetails(id: "Todo:t1", text: "Write tests", complete: false), id: "Todo:t1")

        typealias Payload = ChangeTodoStatusWithCountsMutation.Data.ChangeTodoStatus
        let optimistic = ChangeTodoStatusWithCountsMutation.Data(
            changeTodoStatus: Payload(todo: Payload.Todo(id: "Todo:t1", complete: true), user: Payload.User(id: "u1", completedCount: 1)))
        let done = AsyncStream.makeStream(of: Result<GraphQLResult<ChangeTodoStatusWithCountsMutation.Data>, any Error>.self)
        client.mutator(ChangeTodoStatusWithCountsMutation.self).commit(
            variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: "Todo:t1", userId: "u1")),
            optimisticResponse: optimistic, completion: { done.continuation.yield($0) })
        // The commit applies the optimistic response before it sends; the server's answer waits for the gate.
        var optimisticComplete = false
        for _ in 0..<3_000 where !optimisticComplete {
            optimisticComplete = try client.store.read(fragment: TodoDetails.self, id: "Todo:t1").complete
            if !optimisticComplete { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(optimisticComplete)
        #expect(try client.store.read(fragment: TodoDetails.self, id: "Todo:t1").text == "Write tests")

        gate.continuation.yield()
        var iterator = done.stream.makeAsyncIterator()
        let result = try #require(await iterator.next()).get()
        #expect(result.data?.changeTodoStatus?.todo.complete == false)
        #expect(try client.store.read(fragment: TodoDetails.self, id: "Todo:t1").complete == false)
        #expect(transport.requests(of: ChangeTodoStatusWithCountsMutation.self).first?.input.id == "Todo:t1")
    }

    static func changed(complete: Bool, count: Int) -> Mock<BatonExampleMocks.Mutation> {
        Mock<BatonExampleMocks.Mutation>(
            changeTodoStatus: Mock<ChangeTodoStatusPayload>(
                todo: Mock<Todo>(complete: complete, id: "Todo:t1"), user: Mock<User>(completedCount: count, id: "u1")))
    }

    @Test func subscriptionsReceiveTheEnqueuedEventsInOrder() async throws {
        let transport = MockNetworkTransport()
        let client = BatonClient(networkTransport: transport)
        for count in 1...3 { transport.enqueue(CountSubscription.Data(count: count), for: CountSubscription.self) }
        var counts: [Int] = []
        for try await event in client.subscribe(subscription: CountSubscription(to: 3)) { counts.append(event.data?.count ?? 0) }
        #expect(counts == [1, 2, 3])
        #expect(transport.requests.map(\.operationType) == [.subscription])
    }
}
