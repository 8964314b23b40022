import BatonAPI
import BatonExampleAPI
import BatonWebSocket
import Foundation
import Testing

@testable import Baton

/// A WebSocket server that misbehaves: closes abruptly, closes with each protocol close code,
/// never acknowledges, restarts. Fatal close codes end the subscription with a typed error at
/// once; every other drop is recovered by reconnecting and subscribing again. The waits are
/// long (90 s; each ends as soon as its condition holds): in the whole suite under
/// `scripts/test-under-load`, the recoveries missed 30 s while other tests held Swift's
/// cooperative pool.
@Suite("Fault injection over WebSocket")
struct WebSocketFaultTests {
    /// How a scripted connection ends after sending its values.
    enum Ending: Sendable {
        case close(UInt16)
        case abort
        /// Wait for the client to complete the operation and close.
        case awaitClientClose
    }

    /// The message types of `protocol`: (subscribe, next, complete from the client).
    static func messageTypes(_ protocol: GraphQLWebSocketProtocol) -> (subscribe: String, next: String, stop: String) {
        switch `protocol` {
        case .graphqlTransportWS: ("subscribe", "next", "complete")
        case .graphqlWS: ("start", "data", "stop")
        }
    }

    /// A server that acknowledges, waits for a subscription, sends `values(connectionNumber)` as
    /// `count` results, then ends the connection as `ending(connectionNumber)` says.
    /// Connections after `servedConnections` are cut right after the upgrade.
    static func subscriptionServer(
        _ protocol: GraphQLWebSocketProtocol, port: Int = 0, acknowledges: Bool = true, servedConnections: Int = .max,
        values: @escaping @Sendable (Int) -> [Int], ending: @escaping @Sendable (Int) -> Ending
    ) throws -> FaultServer {
        let connections = Locked(0)
        let types = messageTypes(`protocol`)
        return try FaultServer(port: port) { connection in
            guard let request = connection.readRequest() else { return }
            let number = connections.withLock { count -> Int in
                count += 1
                return count
            }
            connection.acceptWebSocket(request)
            connection.record("connected \(number)")
            guard number <= servedConnections else { return connection.abort() }
            guard connection.readJSONMessage()?["type"] as? String == "connection_init" else { return }
            guard acknowledges else {
                connection.record(connection.waitForClientClose(seconds: 30) ? "client closed \(number)" : "client stayed \(number)")
                return
            }
            connection.sendText(#"{"type":"connection_ack"}"#)
            guard let subscribe = connection.readJSONMessage(), subscribe["type"] as? String == types.subscribe,
                let id = subscribe["id"] as? String
            else { return }
            connection.record("subscribed \(number)")
            for value in values(number) {
                connection.sendText(#"{"type":"\#(types.next)","id":"\#(id)","payload":{"data":{"count":\#(value)}}}"#)
            }
            switch ending(number) {
            case .close(let code):
                connection.sendClose(code: code)
                connection.pause(0.2)
            case .abort:
                connection.abort()
            case .awaitClientClose:
                while let message = connection.readJSONMessage() {
                    if message["type"] as? String == types.stop, message["id"] as? String == id {
                        connection.record("completed \(number)")
                    }
                }
                connection.record("client closed \(number)")
            }
        }
    }

    static func transport(
        _ server: FaultServer, _ protocol: GraphQLWebSocketProtocol = .graphqlTransportWS,
        reconnect: ReconnectPolicy = .exponentialBackoff(maxAttempts: 3, initialDelay: .milliseconds(50), maxDelay: .milliseconds(200))
    ) -> WebSocketNetworkTransport {
        WebSocketNetworkTransport(
            url: server.webSocketURL,
            configuration: WebSocketTransportConfiguration(
                protocol: `protocol`, acknowledgementTimeout: .seconds(2), idleClosing: .immediately, reconnect: reconnect))
    }

    static let fatalCodes: [UInt16] = [4400, 4401, 4403, 4406, 4409, 4429, 4500]
    static let recoverableCodes: [UInt16] = [1000, 1001, 1011, 4408]

    @Test(arguments: fatalCodes)
    func aFatalCloseCodeEndsTheSubscriptionWithThatCode(code: UInt16) async throws {
        let server = try Self.subscriptionServer(.graphqlTransportWS, values: { _ in [1] }, ending: { _ in .close(code) })
        defer { server.stop() }
        let client = BatonClient(networkTransport: Self.transport(server))
        let results = Collector(client.subscribe(subscription: CountSubscription(to: 5)))
        try #require(await results.wait(timeout: .seconds(90)) { $0.finished })
        #expect(results.elements.map { $0.data?.count } == [1])
        let error = results.error as? WebSocketTransportError
        #expect(error?.closeCode == GraphQLWebSocketCloseCode(rawValue: code), "\(String(describing: results.error))")
        // Reconnecting cannot help, so it is not tried.
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.events.filter { $0.hasPrefix("connected") }.count == 1)
    }

    @Test(arguments: recoverableCodes)
    func anyOtherCloseCodeIsRecoveredByResubscribing(code: UInt16) async throws {
        let server = try Self.subscriptionServer(
            .graphqlTransportWS, values: { $0 == 1 ? [1] : [2, 3] }, ending: { $0 == 1 ? .close(code) : .close(1000) })
        defer { server.stop() }
        let client = BatonClient(networkTransport: Self.transport(server))
        let results = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try #require(await results.wait(timeout: .seconds(90)) { $0.elements.count >= 3 })
        #expect(results.elements.prefix(3).map { $0.data?.count } == [1, 2, 3])
        #expect(server.events.contains("subscribed 2"))
        results.cancel()
    }

    @Test(arguments: GraphQLWebSocketProtocol.allCases)
    func anAbruptCloseIsRecoveredByResubscribing(protocol: GraphQLWebSocketProtocol) async throws {
        let server = try Self.subscriptionServer(
            `protocol`, values: { $0 == 1 ? [1] : [2] }, ending: { $0 == 1 ? .abort : .awaitClientClose })
        defer { server.stop() }
        let client = BatonClient(networkTransport: Self.transport(server, `protocol`))
        let results = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try #require(await results.wait(timeout: .seconds(90)) { $0.elements.count >= 2 })
        #expect(results.elements.map { $0.data?.count } == [1, 2])
        results.cancel()
        // Cancelling completes the operation on the server and closes the idle socket.
        #expect(await eventually(timeout: .seconds(90)) { server.events.contains("client closed 2") })
        #expect(server.events.contains("completed 2"))
    }

    @Test func dropsBeyondTheReconnectAttemptsEndTheSubscription() async throws {
        // Acknowledged, then cut; every later connection is cut before its acknowledgement, so the
        // attempts count up (an acknowledged connection starts the count again).
        let server = try Self.subscriptionServer(.graphqlTransportWS, servedConnections: 1, values: { _ in [1] }, ending: { _ in .abort })
        defer { server.stop() }
        let client = BatonClient(networkTransport: Self.transport(server))
        let results = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try #require(await results.wait(timeout: .seconds(60)) { $0.finished })
        #expect(results.elements.map { $0.data?.count } == [1])
        #expect(server.events.filter { $0.hasPrefix("connected") }.count == 4)
        guard case .reconnectAttemptsExhausted(3, _)? = results.error as? WebSocketTransportError else {
            Issue.record("expected exhausted reconnects, got \(String(describing: results.error))")
            return
        }
    }

    @Test func aServerThatNeverAcknowledgesTimesOut() async throws {
        let server = try Self.subscriptionServer(.graphqlTransportWS, acknowledges: false, values: { _ in [] }, ending: { _ in .abort })
        defer { server.stop() }
        let client = BatonClient(networkTransport: Self.transport(server, reconnect: .never))
        let start = ContinuousClock.now
        let results = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try #require(await results.wait(timeout: .seconds(90)) { $0.finished })
        guard case .acknowledgementTimeout? = results.error as? WebSocketTransportError else {
            Issue.record("expected an acknowledgement time-out, got \(String(describing: results.error))")
            return
        }
        // 2 s to the time-out, then up to 5 s for the close handshake; generous for a loaded machine.
        #expect(ContinuousClock.now - start < .seconds(45))
        #expect(await eventually(timeout: .seconds(20)) { server.events.contains("client closed 1") })
    }

    @Test func aSubscriptionSurvivesAServerRestart() async throws {
        let server = try Self.subscriptionServer(
            .graphqlTransportWS, values: { [$0] }, ending: { _ in .awaitClientClose })
        defer { server.stop() }
        let policy = ReconnectPolicy.exponentialBackoff(maxAttempts: 10, initialDelay: .milliseconds(100), maxDelay: .milliseconds(300))
        let client = BatonClient(networkTransport: Self.transport(server, reconnect: policy))
        let results = Collector(client.subscribe(subscription: CountSubscription(to: 3)))
        try #require(await results.wait(timeout: .seconds(90)) { $0.elements.count == 1 })
        server.stop()
        try await Task.sleep(for: .milliseconds(300))
        try server.restart()
        try #require(await results.wait(timeout: .seconds(90)) { $0.elements.count == 2 })
        #expect(results.elements.map { $0.data?.count } == [1, 2])
        results.cancel()
    }
}
