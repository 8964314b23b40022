import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import BatonWebSocket
import Foundation
import Testing

@testable import Baton

/// Cancelling the task of an operation stops its work on the wire and frees what it held.
@Suite("Cancellation")
struct CancellationTests {
    @Test(arguments: HTTPClientKind.allCases)
    func cancellingAFetchCancelsItsHTTPRequest(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.record(connection.waitForClientClose(seconds: 30) ? "client closed" : "client stayed")
        }
        defer { server.stop() }
        let client = BatonClient(url: server.url, httpClient: kind.make(), timeout: .seconds(60))
        let fetch = Task { try await client.fetch(query: HeroNameQuery(episode: .none), cachePolicy: .networkOnly) }
        #expect(await eventually(timeout: .seconds(20)) { server.requests.count == 1 })
        let start = ContinuousClock.now
        fetch.cancel()
        let outcome = await fetch.result
        guard case .failure(let error) = outcome else {
            Issue.record("a cancelled fetch returned a result")
            return
        }
        #expect(error is CancellationError, "\(error)")
        // The request's time-out is a minute: ending well before it is ending at once.
        #expect(ContinuousClock.now - start < .seconds(30))
        // The request's connection is closed: the server is not left waiting on it.
        #expect(await eventually(timeout: .seconds(10)) { server.events == ["client closed"] })
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func cancellingASubscriptionCompletesItAndClosesTheSocketOnlyWhenUnused(protocol: GraphQLWebSocketProtocol) async throws {
        // One connection, two subscriptions: the scripted server serves the first; the second
        // goes over the same socket, so the script only sees its `complete` as another message.
        let server = try WebSocketFaultTests.subscriptionServer(`protocol`, values: { _ in [1] }, ending: { _ in .awaitClientClose })
        defer { server.stop() }
        let client = BatonClient(networkTransport: WebSocketFaultTests.transport(server, `protocol`))
        let first = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try #require(await first.wait(timeout: .seconds(30)) { $0.elements.count == 1 })
        let second = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try await Task.sleep(for: .milliseconds(200))

        first.cancel()
        #expect(await eventually(timeout: .seconds(30)) { server.events.contains("completed 1") })
        try await Task.sleep(for: .milliseconds(300))
        #expect(!server.events.contains("client closed 1"), "the socket closed while the second subscription used it")

        second.cancel()
        #expect(await eventually(timeout: .seconds(30)) { server.events.contains("client closed 1") })
        #expect(server.events.filter { $0.hasPrefix("connected") }.count == 1)
    }

    @Test func cancellingAWatchFreesItsWatcherAndRetention() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let watch = Collector(client.watch(query: HeroNameQuery(episode: .none)))
            try #require(await watch.wait { $0.elements.count == 1 })
            #expect(client.store.watcherCount == 1)
            watch.cancel()
            #expect(await eventually(timeout: .seconds(10)) { client.store.watcherCount == 0 })
        }
    }

    /// Open file descriptors of this process.
    static func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func tenThousandOperationsAndCancellationsLeakNoDescriptors() async throws {
        try await withExampleServer(webSocket: .patient) { server in
            let client = BatonClient(
                networkTransport: SplitNetworkTransport(
                    http: RequestChainNetworkTransport(url: server.url, timeout: .seconds(30)),
                    webSocket: webSocketTransport(server, idleClosing: .never)))
            let query = HeroNameQuery(episode: .none)
            // Warm up: the first connections and threads are not leaks.
            for _ in 0..<20 { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
            for try await _ in client.subscribe(subscription: CountSubscription(to: 1)) {}
            let before = Self.openDescriptorCount()
            let watchersBefore = client.store.watcherCount

            for iteration in 0..<10_000 {
                switch iteration % 4 {
                case 0:
                    _ = try await client.fetch(query: query, cachePolicy: .networkOnly)
                case 1:
                    // Cancelled at once, or mid-flight.
                    let fetch = Task { try await client.fetch(query: query, cachePolicy: .networkOnly) }
                    if iteration % 8 == 1 { await Task.yield() }
                    fetch.cancel()
                    _ = await fetch.result
                case 2:
                    let watch = Task {
                        for try await _ in client.watch(query: query, cachePolicy: .returnCacheDataElseFetch) { break }
                    }
                    _ = await watch.result
                default:
                    // A subscription cancelled after its first value.
                    for try await _ in client.subscribe(subscription: CountSubscription(to: 3)) { break }
                }
            }
            #expect(await eventually(timeout: .seconds(30)) { client.store.watcherCount == watchersBefore })
            // Connections the HTTP client pools may come and go; a leak grows with the iterations.
            var after = Self.openDescriptorCount()
            if after > before + 16 {
                try await Task.sleep(for: .seconds(3))
                after = Self.openDescriptorCount()
            }
            #expect(after <= before + 16, "descriptors before: \(before), after 10,000 iterations: \(after)")
        }
    }
}
