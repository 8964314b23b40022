import BatonAPI
import BatonExampleAPI
import Foundation
import Observation
import Testing

@testable import Baton

@Suite("QueryObserver: loading, live data, shared watches, release, the main actor", .timeLimit(.minutes(3)))
@MainActor
struct QueryObserverTests {
    func texts(_ observer: QueryObserver<TodoListQuery>) -> [String] {
        observer.data?.viewer?.todos.edges?.compactMap { $0?.node?.fragments.todoDetails.text } ?? []
    }

    @Test func loadsThenSucceedsWithEveryChangeOnTheMainActor() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
            #expect(observer.state.isLoading)
            let probe = ChangeProbe { _ = observer.state }
            await until { observer.state.isSuccess }
            #expect(observer.state.result?.source == .server)
            #expect(texts(observer) == ["Taste JavaScript", "Buy a unicorn", "Learn Relay"])
            #expect(probe.changes.withLock { $0 } >= 1)
            #expect(probe.offMainActor.withLock { $0 } == 0)

            // Cached data answers a new observer at once: no loading state.
            let second = QueryObserver(client: client, query: TodoListQuery(first: 10))
            #expect(second.state.result?.source == .cache)
        }
    }

    @Test func followsTheStoreWhenAMutationChangesWhatItReads() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
            await until { observer.state.isSuccess }
            let todo = try #require(observer.data?.viewer?.todos.edges?.first??.node?.fragments.todoDetails)
            let probe = ChangeProbe { _ = observer.state }
            _ = try await client.perform(
                mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: !todo.complete, id: todo.id, userId: "User:1")))
            await until { observer.data?.viewer?.todos.edges?.first??.node?.fragments.todoDetails.complete == !todo.complete }
            #expect(observer.state.result?.source == .cache)
            #expect(probe.offMainActor.withLock { $0 } == 0)
        }
    }

    @Test func identicalQueriesShareOneFetchAndOneWatch() async throws {
        try await withExampleServer { server in
            let requests = ResponseGate(holding: [])
            let client = BatonClient(url: server.url, interceptors: [requests])
            let watchers = client.store.watcherCount
            let a = QueryObserver(client: client, query: TodoListQuery(first: 10))
            let b = QueryObserver(client: client, query: TodoListQuery(first: 10))
            await until { a.state.isSuccess && b.state.isSuccess }
            #expect(requests.arrivedCount == 1)
            #expect(client.sharedWatches.count == 1)
            #expect(client.store.watcherCount == watchers + 1)

            // Other variables are another query: a watch of their own.
            let c = QueryObserver(client: client, query: TodoListQuery(first: 1))
            await until { c.state.isSuccess }
            #expect(client.sharedWatches.count == 2)
            #expect(requests.arrivedCount == 2)
            withExtendedLifetime((a, b, c)) {}
        }
    }

    @Test func aReleasedObserverStopsWatching() async throws {
        try await withExampleServer { server in
            let requests = ResponseGate(holding: [])
            let client = BatonClient(url: server.url, interceptors: [requests])
            let watchers = client.store.watcherCount
            let released = WeakReference<QueryObserver<TodoListQuery>>()
            do {
                let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
                released.object = observer
                await until { observer.state.isSuccess }
                #expect(client.store.watcherCount == watchers + 1)
            }
            #expect(released.object == nil)  // nothing else holds it: its tasks hold it weakly
            try await waitUntil { client.store.watcherCount == watchers && client.sharedWatches.count == 0 }

            // The store changes; nothing fetches for the released observer.
            _ = try await client.perform(mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: "Todo:1", userId: "User:1")))
            #expect(requests.arrivedCount == 2)
        }
    }

    @Test func theMainActorIsFreeWhileARequestIsInFlight() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [1])
            let client = BatonClient(url: server.url, interceptors: [gate])
            let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
            try await waitUntil { gate.arrivedCount == 1 }
            // The response is held: main-actor work still runs, and the observer is still loading.
            let ticks = Locked(0)
            for _ in 0..<3 { await Task { @MainActor in ticks.withLock { $0 += 1 } }.value }
            #expect(ticks.withLock { $0 } == 3)
            #expect(observer.state.isLoading)
            gate.open(1)
            await until { observer.state.isSuccess }
        }
    }

    @Test func refetchFetchesAgainAndReportsIsRefetching() async throws {
        try await withExampleServer { server in
            let requests = ResponseGate(holding: [])
            let client = BatonClient(url: server.url, interceptors: [requests])
            let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
            await until { observer.state.isSuccess }
            let probe = ChangeProbe { _ = observer.isRefetching }
            try await observer.refetch()
            #expect(!observer.isRefetching)
            #expect(probe.changes.withLock { $0 } >= 1)  // true, then false
            #expect(requests.arrivedCount == 2)
            #expect(observer.state.result?.source == .server)
        }
    }

    @Test func aFailedFetchIsTheFailureStateAndRefetchRecovers() async throws {
        let port = try closedLoopbackPort()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:\(port)/graphql")!)
        let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
        await until { observer.state.isFailure }
        #expect(client.sharedWatches.count == 0)  // a failed watch is forgotten
        observer.load(TodoListQuery(first: 10), client: client)  // a view update: no new fetch
        #expect(client.sharedWatches.count == 0)
        await #expect(throws: BatonError.self) { try await observer.refetch() }
        #expect(observer.state.isFailure)
    }

    @Test func loadingAnotherQuerySwitchesAndLeavesTheOldWatch() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let observer = QueryObserver(client: client, query: TodoListQuery(first: 10))
            await until { observer.state.isSuccess }
            observer.load(TodoListQuery(first: 10), client: client)  // the same: nothing happens
            #expect(observer.state.isSuccess)
            observer.load(TodoListQuery(first: 1), client: client)
            #expect(observer.state.isLoading)
            await until { observer.state.isSuccess }
            #expect(texts(observer) == ["Taste JavaScript"])
            try await waitUntil { client.sharedWatches.count == 1 }
        }
    }

    @Test func withoutAClientTheStateSaysSo() async throws {
        let observer = QueryObserver<TodoListQuery>()
        observer.load(TodoListQuery(first: 10), client: nil)
        guard case .failure(let error) = observer.state, case BatonError.noClient = error else {
            Issue.record("expected the noClient failure, got \(observer.state)")
            return
        }
    }
}
