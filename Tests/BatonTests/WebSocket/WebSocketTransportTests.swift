import BatonAPI
import BatonExampleAPI
import BatonExampleServer
@testable import BatonWebSocket
import Foundation
import Testing

@testable import Baton

@Suite("Subscriptions and operations over a WebSocket, against the example server")
struct WebSocketTransportTests {
    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func countsToThree(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer { server in
            let transport = webSocketTransport(server, protocol: `protocol`)
            let client = BatonClient(networkTransport: transport)
            var values: [Int] = []
            for try await result in client.subscribe(subscription: CountSubscription(to: 3)) {
                #expect(result.errors == nil)
                #expect(result.source == .server)
                values.append(try #require(result.data?.count))
            }
            #expect(values == [1, 2, 3])
            // The subprotocol was negotiated from the header, and the idle socket closed.
            #expect(server.webSockets.events.first == .connected(subprotocol: `protocol`.rawValue))
            try #require(await server.webSockets.wait { $0.contains(.disconnected) })
            if `protocol` == .graphqlWS {
                #expect(server.webSockets.events.contains(.terminatedByClient))
            }
        }
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func twoSubscriptionsShareOneSocket(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`))
            let first = Collector(client.subscribe(subscription: TodoChangedSubscription()))
            let second = Collector(client.subscribe(subscription: TodoChangedSubscription()))
            try #require(await server.webSockets.wait { $0.filter { if case .operationStarted = $0 { true } else { false } }.count == 2 })

            try await changeStatus(of: "Todo:2", complete: true, server: server)
            try #require(await first.wait { $0.elements.count == 1 })
            try #require(await second.wait { $0.elements.count == 1 })
            #expect(first.elements.first?.data?.todoChanged.id == "Todo:2")
            #expect(second.elements.first?.data?.todoChanged.complete == true)

            // Counting runs beside them on the same socket and ends on its own.
            var counted: [Int] = []
            for try await result in client.subscribe(subscription: CountSubscription(to: 2)) {
                counted.append(result.data?.count ?? 0)
            }
            #expect(counted == [1, 2])
            #expect(server.webSockets.events.filter { if case .connected = $0 { true } else { false } }.count == 1)
            #expect(server.webSockets.openCount == 1)
            first.cancel()
            second.cancel()
            try #require(await server.webSockets.wait { _ in server.webSockets.openCount == 0 })
        }
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func theConnectionPayloadIsChecked(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer(webSocket: WebSocketOptions(connectionInitTimeout: .seconds(30), requiredConnectionToken: "secret")) { server in
            let accepted = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`, payload: ["token": "secret"]))
            var values: [Int] = []
            for try await result in accepted.subscribe(subscription: CountSubscription(to: 1)) {
                values.append(result.data?.count ?? 0)
            }
            #expect(values == [1])
            #expect(server.webSockets.events.contains(.initialized(payload: #"{"token":"secret"}"#)))

            let refused = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`, payload: ["token": "wrong"]))
            do {
                for try await _ in refused.subscribe(subscription: CountSubscription(to: 1)) {
                    Issue.record("a refused connection delivered a result")
                }
                Issue.record("a refused connection ended without an error")
            } catch let error as WebSocketTransportError {
                switch (`protocol`, error) {
                case (.graphqlTransportWS, .closed(let code, let reason)):
                    #expect(code == .forbidden)
                    #expect(reason == "Forbidden")
                case (.graphqlWS, .connectionRejected(let payload)):
                    #expect(payload?["message"]?.stringValue == "Forbidden")
                default:
                    Issue.record("unexpected error: \(error)")
                }
            }
            #expect(server.webSockets.events.contains(.closedByServer(code: 4403)))
        }
    }

    @Test func theClientAnswersTheServersPingAndPingsItself() async throws {
        try await withExampleServer { server in
            // A pong must come within the interval, so the interval is what a loaded machine needs:
            // the example server answers on the same process's threads as the other tests, and
            // under `scripts/test-under-load` a 3 s interval saw a pong come late (the client then
            // rightly reconnected, and the test counted two connections).
            let client = BatonClient(networkTransport: webSocketTransport(server, pingInterval: .seconds(8)))
            let changes = Collector(client.subscribe(subscription: TodoChangedSubscription()))
            try #require(await server.webSockets.wait { $0.contains(.operationStarted(id: "1")) })
            await server.webSockets.pingAll()
            try #require(await server.webSockets.wait { $0.contains(.pongReceived) })
            // The client's own pings are answered, so the connection stays up.
            try #require(await server.webSockets.wait { $0.filter { $0 == .pingReceived }.count >= 2 })
            #expect(server.webSockets.events.filter { if case .connected = $0 { true } else { false } }.count == 1)
            changes.cancel()
            try #require(await changes.wait { $0.finished })
        }
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func cancellingTheConsumerStopsTheOperationOnTheServer(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`))
            let changes = Collector(client.subscribe(subscription: TodoChangedSubscription()))
            try #require(await server.webSockets.wait { $0.contains(.operationStarted(id: "1")) })
            changes.cancel()
            // `complete` (graphql-transport-ws) or `stop` (graphql-ws) arrives, then the idle socket closes.
            try #require(await server.webSockets.wait { $0.contains(.operationStoppedByClient(id: "1")) })
            try #require(await server.webSockets.wait { $0.contains(.disconnected) })
            #expect(!server.webSockets.events.contains(.operationCompleted(id: "1")))
        }
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func aDroppedSocketIsReconnectedAndTheSubscriptionResumed(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`))
            let changes = Collector(client.subscribe(subscription: TodoChangedSubscription()))
            try #require(await server.webSockets.wait { $0.contains(.operationStarted(id: "1")) })

            await server.webSockets.closeAll(code: 1001)
            let started: @Sendable ([WebSocketServerEvent]) -> Bool = { events in
                events.filter { $0 == .operationStarted(id: "1") }.count == 2
            }
            try #require(await server.webSockets.wait(until: started))
            #expect(server.webSockets.events.filter { if case .connected = $0 { true } else { false } }.count == 2)

            try await changeStatus(of: "Todo:3", complete: true, server: server)
            try #require(await changes.wait { $0.elements.count == 1 })
            #expect(changes.elements.first?.data?.todoChanged.id == "Todo:3")
            #expect(changes.error == nil)
            changes.cancel()
        }
    }

    @Test func reconnectingGivesUpAfterItsAttempts() async throws {
        let server = try await ExampleServer.start()
        let transport = webSocketTransport(
            server, reconnect: .exponentialBackoff(maxAttempts: 2, initialDelay: .milliseconds(20), maxDelay: .milliseconds(40)))
        let changes = Collector(BatonClient(networkTransport: transport).subscribe(subscription: TodoChangedSubscription()))
        try #require(await server.webSockets.wait { $0.contains(.operationStarted(id: "1")) })
        await server.stop()
        try #require(await changes.wait { $0.finished })
        let error = try #require(changes.error as? WebSocketTransportError)
        guard case .reconnectAttemptsExhausted(let attempts, _) = error else {
            Issue.record("unexpected error: \(error)")
            return
        }
        #expect(attempts == 2)
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func queriesAndMutationsGoOverTheSocketToo(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`, idleClosing: .never))
            let hero = try await client.fetch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))))
            #expect(hero.data?.hero?.name == "Luke Skywalker")
            let upvoted = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            let votes = try #require(upvoted.data?.upvotePost?.votes)
            let again = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            #expect(again.data?.upvotePost?.votes == votes + 1)
            #expect(server.webSockets.events.filter { if case .operationCompleted = $0 { true } else { false } }.count == 3)
            #expect(server.webSockets.events.filter { if case .connected = $0 { true } else { false } }.count == 1)
            // Responses are normalized as over HTTP.
            let cached = try await client.fetch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))), cachePolicy: .storeOnly)
            #expect(cached.data?.hero?.name == "Luke Skywalker")
            await (client.networkTransport as? WebSocketNetworkTransport)?.disconnect()
            try #require(await server.webSockets.wait { _ in server.webSockets.openCount == 0 })
        }
    }

    @Test func theSplitTransportSendsSubscriptionsOverTheSocketAndTheRestOverHTTP() async throws {
        try await withExampleServer { server in
            let split = SplitNetworkTransport(
                uploadingNetworkTransport: RequestChainNetworkTransport(url: server.url),
                webSocketNetworkTransport: webSocketTransport(server))
            let client = BatonClient(networkTransport: split)
            let hero = try await client.fetch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))))
            #expect(hero.data?.hero?.name == "Luke Skywalker")
            _ = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            #expect(server.webSockets.events.isEmpty)  // no socket yet: it opens lazily
            var counted: [Int] = []
            for try await result in client.subscribe(subscription: CountSubscription(to: 3)) {
                counted.append(result.data?.count ?? 0)
            }
            #expect(counted == [1, 2, 3])
            #expect(server.webSockets.events.filter { if case .operationStarted = $0 { true } else { false } }.count == 1)

            let everything = BatonClient(
                networkTransport: SplitNetworkTransport(
                    http: RequestChainNetworkTransport(url: server.url), webSocket: webSocketTransport(server),
                    sendsEverythingOverWebSocket: true))
            _ = try await everything.fetch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))))
            #expect(server.webSockets.events.filter { if case .operationStarted = $0 { true } else { false } }.count == 2)
        }
    }

    @Test func subscriptionDataIsNormalizedIntoTheStoreAndWatchersSeeIt() async throws {
        try await withExampleServer { server in
            let client = BatonClient(
                networkTransport: SplitNetworkTransport(
                    http: RequestChainNetworkTransport(url: server.url), webSocket: webSocketTransport(server)))
            let watcher = Collector(client.watch(query: TodoListQuery(first: 10)))
            try #require(await watcher.wait { $0.elements.count == 1 })
            let before = watcher.elements.last?.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { $0.id == "Todo:2" }
            #expect(before?.complete == false)

            let changes = Collector(client.subscribe(subscription: TodoChangedSubscription()))
            try #require(await server.webSockets.wait { $0.contains(.operationStarted(id: "1")) })
            // Another client (its own store) changes the todo; only the subscription tells this one.
            try await changeStatus(of: "Todo:2", complete: true, server: server)
            try #require(await changes.wait { $0.elements.count == 1 })
            try #require(await watcher.wait { $0.elements.count == 2 })
            let after = watcher.elements.last?.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { $0.id == "Todo:2" }
            #expect(after?.complete == true)
            #expect(watcher.elements.last?.source == .cache)
            changes.cancel()
            watcher.cancel()
        }
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func requestErrorsArriveAsAResultWithErrors(protocol: GraphQLWebSocketProtocol) async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server, protocol: `protocol`))
            var results: [GraphQLResult<StaleSubscription.Data>] = []
            for try await result in client.subscribe(subscription: StaleSubscription()) {
                results.append(result)
            }
            #expect(results.count == 1)
            #expect(results.first?.data == nil)
            #expect(results.first?.errors?.first?.message.hasPrefix(#"Cannot query field "countdown" on type "Subscription"."#) == true)
        }
    }

    @Test func anIdleSocketStaysOpenForItsGracePeriod() async throws {
        try await withExampleServer { server in
            let client = BatonClient(networkTransport: webSocketTransport(server, idleClosing: .after(.seconds(10))))
            for _ in 1...3 {
                var values: [Int] = []
                for try await result in client.subscribe(subscription: CountSubscription(to: 1)) {
                    values.append(result.data?.count ?? 0)
                }
                #expect(values == [1])
            }
            #expect(server.webSockets.events.filter { if case .connected = $0 { true } else { false } }.count == 1)
            try #require(await server.webSockets.wait { $0.contains(.disconnected) })
        }
    }

    @Test func anHTTPClientCannotSubscribe() async throws {
        let client = BatonClient(url: URL(string: "http://127.0.0.1:9/graphql")!)
        do {
            for try await _ in client.subscribe(subscription: CountSubscription(to: 1)) {}
            Issue.record("subscribing over HTTP did not fail")
        } catch BatonError.subscriptionsUnsupported(let name, let transport) {
            #expect(name == "Count")
            #expect(transport == "RequestChainNetworkTransport")
        }
    }

    @Test func aRefusedConnectionFailsTheOperation() async throws {
        // Nothing listens on port 9 (discard); reconnecting is off.
        let transport = WebSocketNetworkTransport(
            url: URL(string: "ws://127.0.0.1:9/graphql")!, configuration: .init(reconnect: .never))
        do {
            _ = try await BatonClient(networkTransport: transport).fetch(query: HeroAndFriendsQuery(episode: .none))
            Issue.record("a refused connection delivered a result")
        } catch let error as WebSocketTransportError {
            guard case .connectionFailed = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
        }
    }

    /// Changes a todo's status through a separate HTTP client with its own store.
    private func changeStatus(of id: String, complete: Bool, server: RunningExampleServer) async throws {
        let other = BatonClient(url: server.url)
        _ = try await other.perform(
            mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: complete, id: id, userId: "User:1")))
    }
}

/// `subscription Stale { countdown(from: 3) }`: an operation generated against a schema the
/// server no longer has, so the server answers with a request error.
struct StaleSubscription: GraphQLSubscription {
    typealias Data = TestData<Selections>
    static let operationName = "Stale"
    static let operationDocument = "subscription Stale { countdown(from: 3) }"
    static var operationIdentifier: String { sha256Hex(operationDocument) }

    enum Selections: TestSelections {
        static let parentType = TypeCondition("Subscription")
        static let selections: [Selection] = [.field("countdown", type: .nonNull(.scalar("Int")))]
    }
}

@Suite("Reading GraphQL WebSocket messages")
struct GraphQLWebSocketMessageTests {
    @Test func closeReasonsFitInAControlFrame() {
        #expect(WebSocketConnection.closeReason("idle") == "idle")
        let exact = String(repeating: "a", count: 123)
        #expect(WebSocketConnection.closeReason(exact) == exact)
        let long = "invalid message type " + String(repeating: "x", count: 300)
        let cut = WebSocketConnection.closeReason(long)
        #expect(cut.utf8.count <= 123)
        #expect(cut.hasPrefix("invalid message type xxx"))
        #expect(cut.hasSuffix("…"))
        // Multi-byte characters are never split.
        let wide = String(repeating: "é", count: 100)  // 200 bytes
        let cutWide = WebSocketConnection.closeReason(wide)
        #expect(cutWide.utf8.count <= 123)
        #expect(cutWide == String(repeating: "é", count: 60) + "…")
    }

    @Test func serverMessagesOfBothProtocolsAreRead() throws {
        let transportWS = GraphQLWebSocketProtocol.graphqlTransportWS
        #expect(try transportWS.decode(#"{"type":"connection_ack"}"#) == .connectionAck)
        #expect(try transportWS.decode(#"{"type":"ping","payload":{"a":1}}"#) == .ping(payload: ["a": 1]))
        #expect(try transportWS.decode(#"{"id":"1","type":"next","payload":{"data":{"count":1}}}"#)
            == .next(id: "1", payload: ["data": ["count": 1]]))
        #expect(try transportWS.decode(#"{"id":"1","type":"error","payload":[{"message":"no"}]}"#)
            == .error(id: "1", errors: [["message": "no"]]))
        let legacy = GraphQLWebSocketProtocol.graphqlWS
        #expect(try legacy.decode(#"{"type":"ka"}"#) == .keepAlive)
        #expect(try legacy.decode(#"{"id":"1","type":"data","payload":{"data":null,"errors":[]}}"#)
            == .next(id: "1", payload: ["data": nil, "errors": []]))
        #expect(try legacy.decode(#"{"id":"1","type":"error","payload":{"message":"no"}}"#)
            == .error(id: "1", errors: [["message": "no"]]))
        #expect(try legacy.decode(#"{"type":"connection_error","payload":{"message":"no"}}"#)
            == .connectionError(payload: ["message": "no"]))
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1]", "a message must be an object, found a list"),
        (#"{"id":"1"}"#, "the message has no `type`"),
        (#"{"type":"next","payload":{"data":{}}}"#, "a `next` message needs a string `id`"),
        (#"{"id":"1","type":"next","payload":{"x":1}}"#, "the `next` payload has neither `data` nor `errors`"),
        (#"{"id":"1","type":"error","payload":{"message":"x"}}"#, "an `error` message needs a list of errors as `payload`"),
        (#"{"type":"ka"}"#, "`ka` is not a graphql-transport-ws server message"),
    ])
    func badServerMessagesAreTypedErrors(text: String, reason: String) {
        do {
            _ = try GraphQLWebSocketProtocol.graphqlTransportWS.decode(text)
            Issue.record("\(text) was read")
        } catch {
            guard case .invalidMessage(let found) = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(found.hasPrefix(reason))
        }
    }

    @Test func clientMessagesFollowTheChosenProtocol() {
        #expect(GraphQLWebSocketProtocol.graphqlTransportWS.encode(.complete(id: "7")) == #"{"id":"7","type":"complete"}"#)
        #expect(GraphQLWebSocketProtocol.graphqlWS.encode(.complete(id: "7")) == #"{"id":"7","type":"stop"}"#)
        #expect(GraphQLWebSocketProtocol.graphqlWS.encode(.subscribe(id: "1", payload: ["query": "{ a }"]))
            == #"{"id":"1","type":"start","payload":{"query":"{ a }"}}"#)
        #expect(GraphQLWebSocketProtocol.graphqlWS.encode(.ping) == nil)
        #expect(GraphQLWebSocketProtocol.graphqlTransportWS.encode(.terminate) == nil)
        #expect(GraphQLWebSocketProtocol.graphqlTransportWS.encode(.connectionInit(payload: ["token": "t"]))
            == #"{"type":"connection_init","payload":{"token":"t"}}"#)
    }

    @Test func backoffGrowsToItsLimit() {
        let policy = ReconnectPolicy(maxAttempts: 5, initialDelay: .milliseconds(100), maxDelay: .milliseconds(350), jitter: 0)
        #expect(policy.delay(beforeAttempt: 1) == .milliseconds(100))
        #expect(policy.delay(beforeAttempt: 2) == .milliseconds(200))
        #expect(policy.delay(beforeAttempt: 3) == .milliseconds(350))
        #expect(GraphQLWebSocketCloseCode.forbidden.isFatal)
        #expect(!GraphQLWebSocketCloseCode.goingAway.isFatal)
        #expect(!GraphQLWebSocketCloseCode.connectionInitialisationTimeout.isFatal)
    }
}
