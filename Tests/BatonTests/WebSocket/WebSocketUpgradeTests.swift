import BatonAPI
import BatonExampleAPI
import BatonWebSocket
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// The upgrade request Baton sends (one correct `Origin`, or the configured one, or none) and
/// what a refused upgrade does: a 4xx fails at once with its status and body, a 5xx or a refused
/// connection is retried. Against the fault server, which reads the raw request.
@Suite("WebSocket upgrade")
struct WebSocketUpgradeTests {
    /// A server answering every upgrade with `status` and `body`, then closing.
    static func refusingServer(status: String, body: String = "") throws -> FaultServer {
        try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.record("connected")
            connection.write(FaultServer.response(status: status, contentType: "text/plain", body: body))
        }
    }

    static func transport(
        _ server: FaultServer, headerFields: HTTPFields = [:], origin: WebSocketTransportConfiguration.Origin = .server,
        reconnect: ReconnectPolicy = .never
    ) -> WebSocketNetworkTransport {
        WebSocketNetworkTransport(
            url: server.webSocketURL,
            configuration: WebSocketTransportConfiguration(
                headerFields: headerFields, origin: origin, acknowledgementTimeout: .seconds(2), reconnect: reconnect))
    }

    /// The `Origin` lines of a request head.
    static func origins(_ head: String) -> [String] {
        head.split(separator: "\r\n").dropFirst().compactMap { line in
            guard line.lowercased().hasPrefix("origin:") else { return nil }
            return line.dropFirst("origin:".count).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Runs one subscription to the end and returns how it ended.
    static func failure(of transport: WebSocketNetworkTransport) async -> (any Error)? {
        do {
            for try await _ in BatonClient(networkTransport: transport).subscribe(subscription: CountSubscription(to: 1)) {}
            return nil
        } catch {
            return error
        }
    }

    @Test func byDefaultOneOriginThatIsTheServersOwnWithItsPort() async throws {
        let server = try Self.refusingServer(status: "403 Forbidden")
        defer { server.stop() }
        _ = await Self.failure(of: Self.transport(server))
        let head = try #require(server.requests.first)
        #expect(Self.origins(head) == ["http://127.0.0.1:\(server.port)"])
        #expect(FaultRequest(head: head, body: []).header("Host") == "127.0.0.1:\(server.port)")
    }

    @Test func anOriginInHeaderFieldsReplacesBatonsOwn() async throws {
        let server = try Self.refusingServer(status: "403 Forbidden")
        defer { server.stop() }
        _ = await Self.failure(of: Self.transport(server, headerFields: [.origin: "https://app.example"], origin: .omitted))
        _ = await Self.failure(of: Self.transport(server, headerFields: [.origin: "https://app.example"]))
        _ = await Self.failure(of: Self.transport(server, origin: .value("https://web.example")))
        #expect(server.requests.map(Self.origins) == [["https://app.example"], ["https://app.example"], ["https://web.example"]])
    }

    @Test func anOmittedOriginIsNotSent() async throws {
        let server = try Self.refusingServer(status: "403 Forbidden")
        defer { server.stop() }
        _ = await Self.failure(of: Self.transport(server, origin: .omitted))
        let head = try #require(server.requests.first)
        #expect(Self.origins(head).isEmpty)
        // The other headers are still there.
        #expect(FaultRequest(head: head, body: []).header("Sec-WebSocket-Protocol") == "graphql-transport-ws")
    }

    /// A refusal that were retried would connect again: the server sees exactly one upgrade.
    @Test(arguments: [("401 Unauthorized", 401), ("403 Forbidden", 403), ("404 Not Found", 404)])
    func aRefusedUpgradeFailsAtOnceWithItsStatusAndBody(status: String, code: Int) async throws {
        let server = try Self.refusingServer(status: status, body: "no entry here")
        defer { server.stop() }
        let policy = ReconnectPolicy.exponentialBackoff(maxAttempts: 5, initialDelay: .seconds(2), maxDelay: .seconds(10))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Self.failure(of: Self.transport(server, reconnect: policy))
        // Not by time (a loaded machine can take seconds): a retry after the refusal would have
        // waited 2 s and connected again.
        #expect(server.requests.count == 1)
        #expect(clock.now - start < .seconds(60))
        guard case .upgradeRefused(let refusedStatus, let body)? = error as? WebSocketTransportError else {
            Issue.record("expected a refused upgrade, got \(String(describing: error))")
            return
        }
        #expect(refusedStatus == code)
        #expect(body == "no entry here")
        #expect("\(error!)".contains("\(code)"))
        #expect(server.events == ["connected"])
    }

    @Test func aLongRefusalBodyIsCut() async throws {
        let server = try Self.refusingServer(status: "403 Forbidden", body: String(repeating: "x", count: 5000))
        defer { server.stop() }
        let error = await Self.failure(of: Self.transport(server))
        guard case .upgradeRefused(403, let body?)? = error as? WebSocketTransportError else {
            Issue.record("expected a refused upgrade, got \(String(describing: error))")
            return
        }
        #expect(body == String(repeating: "x", count: 1024) + "…")
    }

    /// A 5xx (a restarting server, a proxy without its backend) is retried; here the second
    /// connection is served.
    @Test(arguments: ["503 Service Unavailable", "502 Bad Gateway", "429 Too Many Requests"])
    func aServerErrorIsRetried(status: String) async throws {
        let connections = Locked(0)
        let server = try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            let number = connections.withLock { count -> Int in
                count += 1
                return count
            }
            connection.record("connected \(number)")
            guard number > 1 else {
                connection.write(FaultServer.response(status: status, contentType: "text/plain", body: "later"))
                return
            }
            connection.acceptWebSocket(request)
            guard connection.readJSONMessage()?["type"] as? String == "connection_init" else { return }
            connection.sendText(#"{"type":"connection_ack"}"#)
            guard let subscribe = connection.readJSONMessage(), let id = subscribe["id"] as? String else { return }
            connection.sendText(#"{"type":"next","id":"\#(id)","payload":{"data":{"count":1}}}"#)
            connection.sendText(#"{"type":"complete","id":"\#(id)"}"#)
            _ = connection.waitForClientClose(seconds: 10)
        }
        defer { server.stop() }
        let policy = ReconnectPolicy.exponentialBackoff(maxAttempts: 3, initialDelay: .milliseconds(50), maxDelay: .milliseconds(100))
        var values: [Int] = []
        for try await result in BatonClient(networkTransport: Self.transport(server, reconnect: policy))
            .subscribe(subscription: CountSubscription(to: 1))
        {
            values.append(result.data?.count ?? -1)
        }
        #expect(values == [1])
        #expect(server.events == ["connected 1", "connected 2"])
    }

    /// A refused connection (nothing listening yet) is retried until the server is up.
    @Test func aRefusedConnectionIsRetried() async throws {
        // The port is free when drawn, but another test's server may take it before this one
        // binds it (seen once in the whole suite under load): the case then runs again on
        // another port.
        for attempt in 1...3 {
            let port = try releasedLoopbackPort()
            let policy = ReconnectPolicy.exponentialBackoff(maxAttempts: 20, initialDelay: .milliseconds(100), maxDelay: .milliseconds(200))
            let transport = WebSocketNetworkTransport(
                url: URL(string: "ws://127.0.0.1:\(port)/graphql")!,
                configuration: WebSocketTransportConfiguration(acknowledgementTimeout: .seconds(2), reconnect: policy))
            let results = Collector(BatonClient(networkTransport: transport).subscribe(subscription: CountSubscription(to: 1)))
            try await Task.sleep(for: .milliseconds(400))
            #expect(!results.finished)
            let server: FaultServer
            do {
                server = try WebSocketFaultTests.subscriptionServer(
                    .graphqlTransportWS, port: port, values: { _ in [7] }, ending: { _ in .awaitClientClose })
            } catch let error as POSIXError where error.code == .EADDRINUSE && attempt < 3 {
                results.cancel()
                continue
            }
            defer { server.stop() }
            try #require(await results.wait(timeout: .seconds(30)) { !$0.elements.isEmpty })
            #expect(results.elements.first?.data?.count == 7)
            results.cancel()
            return
        }
    }

    /// A URL that is not ws:// or wss:// fails at once; retrying cannot fix it.
    @Test func aURLThatIsNotAWebSocketURLFailsAtOnce() async throws {
        // A retry would wait at least 60 s first; failing sooner means it was not retried.
        let policy = ReconnectPolicy.exponentialBackoff(maxAttempts: 5, initialDelay: .seconds(60), maxDelay: .seconds(120))
        let transport = WebSocketNetworkTransport(
            url: URL(string: "ftp://127.0.0.1/graphql")!, configuration: WebSocketTransportConfiguration(reconnect: policy))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Self.failure(of: transport)
        #expect(clock.now - start < .seconds(45))
        guard case .connectionFailed? = error as? WebSocketTransportError else {
            Issue.record("expected a failed connection, got \(String(describing: error))")
            return
        }
    }
}
