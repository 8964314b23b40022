import Baton
import BatonExampleServer
import Foundation
import HTTPTypes
import Logging
import NIOWebSocket
import Testing
import WSClient

/// The example server's side of the protocols, driven by a raw WebSocket client that sends
/// exactly the messages a test gives (including the wrong ones).
@Suite("The example server's GraphQL WebSocket protocols")
struct ExampleServerWebSocketTests {
    /// What a raw session saw: the text messages received and the server's close code.
    struct Transcript {
        var received: [String] = []
        var closeCode: UInt16?
    }

    /// Connects asking for `subprotocol`, sends `messages` in order, then reads until the server
    /// closes the socket, the messages received satisfy `done`, or 60 seconds pass (every test
    /// ends at a close or at `done`; the bound is for a broken server, and long because a full
    /// run beside a build once took over 10 s to deliver a two-event subscription).
    func session(
        _ server: RunningExampleServer, subprotocol: String? = "graphql-transport-ws", messages: [String],
        until done: @escaping @Sendable ([String]) -> Bool = { _ in false }
    ) async throws -> Transcript {
        var configuration = WebSocketClientConfiguration()
        if let subprotocol { configuration.additionalHeaders[.secWebSocketProtocol] = subprotocol }
        let received = ReceivedMessages()
        let frame = try await WebSocketClient.connect(
            url: server.webSocketURL.absoluteString, configuration: configuration, logger: Logger(label: "test")
        ) { inbound, outbound, _ in
            for message in messages {
                try await outbound.write(.text(message))
            }
            let reader = Task {
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message { received.append(text) }
                    if done(received.all) { break }
                }
            }
            let timer = Task {
                try await Task.sleep(for: .seconds(60))
                reader.cancel()
            }
            _ = await reader.result
            timer.cancel()
        }
        return Transcript(received: received.all, closeCode: frame.map { UInt16(webSocketErrorCode: $0.closeCode) })
    }

    @Test func aSubscriptionRunsToItsEnd() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, messages: [
                #"{"type":"connection_init"}"#,
                #"{"id":"a","type":"subscribe","payload":{"query":"subscription { count(to: 2) }"}}"#,
            ], until: { $0.count == 4 })
            #expect(transcript.received == [
                #"{"type":"connection_ack"}"#,
                #"{"id":"a","type":"next","payload":{"data":{"count":1}}}"#,
                #"{"id":"a","type":"next","payload":{"data":{"count":2}}}"#,
                #"{"id":"a","type":"complete"}"#,
            ])
        }
    }

    @Test func theLegacyProtocolSendsKeepAlivesAndData() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, subprotocol: "graphql-ws", messages: [
                #"{"type":"connection_init","payload":{}}"#,
                #"{"id":"1","type":"start","payload":{"query":"subscription { count(to: 1) }"}}"#,
                #"{"id":"2","type":"start","payload":{"query":"{ nope }"}}"#,
            ], until: { received in
                received.contains(#"{"id":"1","type":"complete"}"#) && received.contains { $0.contains(#""id":"2","type":"error""#) }
            })
            #expect(transcript.received.prefix(2) == [#"{"type":"connection_ack"}"#, #"{"type":"ka"}"#])
            #expect(transcript.received.contains(#"{"id":"1","type":"data","payload":{"data":{"count":1}}}"#))
            #expect(transcript.received.contains(#"{"id":"1","type":"complete"}"#))
            let error = try #require(transcript.received.first { $0.contains(#""id":"2","type":"error""#) })
            #expect(error.contains(#""payload":{"message":"Cannot query field \"nope\" on type \"Query\"."#))
            #expect(!transcript.received.contains(#"{"id":"2","type":"complete"}"#))
        }
    }

    @Test func requestErrorsComeAsAnErrorMessage() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, messages: [
                #"{"type":"connection_init"}"#,
                #"{"id":"x","type":"subscribe","payload":{"query":"subscription { count }"}}"#,
                // A later operation runs after it: the error ended only its own operation.
                #"{"id":"y","type":"subscribe","payload":{"query":"subscription { count(to: 1) }"}}"#,
            ], until: { received in
                received.contains(#"{"id":"y","type":"complete"}"#) && received.contains { $0.contains(#""id":"x""#) }
            })
            let error = try #require(transcript.received.first { $0.contains(#""id":"x""#) })
            #expect(error.hasPrefix(#"{"id":"x","type":"error","payload":[{"message":"#))
            #expect(!transcript.received.contains(#"{"id":"x","type":"complete"}"#))
        }
    }

    @Test func aSecondConnectionInitCloses4429() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, messages: [#"{"type":"connection_init"}"#, #"{"type":"connection_init"}"#])
            #expect(transcript.closeCode == 4429)
        }
    }

    @Test func anUnknownMessageCloses4400() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, messages: [#"{"type":"connection_init"}"#, #"{"type":"hello"}"#])
            #expect(transcript.closeCode == 4400)
            let notJSON = try await session(server, messages: ["not json"])
            #expect(notJSON.closeCode == 4400)
        }
    }

    @Test func aSubscribeBeforeTheAckCloses4401() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, messages: [
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { count(to: 1) }"}}"#
            ])
            #expect(transcript.closeCode == 4401)
        }
    }

    @Test func aRunningIDUsedAgainCloses4409() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, messages: [
                #"{"type":"connection_init"}"#,
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { todoChanged { id } }"}}"#,
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { todoChanged { id } }"}}"#,
            ])
            #expect(transcript.closeCode == 4409)
        }
    }

    @Test func noConnectionInitCloses4408() async throws {
        try await withExampleServer(webSocket: WebSocketOptions(connectionInitTimeout: .milliseconds(100))) { server in
            let transcript = try await session(server, messages: [])
            #expect(transcript.closeCode == 4408)
        }
    }

    @Test func anUnknownSubprotocolCloses4406() async throws {
        try await withExampleServer { server in
            let transcript = try await session(server, subprotocol: "mqtt", messages: [#"{"type":"connection_init"}"#])
            #expect(transcript.closeCode == 4406)
            #expect(server.webSockets.events.first == .connected(subprotocol: nil))
        }
    }

    @Test func pingIsAnsweredWithPong() async throws {
        try await withExampleServer { server in
            let transcript = try await session(
                server, messages: [#"{"type":"connection_init"}"#, #"{"type":"ping"}"#], until: { $0.count == 2 })
            #expect(transcript.received == [#"{"type":"connection_ack"}"#, #"{"type":"pong"}"#])
        }
    }
}

/// Text messages collected by a raw session's reader task.
final class ReceivedMessages: Sendable {
    private let messages = Locked<[String]>([])
    func append(_ text: String) { messages.withLock { $0.append(text) } }
    var all: [String] { messages.withLock { $0 } }
}
