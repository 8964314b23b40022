import BatonAPI
import BatonExampleAPI
import BatonSQLite
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// Counts the requests that reach the network.
final class RequestCounter: GraphQLInterceptor, @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []

    var count: Int { lock.withLock { names.count } }

    func intercept(
        _ request: GraphQLRequest, next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        lock.withLock { names.append(request.operationName) }
        return try await next(request)
    }
}

@Suite("Cache policies against the example server")
struct CachePolicyTests {
    let hero = HeroAndFriendsQuery(episode: .some(.case(.empire)))

    @Test func returnCacheDataElseFetchFetchesOnceThenAnswersFromTheStore() async throws {
        try await withExampleServer { server in
            let counter = RequestCounter()
            let client = BatonClient(url: server.url, interceptors: [counter])
            let first = try await client.fetch(query: hero)
            #expect(first.source == .server)
            let second = try await client.fetch(query: hero)
            #expect(second.source == .cache)
            #expect(second.data == first.data)
            #expect(counter.count == 1)
            // Relay's store-or-network is the same policy.
            #expect(try await client.fetch(query: hero, cachePolicy: .storeOrNetwork).source == .cache)
            // Invalidation makes the next check refetch.
            client.store.invalidateRecord("Human:1000")
            #expect(try await client.fetch(query: hero).source == .server)
            #expect(counter.count == 2)
        }
    }

    @Test func fetchIgnoringCacheDataAlwaysFetchesAndWrites() async throws {
        try await withExampleServer { server in
            let counter = RequestCounter()
            let client = BatonClient(url: server.url, interceptors: [counter])
            #expect(try await client.fetch(query: hero, cachePolicy: .fetchIgnoringCacheData).source == .server)
            #expect(try await client.fetch(query: hero, cachePolicy: .networkOnly).source == .server)
            #expect(counter.count == 2)
            let cached = try await client.fetch(query: hero, cachePolicy: .returnCacheDataDontFetch)
            #expect(cached.source == .cache)
            #expect(cached.data?.hero?.name == "Luke Skywalker")
            #expect(counter.count == 2)
        }
    }

    @Test func fetchIgnoringCacheCompletelyLeavesTheStoreAlone() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let fetched = try await client.fetch(query: hero, cachePolicy: .fetchIgnoringCacheCompletely)
            #expect(fetched.data?.hero?.name == "Luke Skywalker")
            await #expect {
                try await client.fetch(query: hero, cachePolicy: .returnCacheDataDontFetch)
            } throws: { error in
                guard case .cacheMiss("HeroAndFriends")? = error as? BatonError else { return false }
                return true
            }
            #expect(client.store.snapshot().count == 1)
        }
    }

    @Test func storeOnlyNeverTouchesTheNetwork() async throws {
        let port = try closedLoopbackPort()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:\(port)/graphql")!)
        await #expect(throws: BatonError.self) { try await client.fetch(query: hero, cachePolicy: .storeOnly) }
        client.store.write(
            data: try HeroAndFriendsQuery.Data(jsonObject: [
                "hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "appearsIn": [], "friends": [], "primaryFunction": "Astromech"]
            ]), for: hero)
        let cached = try await client.fetch(query: hero, cachePolicy: .storeOnly)
        #expect(cached.data?.hero?.name == "R2-D2")
        #expect(cached.source == .cache)
    }

    @Test func returnCacheDataAndFetchGivesBoth() async throws {
        try await withExampleServer { server in
            let counter = RequestCounter()
            let client = BatonClient(url: server.url, interceptors: [counter])
            // Nothing cached: just the server's result.
            var sources: [GraphQLResult<HeroAndFriendsQuery.Data>.Source] = []
            for try await result in client.fetchResults(query: hero, cachePolicy: .storeAndNetwork) { sources.append(result.source) }
            #expect(sources == [.server])
            sources = []
            for try await result in client.fetchResults(query: hero, cachePolicy: .returnCacheDataAndFetch) { sources.append(result.source) }
            #expect(sources == [.cache, .server])
            #expect(counter.count == 2)

            // The callback form calls its handler for each.
            let queue = DispatchQueue(label: "results")
            let delivered = Locked<[GraphQLResult<HeroAndFriendsQuery.Data>.Source]>([])
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                client.fetch(query: hero, cachePolicy: .returnCacheDataAndFetch, queue: queue) { result in
                    let count = delivered.withLock { sources in
                        if case .success(let value) = result { sources.append(value.source) }
                        return sources.count
                    }
                    if count == 2 { done.resume() }
                }
            }
            #expect(delivered.withLock { $0 } == [.cache, .server])
        }
    }

    @Test func mutationsUpdateWhatQueriesRead() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let edges = try #require(list.data?.viewer?.todos.edges).compactMap { $0?.node }
            let todo = try #require(edges.first { !$0.complete })
            let completedBefore = try #require(list.data?.viewer?.completedCount)
            _ = try await client.perform(
                mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: todo.id, userId: "User:1")))
            let cached = try await client.fetch(query: TodoListQuery(first: 10), cachePolicy: .storeOnly)
            #expect(cached.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { $0.id == todo.id }?.complete == true)
            #expect(cached.data?.viewer?.completedCount == completedBefore + 1)
        }
    }

    @Test func aWatcherEmitsWhenAMutationChangesWhatItShowsAndNotOtherwise() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let emissions = Locked<[GraphQLResult<TodoListQuery.Data>]>([])
            let failure = Locked<(any Error)?>(nil)
            let watching = Task {
                do {
                    for try await result in client.watch(query: TodoListQuery(first: 10)) {
                        emissions.withLock { $0.append(result) }
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            try await waitUntil { emissions.withLock { $0.count } == 1 || failure.withLock { $0 } != nil }
            try #require(failure.withLock { $0 } == nil, "the watch failed: \(String(describing: failure.withLock { $0 }))")
            let initial = try #require(emissions.withLock { $0.first })
            #expect(initial.source == .server)
            let nodes = try #require(initial.data?.viewer?.todos.edges).compactMap { $0?.node }
            let first = try #require(nodes.first { !$0.complete })

            // Unrelated: no emission.
            _ = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            try await Task.sleep(for: .milliseconds(200))
            #expect(emissions.withLock { $0.count } == 1)

            // Related: one emission, from the store.
            _ = try await client.perform(
                mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: first.id, userId: "User:1")))
            try await waitUntil { emissions.withLock { $0.count } == 2 }
            let updated = try #require(emissions.withLock { $0.last })
            #expect(updated.source == .cache)
            #expect(updated.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { $0.id == first.id }?.complete == true)
            try await Task.sleep(for: .milliseconds(100))
            #expect(emissions.withLock { $0.count } == 2)

            watching.cancel()
            try await waitUntil { client.store.watcherCount == 0 }
        }
    }

    @Test func theCacheSurvivesARestartOfTheClient() async throws {
        try await withExampleServer { server in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("cache.sqlite")
            do {
                let client = BatonClient(url: server.url, store: Store(cache: try SQLiteNormalizedCache(fileURL: file))) { request in
                    request.headerFields[.authorization] = "secret-token-123"
                    return .send
                }
                #expect(try await client.fetch(query: hero).source == .server)
            }
            let port = try closedLoopbackPort()
            let restarted = BatonClient(
                url: URL(string: "http://127.0.0.1:\(port)/graphql")!, store: Store(cache: try SQLiteNormalizedCache(fileURL: file)))
            let cached = try await restarted.fetch(query: hero, cachePolicy: .storeOnly)
            #expect(cached.data?.hero?.name == "Luke Skywalker")
            for suffix in ["", "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file.path + suffix))) ?? Data()
                #expect(bytes.range(of: Data("secret-token-123".utf8)) == nil)
            }
        }
    }
}

/// Polls `condition` until it holds, failing after `timeout`.
/// Polls `condition` until it holds; throws after `timeout` (generous: CI machines are loaded).
func waitUntil(timeout: Duration = .seconds(60), _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { throw TimedOut() }
        try await Task.sleep(for: .milliseconds(10))
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String { "timed out waiting" }
}
