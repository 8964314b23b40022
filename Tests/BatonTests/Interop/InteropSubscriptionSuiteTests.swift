import BatonAPI
import BatonAsyncHTTPClient
import BatonTestSupport
import BatonWebSocket
import Foundation
import Testing

@testable import Baton

/// One way to run subscriptions against the strawberry peer: over a WebSocket, or over HTTP by
/// Apollo's multipart protocol or by Server-Sent Events, each over both HTTP clients. Queries
/// always go over plain HTTP; `SplitNetworkTransport` picks the subscription side.
enum SubscriptionTransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case webSocket
    case multipartURLSession
    case multipartAsyncHTTPClient
    case serverSentEventsURLSession
    case serverSentEventsAsyncHTTPClient

    var testDescription: String { rawValue }

    var httpSubscriptionProtocol: HTTPSubscriptionProtocol? {
        switch self {
        case .webSocket: return nil
        case .multipartURLSession, .multipartAsyncHTTPClient: return .multipart
        case .serverSentEventsURLSession, .serverSentEventsAsyncHTTPClient: return .serverSentEvents
        }
    }

    var httpClient: HTTPClientKind {
        switch self {
        case .multipartAsyncHTTPClient, .serverSentEventsAsyncHTTPClient: return .asyncHTTPClient
        default: return .urlSession
        }
    }

    /// A client whose subscriptions go this way, sending `authorization` as the peer reads it
    /// (the `Authorization` header over HTTP, `connection_init`'s `authToken` over a WebSocket).
    func client(_ peer: InteropPeer, authorization: String? = nil) -> BatonClient {
        let http = RequestChainNetworkTransport(url: peer.url, httpClient: httpClient.make())
        let subscriptions: any SubscriptionNetworkTransport
        if let httpSubscriptionProtocol {
            var fields = HTTPFields()
            if let authorization { fields[.authorization] = authorization }
            subscriptions = RequestChainNetworkTransport(
                url: peer.url, headerFields: fields, httpClient: httpClient.make(), subscriptionProtocol: httpSubscriptionProtocol)
        } else {
            let payload: WebSocketTransportConfiguration.ConnectionPayload =
                authorization.map { WebSocketTransportConfiguration.payload(["authToken": .string($0)]) } ?? { @Sendable in nil }
            subscriptions = WebSocketNetworkTransport(
                url: peer.webSocketURL,
                configuration: WebSocketTransportConfiguration(connectionPayload: payload, reconnect: .never))
        }
        return BatonClient(networkTransport: SplitNetworkTransport(http: http, subscriptions: subscriptions))
    }
}

/// The shared subscription suite: every subscription transport Baton has, against the same
/// independent server, for the same guarantees.
@Suite("Subscriptions over WebSocket, multipart HTTP and SSE (strawberry peer)", .serialized)
struct InteropSubscriptionSuiteTests {
    /// How many subscriptions the peer is running, asked over plain HTTP.
    static func activeSubscriptions(_ peer: InteropPeer) async throws -> Int {
        let client = BatonClient(url: peer.url)
        return try await client.fetch(query: InteropActiveSubscriptionsQuery(), cachePolicy: .networkOnly).data?.activeSubscriptions ?? -1
    }

    /// Polls the peer until no subscription runs there (no bound on how long that takes but a
    /// generous one against a hang).
    static func noSubscriptionRuns(_ peer: InteropPeer) async throws -> Bool {
        for _ in 0..<600 {
            if try await activeSubscriptions(peer) == 0 { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test(arguments: SubscriptionTransportKind.allCases)
    func eventsArriveInOrderAndAreNormalized(kind: SubscriptionTransportKind) async throws {
        try await withInteropPeer { peer in
            let client = kind.client(peer)
            let subscription = InteropCountSubscription(to: 5)
            var values: [Int] = []
            for try await result in client.subscribe(subscription: subscription) {
                #expect(result.errors == nil)
                #expect(result.source == .server)
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2, 3, 4, 5])
            // Each event went through the store; the last one is what it holds.
            let stored = client.store.read(OperationDescriptor(operation: subscription))
            #expect(stored.data?["count"] == .int(5))
        }
    }

    @Test(arguments: SubscriptionTransportKind.allCases)
    func graphQLErrorsComeAsResultsAndTheSubscriptionEnds(kind: SubscriptionTransportKind) async throws {
        try await withInteropPeer { peer in
            let client = kind.client(peer)
            var values: [Int] = []
            var errors: [GraphQLError] = []
            for try await result in client.subscribe(subscription: InteropCountThenFailSubscription(to: 2)) {
                if let value = result.data?.countThenFail { values.append(value) }
                errors += result.errors ?? []
            }
            #expect(values == [1, 2])
            #expect(errors.map(\.message) == ["countThenFail failed after 2"])
        }
    }

    @Test(arguments: SubscriptionTransportKind.allCases)
    func cancellingStopsTheSubscriptionOnTheServer(kind: SubscriptionTransportKind) async throws {
        try await withInteropPeer { peer in
            let client = kind.client(peer)
            var first: Int?
            for try await result in client.subscribe(subscription: InteropSlowCountSubscription(to: 100_000, delayMs: 50)) {
                first = result.data?.count
                break  // leaving the loop cancels the subscription
            }
            #expect(first == 1)
            #expect(try await Self.noSubscriptionRuns(peer))
            // The client is still usable.
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropCountSubscription(to: 2)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2])
        }
    }

    @Test(arguments: SubscriptionTransportKind.allCases)
    func aServerRestartEndsTheSubscriptionWithATypedErrorAndTheNextOneWorks(kind: SubscriptionTransportKind) async throws {
        await PeerSlots.shared.acquire()
        defer { Task { await PeerSlots.shared.release() } }
        let peer = try await onOwnThread { try InteropPeer.start() }
        let client = kind.client(peer)
        let results = Collector(client.subscribe(subscription: InteropSlowCountSubscription(to: 100_000, delayMs: 50)))
        try #require(await results.wait { !$0.elements.isEmpty || $0.finished })
        await onOwnThread { peer.stop() }
        // The same port again, as a restarted server listens (stopped off Swift's thread pool).
        let restarted = try await onOwnThread { try InteropPeer.start(["--port", "\(peer.port)"]) }
        do {
            try #require(await results.wait { $0.finished })
            let error = try #require(results.error)
            switch kind {
            case .webSocket:
                #expect(error is WebSocketTransportError, "\(error)")
            default:
                if case .network? = error as? BatonError {} else { Issue.record("expected BatonError.network, got \(error)") }
            }
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropCountSubscription(to: 2)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2])
        } catch {
            await onOwnThread { restarted.stop() }
            throw error
        }
        await onOwnThread { restarted.stop() }
    }

    @Test(arguments: SubscriptionTransportKind.allCases)
    func aRefusedAuthorizationFailsWithATypedError(kind: SubscriptionTransportKind) async throws {
        try await withInteropPeer { peer in
            let client = kind.client(peer, authorization: "reject")
            do {
                for try await _ in client.subscribe(subscription: InteropCountSubscription(to: 2)) {
                    Issue.record("a refused subscription delivered an event")
                }
                Issue.record("a refused subscription completed")
            } catch let error as WebSocketTransportError {
                #expect(kind == .webSocket)
                guard case .closed(let code, _) = error else {
                    Issue.record("expected a close, got \(error)")
                    return
                }
                #expect(code == .forbidden)
            } catch BatonError.httpStatus(_, let status, _, _, _) {
                #expect(kind != .webSocket)
                #expect(status == 401)
            }
            // The same server accepts the same subscription with other credentials.
            var values: [Int] = []
            for try await result in kind.client(peer, authorization: "fine").subscribe(subscription: InteropCountSubscription(to: 1)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1])
        }
    }

    @Test(arguments: SubscriptionTransportKind.allCases)
    func aConsumerThatFallsBehindGetsEveryEventThroughBackPressure(kind: SubscriptionTransportKind) async throws {
        try await withInteropPeer { peer in
            let client = kind.client(peer)
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropSlowCountSubscription(to: 200, delayMs: 0), bufferLimit: 2) {
                if let value = result.data?.count { values.append(value) }
                // Fall behind now and then: Baton waits for the consumer rather than stop the subscription.
                if values.count % 50 == 1 { try await Task.sleep(for: .milliseconds(200)) }
            }
            // Everything came, in order, with nothing skipped.
            #expect(values == Array(1...200))
        }
    }
}
