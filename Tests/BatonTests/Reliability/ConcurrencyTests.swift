import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import BatonSQLite
import BatonWebSocket
import Foundation
import Testing

@testable import Baton

/// Many things at once on one client: fetches, store commits, optimistic layers, watchers,
/// subscriptions and cancellations. `scripts/tsan` runs this suite under ThreadSanitizer.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func concurrentFetchesCommitsWatchersAndCancellations() async throws {
        try await withExampleServer { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-concurrency-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: directory.appendingPathComponent("cache.sqlite")))
            // The time-out counts a request's wait for one of URLSession's connections to the host
            // (six on Linux): 120 requests queue behind them, and on a loaded 2-core machine running
            // the whole suite the last ones waited more than a minute. This test is about
            // correctness under concurrency, not latency.
            let client = BatonClient(url: server.url, store: store, timeout: .seconds(300))
            let heroes = (0..<4).map { _ in Collector(client.watch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))))) }
            let todos = Collector(client.watch(query: TodoListQuery(first: .some(5), after: .none)))

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<120 {
                    group.addTask {
                        switch index % 4 {
                        case 0:
                            _ = try await client.fetch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))), cachePolicy: .networkOnly)
                        case 1:
                            _ = try await client.fetch(query: TodoListQuery(first: .some(5), after: .none), cachePolicy: .networkOnly)
                        case 2:
                            let fetch = Task { try await client.fetch(query: HeroNameQuery(episode: .none), cachePolicy: .networkOnly) }
                            fetch.cancel()
                            _ = await fetch.result
                        default:
                            // Writes beside the fetches: a cache write and an optimistic layer reverted.
                            client.store.update { proxy in
                                _ = proxy.create(id: DataID("client:counter:\(index)"), typename: "Counter").setValue(.int(index), "value")
                            }
                            let optimistic = client.store.applyOptimisticUpdate(data: nil, for: OperationDescriptor(operation: HeroNameQuery(episode: .none))) { proxy, _ in
                                _ = proxy.get(DataID("client:counter:\(index)"))?.setValue(.int(-index), "value")
                            }
                            client.store.revertOptimisticUpdate(optimistic)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for watch in heroes {
                try #require(await watch.wait { $0.elements.contains { $0.data?.hero?.name == "Luke Skywalker" } })
            }
            try #require(await todos.wait { !$0.elements.isEmpty })
            #expect(client.store.optimisticUpdateCount == 0)
            heroes.forEach { $0.cancel() }
            todos.cancel()
            #expect(await eventually(timeout: .seconds(20)) { client.store.watcherCount == 0 })
            #expect(store.takePersistenceErrors().isEmpty)
        }
    }

    @Test func concurrentSubscriptionsOnOneSocketSomeCancelled() async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server))
            let subscriptions = (0..<16).map { _ in Collector(client.subscribe(subscription: CountSubscription(to: 3))) }
            for (index, subscription) in subscriptions.enumerated() where index % 2 == 1 {
                subscription.cancel()
            }
            for (index, subscription) in subscriptions.enumerated() where index % 2 == 0 {
                try #require(await subscription.wait { $0.finished })
                #expect(subscription.elements.map { $0.data?.count } == [1, 2, 3])
                #expect(subscription.error == nil)
            }
            try #require(await server.webSockets.wait { _ in server.webSockets.openCount == 0 })
        }
    }
}
