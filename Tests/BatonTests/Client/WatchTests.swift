import BatonAPI
import BatonExampleAPI
import Foundation
import Logging
import Testing

@testable import Baton

/// What Apollo iOS's `WatchQueryTests` expect of a watch, against the example server (issue 19).
@Suite("Watches")
struct WatchTests {
    let hero = HeroAndFriendsQuery(episode: .some(.case(.empire)))

    /// WatchQueryTests: "refetchOnFailedUpdates": a change that leaves the watched query
    /// unreadable makes the watch fetch it again, and it emits the server's answer.
    @Test func aChangeThatLeavesTheQueryUnreadableRefetches() async throws {
        try await withExampleServer { server in
            let counter = RequestCounter()
            let client = BatonClient(url: server.url, interceptors: [counter])
            let watch = Collector(client.watch(query: hero))
            try #require(await watch.wait { $0.elements.count == 1 })
            #expect(watch.elements[0].source == .server)
            // Another write points Luke's friends at a record the store does not have.
            client.store.publish(
                RecordSource(records: [Record(id: "Human:1000", typename: "Human", fields: ["friends": .list([.link("Human:9999")])])]))
            try #require(await watch.wait { $0.elements.count == 2 })
            #expect(watch.elements[1].source == .server)
            #expect(watch.elements[1].data?.hero?.friends?.count == watch.elements[0].data?.hero?.friends?.count)
            #expect(counter.count == 2)
            watch.cancel()
        }
    }

    /// The same change with refetching turned off: a result without data says the store can no
    /// longer read the query, where "nothing changed" emits nothing.
    @Test func withoutRefetchingAnUnreadableQueryIsSignalled() async throws {
        try await withExampleServer { server in
            let counter = RequestCounter()
            let client = BatonClient(url: server.url, interceptors: [counter])
            let watch = Collector(client.watch(query: hero, refetchOnFailedUpdates: false))
            try #require(await watch.wait { $0.elements.count == 1 })
            // An unrelated change: nothing.
            client.store.publish(RecordSource(records: [Record(id: "Human:1002", typename: "Human", fields: ["name": .scalar("Han")])]))
            client.store.publish(
                RecordSource(records: [Record(id: "Human:1000", typename: "Human", fields: ["friends": .list([.link("Human:9999")])])]))
            try #require(await watch.wait { $0.elements.count == 2 })
            let signal = watch.elements[1]
            #expect(signal.data == nil)
            #expect(signal.errors?.first?.extensions?["code"] == .string(storeCannotReadQueryErrorCode))
            #expect(counter.count == 1)
            watch.cancel()
        }
    }

    /// Apollo's long-standing issue #99: `.returnCacheDataDontFetch` on a cold cache must not end
    /// the watch; it emits once the data arrives from any other source.
    @Test func returnCacheDataDontFetchOnAColdStoreWaitsForTheData() async throws {
        try await withExampleServer { server in
            let counter = RequestCounter()
            let client = BatonClient(url: server.url, interceptors: [counter])
            let watch = Collector(client.watch(query: hero, cachePolicy: .returnCacheDataDontFetch))
            try await Task.sleep(for: .milliseconds(100))
            #expect(watch.elements.isEmpty)
            #expect(!watch.finished)
            #expect(counter.count == 0)
            _ = try await client.fetch(query: hero, cachePolicy: .networkOnly)
            try #require(await watch.wait { $0.elements.count == 1 })
            #expect(watch.elements[0].source == .cache)
            #expect(watch.elements[0].data?.hero?.name == "Luke Skywalker")
            #expect(watch.error == nil)
            watch.cancel()
        }
    }

    /// The watch skips exactly its own fetch's publish: a change another writer makes while that
    /// publish is being delivered is emitted.
    @Test func aChangePublishedDuringTheWatchsOwnPublishIsEmitted() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let descriptor = OperationDescriptor(operation: hero)
            let renamed = OnceFlag()
            // A store watcher registered first: when the watch's fetch lands it renames Luke, from
            // inside the delivery of that same publish.
            let (_, other) = client.store.subscribe(descriptor) { read in
                guard read.data?["hero"]?["name"] == "Luke Skywalker", renamed.setFirstTime() else { return }
                client.store.publish(RecordSource(records: [Record(id: "Human:1000", typename: "Human", fields: ["name": .scalar("Luke")])]))
            }
            defer { other.cancel() }
            let watch = Collector(client.watch(query: hero, cachePolicy: .networkOnly))
            try #require(await watch.wait { $0.elements.contains { $0.data?.hero?.name == "Luke" } })
            #expect(watch.elements.last?.data?.hero?.name == "Luke")
            #expect(watch.elements.filter { $0.source == .server }.count <= 1)
            watch.cancel()
        }
    }

    /// The first emission and `.fetchIgnoringCacheCompletely` have the store's shape: `__id` is
    /// the record ID on every path, never a trap.
    @Test func everyPathGivesRecordIDsForIDSelections() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let query = HeroRecordIDQuery(episode: .some(.case(.empire)))
            let ignoring = try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheCompletely)
            #expect(ignoring.data?.hero?.__id == "Human:1000")
            // Friends without an `id` selected have client IDs from their place.
            #expect(ignoring.data?.hero?.friends?.first??.__id == "client:Human:1000:friends:0")
            #expect(client.store.recordState(of: "Human:1000") == nil)
            let watch = Collector(client.watch(query: query))
            try #require(await watch.wait { !$0.elements.isEmpty })
            #expect(watch.elements[0].data?.hero?.__id == "Human:1000")
            watch.cancel()
            let fetched = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(fetched.data?.hero?.__id == "Human:1000")
            let cached = try await client.fetch(query: query, cachePolicy: .returnCacheDataDontFetch)
            #expect(cached.data == fetched.data)
        }
    }

    /// A slow consumer of a watch gets the newest data, not every state in between.
    @Test func aSlowConsumerGetsTheNewestResult() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.fetch(query: hero)
            var iterator = client.watch(query: hero, cachePolicy: .returnCacheDataDontFetch).makeAsyncIterator()
            #expect(try await iterator.next()?.data?.hero?.name == "Luke Skywalker")
            for index in 0..<50 {
                client.store.publish(RecordSource(records: [Record(id: "Human:1000", typename: "Human", fields: ["name": .scalar(.string("Luke \(index)"))])]))
            }
            #expect(try await iterator.next()?.data?.hero?.name == "Luke 49")
        }
    }

    /// `.returnCacheDataAndFetch`'s background fetch fails: its error reaches whatever the user
    /// holds. `fetchResults` delivers the cached result, then the error; the callback form calls
    /// the handler with both; a watch gives the cached result and ends with the error; the
    /// single-result `fetch` does not take the policy at all (it does not compile).
    @Test func theBackgroundFetchsErrorReachesWhatTheUserHolds() async throws {
        let url = try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.fetch(query: hero)
            return server.url
        }
        // The server is gone now; the store still answers.
        let store = Store()
        let warm = BatonClient(networkTransport: RequestChainNetworkTransport(url: url), store: store)
        store.write(data: try HeroAndFriendsQuery.Data(jsonObject: Self.lukeData), for: hero)

        var results: [GraphQLResult<HeroAndFriendsQuery.Data>] = []
        var failure: (any Error)?
        do {
            for try await result in warm.fetchResults(query: hero, cachePolicy: .returnCacheDataAndFetch) { results.append(result) }
        } catch {
            failure = error
        }
        #expect(results.map(\.source) == [.cache])
        #expect(failure is BatonError)

        let outcomes = Locked<[Result<GraphQLResult<HeroAndFriendsQuery.Data>, any Error>]>([])
        warm.fetch(query: hero, cachePolicy: .returnCacheDataAndFetch, queue: DispatchQueue(label: "test")) { result in
            outcomes.withLock { $0.append(result) }
        }
        #expect(await eventually(timeout: .seconds(30)) { outcomes.withLock { $0.count } == 2 })
        let delivered = outcomes.withLock { $0 }
        #expect((try? delivered.first?.get())?.source == .cache)
        if case .failure(let error)? = delivered.last { #expect(error is BatonError) } else { Issue.record("expected the failure last") }

        let watch = Collector(warm.watch(query: hero, cachePolicy: .returnCacheDataAndFetch))
        #expect(await eventually(timeout: .seconds(30)) { watch.finished })
        #expect(watch.elements.map(\.source) == [.cache])
        #expect(watch.error is BatonError)

        #expect(SingleResultCachePolicy(.returnCacheDataAndFetch) == nil)
        #expect(SingleResultCachePolicy(.returnCacheDataDontFetch) == .returnCacheDataDontFetch)
        let refused = try await BuiltModules.typecheck(
            """
            import Baton
            import BatonExampleAPI
            func f(_ client: BatonClient) async throws {
                _ = try await client.fetch(query: HeroNameQuery(episode: .empire), cachePolicy: .returnCacheDataAndFetch)
            }
            """)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("gives two results"), "\(refused.errors)")
    }

    /// One decision for every policy × entry point: which results come and how many requests go.
    @Test(arguments: [CachePolicy.returnCacheDataElseFetch, .returnCacheDataAndFetch, .returnCacheDataDontFetch, .fetchIgnoringCacheData, .fetchIgnoringCacheCompletely])
    func everyPolicyDecidesAlikeForFetchFetchResultsAndWatch(policy: CachePolicy) async throws {
        try await withExampleServer { server in
            for warmth in ["cold", "fresh", "stale"] {
                // Each entry point starts from the same store.
                func client() throws -> (BatonClient, RequestCounter) {
                    let counter = RequestCounter()
                    let client = BatonClient(url: server.url, interceptors: [counter])
                    if warmth != "cold" { client.store.write(data: try HeroAndFriendsQuery.Data(jsonObject: Self.lukeData), for: hero) }
                    if warmth == "fresh" { client.store.publish(RecordSource(), fetched: OperationDescriptor(operation: hero)) }
                    if warmth == "stale" { client.store.invalidateStore() }
                    return (client, counter)
                }
                let expected: [GraphQLResult<HeroAndFriendsQuery.Data>.Source] =
                    switch (policy, warmth) {
                    case (.returnCacheDataElseFetch, "fresh"): [.cache]
                    case (.returnCacheDataElseFetch, _): [.server]
                    case (.returnCacheDataAndFetch, "cold"): [.server]
                    case (.returnCacheDataAndFetch, _): [.cache, .server]
                    case (.returnCacheDataDontFetch, "cold"): []
                    case (.returnCacheDataDontFetch, _): [.cache]
                    default: [.server]
                    }
                let requests = expected.contains(.server) ? 1 : 0

                let (streaming, streamingCounter) = try client()
                var sources: [GraphQLResult<HeroAndFriendsQuery.Data>.Source] = []
                do {
                    for try await result in streaming.fetchResults(query: hero, cachePolicy: policy) { sources.append(result.source) }
                } catch BatonError.cacheMiss {
                    #expect(policy == .returnCacheDataDontFetch && warmth == "cold")
                }
                #expect(sources == expected, "fetchResults \(policy) \(warmth)")
                #expect(streamingCounter.count == requests, "fetchResults \(policy) \(warmth)")

                let (watching, watchingCounter) = try client()
                let watch = Collector(watching.watch(query: hero, cachePolicy: policy))
                if expected.isEmpty {
                    try await Task.sleep(for: .milliseconds(50))
                    #expect(watch.elements.isEmpty && !watch.finished, "watch \(policy) \(warmth)")
                } else {
                    // A watch keeps the newest result for its consumer: the earlier may be skipped.
                    try #require(await watch.wait { $0.elements.last?.source == expected.last }, "watch \(policy) \(warmth)")
                    let seen = watch.elements.map(\.source)
                    #expect(seen == expected || seen == [expected.last!], "watch \(policy) \(warmth): \(seen)")
                }
                watch.cancel()
                #expect(watchingCounter.count == requests, "watch \(policy) \(warmth)")

                // The single-result form does not take `.returnCacheDataAndFetch` (two results).
                guard let singlePolicy = SingleResultCachePolicy(policy) else {
                    #expect(policy == .returnCacheDataAndFetch)
                    continue
                }
                let (single, singleCounter) = try client()
                do {
                    let result = try await single.fetch(query: hero, cachePolicy: singlePolicy)
                    #expect(result.source == expected.first, "fetch \(policy) \(warmth)")
                } catch BatonError.cacheMiss {
                    #expect(expected.isEmpty, "fetch \(policy) \(warmth)")
                }
                #expect(singleCounter.count == requests, "fetch \(policy) \(warmth)")
            }
        }
    }

    static let lukeData: JSONObject = [
        "hero": [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"],
            "friends": [["__typename": "Human", "name": "Han Solo"]], "height": 5.6430448,
        ]
    ]
}

/// Keeps the messages logged through it.
final class LogCapture: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [String] { lock.withLock { stored } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { stored.append(event.message.description) }
    }
}
