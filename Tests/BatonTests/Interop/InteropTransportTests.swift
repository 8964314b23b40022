import BatonAPI
import BatonWebSocket
import BatonDigest
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// The transport features against the strawberry peer: GET, automatic persisted queries,
/// multipart uploads, `@defer`/`@stream` in both formats, both WebSocket protocols; over both
/// HTTP clients where HTTP is involved.
@Suite("Interop transport with an independent Python server (strawberry-graphql)", .serialized)
struct InteropTransportTests {
    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test(arguments: HTTPClientKind.allCases)
    func getForQueriesPostForMutations(kind: HTTPClientKind) async throws {
        try await withInteropPeer { peer in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: peer.url, httpClient: recorder, useGETForQueries: true)
            let hello = try await client.fetch(query: InteropHelloQuery(name: "GET"), cachePolicy: .networkOnly)
            #expect(hello.data?.hello == "Hello, GET!")
            let added = try await client.perform(mutation: InteropAddMessageMutation(text: "posted"))
            #expect(added.data?.addMessage.text == "posted")
            #expect(recorder.requests.map(\.method) == [.get, .post])
            #expect(recorder.requests.first?.queryParameters["variables"] == #"{"name":"GET"}"#)
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func automaticPersistedQueries(kind: HTTPClientKind) async throws {
        try await withInteropPeer { peer in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: peer.url, httpClient: recorder, autoPersistQueries: true)
            // The hash alone misses, the retry registers the document, the next request hits.
            let first = try await client.fetch(query: InteropHeroQuery(id: "1002"), cachePolicy: .networkOnly)
            #expect(first.data?.hero?.name == "Han Solo")
            #expect(recorder.requests.count == 2)
            let second = try await client.fetch(query: InteropHeroQuery(id: "1003"), cachePolicy: .networkOnly)
            #expect(second.data?.hero?.name == "Leia Organa")
            #expect(recorder.requests.count == 3)
            let sent = recorder.requests.map { $0.bodyJSON?["query"] != nil }
            #expect(sent == [false, true, false])
        }
    }

    @Test func automaticPersistedQueriesRetryByGET() async throws {
        try await withInteropPeer(["--apq-not-found-status", "404"]) { peer in
            let recorder = RecordingHTTPClient(.urlSession)
            let client = BatonClient(
                url: peer.url, httpClient: recorder, useGETForQueries: true, autoPersistQueries: true, useGETForPersistedQueryRetry: true)
            let result = try await client.fetch(query: InteropHelloQuery(name: "APQ"), cachePolicy: .networkOnly)
            #expect(result.data?.hello == "Hello, APQ!")
            #expect(recorder.requests.map(\.method) == [.get, .get])
            #expect(recorder.requests.last?.queryParameters["query"] != nil)
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func uploadsReachTheServerByteForByte(kind: HTTPClientKind) async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(url: peer.url, httpClient: kind.make())
            let text = Data("hello from Baton\n".utf8)
            let single = try await client.upload(
                operation: InteropSingleUploadMutation(file: "a"),
                files: [GraphQLFile(fieldName: "file", originalName: "a.txt", mimeType: "text/plain", data: text)])
            #expect(single.data?.singleUpload.sha256 == Self.sha256(text))
            #expect(single.data?.singleUpload.filename == "a.txt")
            #expect(single.data?.singleUpload.size == text.count)

            // Several files under one variable, one of them streamed from disk.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-interop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let fileURL = directory.appendingPathComponent("large.bin")
            try large.write(to: fileURL)
            let multiple = try await client.upload(
                operation: InteropMultipleUploadMutation(files: ["a", "b"]),
                files: [
                    GraphQLFile(fieldName: "files", originalName: "small.txt", mimeType: "text/plain", data: text),
                    GraphQLFile(fieldName: "files", originalName: "large.bin", fileURL: fileURL)!,
                ])
            #expect(multiple.data?.multipleUpload.map(\.sha256) == [Self.sha256(text), Self.sha256(large)])
            #expect(multiple.data?.multipleUpload.map(\.filename) == ["small.txt", "large.bin"])
        }
    }

    @Test(arguments: IncrementalDeliveryFormat.allCases)
    func deferredFragmentsArriveLater(format: IncrementalDeliveryFormat) async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(
                networkTransport: RequestChainNetworkTransport(url: peer.url, incrementalDeliveryFormats: [format]))
            var results: [GraphQLResult<InteropDeferredHeroQuery.Data>] = []
            for try await result in client.fetchResults(query: InteropDeferredHeroQuery(id: "1000"), cachePolicy: .networkOnly) {
                results.append(result)
            }
            try #require(results.count >= 2)
            #expect(results.first?.data?.hero?.name == "Luke Skywalker")
            #expect(results.first?.data?.hero?.asCharacterDeferred == nil)
            let last = try #require(results.last?.data?.hero)
            #expect(last.asCharacterDeferred?.biography.isEmpty == false)
            // Normalized: the store answers the whole query.
            let cached = try await client.fetch(query: InteropDeferredHeroQuery(id: "1000"), cachePolicy: .returnCacheDataDontFetch)
            #expect(cached.data == results.last?.data)
        }
    }

    @Test(arguments: IncrementalDeliveryFormat.allCases)
    func streamedListItemsArriveOneByOne(format: IncrementalDeliveryFormat) async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(
                networkTransport: RequestChainNetworkTransport(url: peer.url, incrementalDeliveryFormats: [format]))
            var counts: [Int] = []
            var last: InteropStreamedFriendsQuery.Data?
            for try await result in client.fetchResults(query: InteropStreamedFriendsQuery(id: "1000"), cachePolicy: .networkOnly) {
                counts.append(result.data?.hero?.friends.count ?? -1)
                last = result.data
            }
            #expect(counts.first == 1)
            #expect(counts.last == 4)
            #expect(counts.count >= 3)
            #expect(last?.hero?.friends.map(\.name) == ["Han Solo", "Leia Organa", "C-3PO", "R2-D2"])
        }
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func subscriptionsOverBothWebSocketProtocols(protocol: GraphQLWebSocketProtocol) async throws {
        try await withInteropPeer { peer in
            let webSocket = WebSocketNetworkTransport(
                url: peer.webSocketURL, configuration: WebSocketTransportConfiguration(protocol: `protocol`))
            let client = BatonClient(
                networkTransport: SplitNetworkTransport(http: RequestChainNetworkTransport(url: peer.url), webSocket: webSocket))
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropCountSubscription(to: 3)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2, 3])
            // Queries still go over HTTP, and can go over the socket too.
            let split = try await client.fetch(query: InteropHelloQuery(name: "split"), cachePolicy: .networkOnly)
            #expect(split.data?.hello == "Hello, split!")
            let overSocket = try await BatonClient(networkTransport: webSocket).fetch(query: InteropHelloQuery(name: "socket"), cachePolicy: .networkOnly)
            #expect(overSocket.data?.hello == "Hello, socket!")
        }
    }

    @Test func webSocketAuthorizationPayloadAndRejection() async throws {
        try await withInteropPeer { peer in
            let accepted = WebSocketNetworkTransport(
                url: peer.webSocketURL, configuration: WebSocketTransportConfiguration(connectionPayload: WebSocketTransportConfiguration.payload(["authToken": "secret"])))
            let client = BatonClient(networkTransport: accepted)
            let authorized = try await client.fetch(query: InteropAuthorizationQuery(), cachePolicy: .networkOnly)
            #expect(authorized.data?.authorization == "secret")

            let rejected = WebSocketNetworkTransport(
                url: peer.webSocketURL,
                configuration: WebSocketTransportConfiguration(
                    connectionPayload: WebSocketTransportConfiguration.payload(["authToken": "reject"]),
                    reconnect: ReconnectPolicy(maxAttempts: 0, initialDelay: .milliseconds(10), maxDelay: .milliseconds(10))))
            await #expect(throws: WebSocketTransportError.self) {
                _ = try await BatonClient(networkTransport: rejected).fetch(query: InteropAuthorizationQuery(), cachePolicy: .networkOnly)
            }
        }
    }

    /// Automatic persisted queries over the socket: the peer keeps one store for HTTP and
    /// WebSocket, so an id-only HTTP client sees what the socket registered.
    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func automaticPersistedQueriesOverWebSocket(protocol: GraphQLWebSocketProtocol) async throws {
        try await withInteropPeer { peer in
            let idsOnly = BatonClient(url: peer.url, persistedQueriesOnly: true)
            await #expect(throws: BatonError.self) {
                _ = try await idsOnly.fetch(query: InteropHelloQuery(name: "apq"), cachePolicy: .networkOnly)
            }
            let webSocket = WebSocketNetworkTransport(
                url: peer.webSocketURL, configuration: WebSocketTransportConfiguration(protocol: `protocol`, autoPersistQueries: true))
            let client = BatonClient(networkTransport: webSocket)
            let first = try await client.fetch(query: InteropHelloQuery(name: "apq"), cachePolicy: .networkOnly)
            #expect(first.data?.hello == "Hello, apq!")
            let again = try await client.fetch(query: InteropHelloQuery(name: "again"), cachePolicy: .networkOnly)
            #expect(again.data?.hello == "Hello, again!")
            // Registered by the socket's retry: the id alone now works over HTTP.
            let byID = try await idsOnly.fetch(query: InteropHelloQuery(name: "id"), cachePolicy: .networkOnly)
            #expect(byID.data?.hello == "Hello, id!")
            // Subscriptions go the same way.
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropCountSubscription(to: 2)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2])
        }
    }

    /// strawberry as shipped checks the handshake's Origin (cross-site WebSocket hijacking): it
    /// accepts its own origin (host and port) and no Origin, and refuses any other with 403.
    /// Baton sends the server's origin by default; a configured Origin replaces it (two Origin
    /// headers would get 400).
    @Test(arguments: [
        WebSocketTransportConfiguration.Origin.server, .omitted, .value("http://127.0.0.1:{port}"),
    ])
    func webSocketOriginsStrawberryAccepts(origin: WebSocketTransportConfiguration.Origin) async throws {
        try await withInteropPeer { peer in
            var resolved = origin
            if case .value(let value) = origin { resolved = .value(value.replacingOccurrences(of: "{port}", with: "\(peer.port)")) }
            let webSocket = WebSocketNetworkTransport(
                url: peer.webSocketURL,
                configuration: WebSocketTransportConfiguration(origin: resolved, reconnect: .never))
            let result = try await BatonClient(networkTransport: webSocket).fetch(
                query: InteropHelloQuery(name: "origin"), cachePolicy: .networkOnly)
            #expect(result.data?.hello == "Hello, origin!")
        }
    }

    /// A cross-origin handshake is refused with 403: with the README's reconnect policy the
    /// subscription fails at once (no backoff) with the status, whether the Origin comes from
    /// the configuration or from `headerFields` (which replaces Baton's own).
    @Test(arguments: [false, true])
    func refusedCrossOriginUpgradeFailsAtOnceWithItsStatus(inHeaderFields: Bool) async throws {
        try await withInteropPeer { peer in
            var configuration = WebSocketTransportConfiguration(
                reconnect: .exponentialBackoff(maxAttempts: 5, initialDelay: .seconds(60), maxDelay: .seconds(60)))
            if inHeaderFields {
                configuration.headerFields[.origin] = "https://elsewhere.example"
            } else {
                configuration.origin = .value("https://elsewhere.example")
            }
            let client = BatonClient(networkTransport: WebSocketNetworkTransport(url: peer.webSocketURL, configuration: configuration))
            let clock = ContinuousClock()
            let start = clock.now
            do {
                for try await _ in client.subscribe(subscription: InteropCountSubscription(to: 2)) {}
                Issue.record("the subscription ran")
            } catch let error as WebSocketTransportError {
                guard case .upgradeRefused(let status, _) = error else {
                    Issue.record("not a refused upgrade: \(error)")
                    return
                }
                #expect(status == 403)
                #expect(error.upgradeStatus == 403)
            }
            // One retry would wait a minute: far beyond what a loaded machine adds.
            #expect(clock.now - start < .seconds(30))
        }
    }
}
