import BatonAPI
import BatonExampleAPI
import BatonStore
import BatonTestSupport
@_spi(Fuzzing) import BatonWebSocket
import Foundation
import Testing

@_spi(Fuzzing) import Baton

/// Every fuzz target's entry point, run in the normal test build over inputs mutated from its
/// corpus (`Fuzz/Corpus/<target>/` and `Fuzz/Regressions/<target>/`) by a seeded generator for
/// a few seconds each (`BATON_FUZZ_SMOKE_SECONDS`, default 2), with the targets' own oracles.
/// **Not coverage-guided fuzzing**: it is what CI runs (the instrumented build of `scripts/fuzz`
/// takes ~17 minutes from cold, more than CI has); `scripts/fuzz` remains the coverage-guided
/// run, with libFuzzer. A failure prints the input (base64) to save as a regression; a trap
/// stops the test process, which fails the run just as loudly.
@Suite("Fuzz smoke: seeded mutations of each target's corpus (not coverage-guided)", .serialized, .ownThread)
struct FuzzSmokeTests {
    @Test func json() {
        FuzzSmoke.run("fuzz-json", seed: 1) { bytes in
            guard let value = try? JSONValue(parsing: bytes) else { return nil }
            let text = value.serializedString()
            guard let again = try? JSONValue(parsing: text) else { return "serialized JSON does not parse again: \(text)" }
            return again == value ? nil : "the round trip changed the value: \(text)"
        }
    }

    @Test func selections() {
        FuzzSmoke.run("fuzz-selections", seed: 2) { bytes in
            guard case .object(let object)? = try? JSONValue(parsing: bytes) else { return nil }
            let data = object["data"]?.objectValue ?? object
            let variables = object["variables"]?.objectValue ?? [:]
            if let decoded = try? HeroAndFriendsQuery.Data(jsonObject: data, variables: variables), let hero = decoded.hero {
                // What decodes, the accessors read.
                _ = hero.id.count + hero.appearsIn.count + hero.fragments.characterName.name.count
                for friend in hero.friends ?? [] { _ = friend?.name.count }
            }
            _ = ResponseNormalizer.normalizeWithHandles(
                data, selections: HeroAndFriendsQuery.Data.__selections, rootType: "Query", variables: variables)
            return nil
        }
    }

    @Test func multipartIncrementalDelivery() {
        FuzzSmoke.run("fuzz-multipart", seed: 3, _IncrementalDeliveryFuzzEntry.check)
    }

    @Test func httpSubscriptions() {
        FuzzSmoke.run("fuzz-sse", seed: 4, _HTTPSubscriptionFuzzEntry.checkSubscription)
    }

    @Test func errorPaths() {
        FuzzSmoke.run("fuzz-error-paths", seed: 5) { _HTTPSubscriptionFuzzEntry.checkErrorPaths($0, selections: HeroAndFriendsQuery.Data.__selections) }
    }

    @Test func webSocketMessages() {
        FuzzSmoke.run("fuzz-websocket", seed: 6, _WebSocketMessageFuzzEntry.check)
    }

    @Test func webSocketFrames() {
        FuzzSmoke.run("fuzz-websocket-frames", seed: 9, _WebSocketFrameFuzzEntry.check)
    }
}

/// The raw-frame target's seeds: the rules they stand for hold.
@Suite("Fuzz replay: WebSocket frames")
struct FuzzWebSocketFrameReplayTests {
    static func read(_ name: String) throws -> (messages: [String], error: WebSocketTransportError?) {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/fuzz-websocket-frames")
        let bytes = Array(try Data(contentsOf: fuzz.appendingPathComponent(name)))
        let webSocketProtocol: GraphQLWebSocketProtocol = bytes[0] % 2 == 0 ? .graphqlTransportWS : .graphqlWS
        return _WebSocketFrameFuzzEntry.read(Array(bytes.dropFirst()), chunkSizes: [1], protocol: webSocketProtocol)
    }

    @Test func theSeedsReadAsTheyShould() throws {
        let normal = try Self.read("transport-ws-ack-next-complete.bin")
        #expect(normal.messages.count == 3 && normal.error == nil, "\(normal)")
        let fragmented = try Self.read("legacy-ws-data-fragmented.bin")
        #expect(fragmented.messages.count == 1 && fragmented.error == nil, "\(fragmented)")
        guard case .protocolViolation(let utf8)? = try Self.read("transport-ws-invalid-utf8.bin").error else {
            Issue.record("invalid UTF-8 must be a protocol violation")
            return
        }
        #expect(utf8.contains("UTF-8"))
        guard case .protocolViolation(let size)? = try Self.read("transport-ws-frame-over-limit.bin").error else {
            Issue.record("a frame over the limit must be a protocol violation")
            return
        }
        #expect(size.contains("maxFrameSize"))
        guard case .invalidMessage? = try Self.read("legacy-ws-binary.bin").error else {
            Issue.record("a binary message must be refused")
            return
        }
    }
}

