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
        FuzzSmoke.run("fuzz-multipart", seed: 3) { bytes in
            let input = _IncrementalDeliveryFuzzEntry.splitInput(bytes)
            let chunked = _IncrementalDeliveryFuzzEntry.read(contentType: input.contentType, body: input.body, chunkSizes: input.chunkSizes)
            let whole = _IncrementalDeliveryFuzzEntry.read(contentType: input.contentType, body: input.body, chunkSizes: [])
            let same =
                chunked.responses.count == whole.responses.count
                && zip(chunked.responses, whole.responses).allSatisfy { $0.body == $1.body && $0.hasNext == $1.hasNext }
                && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }
            return same ? nil : "chunks of \(input.chunkSizes) and one chunk read differently"
        }
    }

    @Test func httpSubscriptions() {
        FuzzSmoke.run("fuzz-sse", seed: 4) { bytes in
            guard let first = bytes.first else { return nil }
            let sse = first % 2 == 0
            let body = Array(bytes.dropFirst())
            let chunked = _HTTPSubscriptionFuzzEntry.readSubscription(
                sse: sse, boundary: "graphql", body: body, chunkSizes: [max(1, Int(first / 2))])
            let whole = _HTTPSubscriptionFuzzEntry.readSubscription(sse: sse, boundary: "graphql", body: body, chunkSizes: [])
            let same = chunked.results == whole.results && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }
            return same ? nil : "chunked and whole reads differ (sse: \(sse))"
        }
    }

    @Test func errorPaths() {
        FuzzSmoke.run("fuzz-error-paths", seed: 5) { bytes in
            switch _HTTPSubscriptionFuzzEntry.normalizeWithErrorPaths(bytes, selections: HeroAndFriendsQuery.Data.__selections) {
            case .success(let records): return records >= 0 ? nil : "a negative record count"
            case .failure(let error): return error.description.isEmpty ? "an error without a description" : nil
            }
        }
    }

    @Test func webSocketMessages() {
        FuzzSmoke.run("fuzz-websocket", seed: 6) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            for webSocketProtocol in GraphQLWebSocketProtocol.allCases {
                switch _WebSocketMessageFuzzEntry.decode(text, protocol: webSocketProtocol) {
                case .success(let answer):
                    if answer.hasPrefix("{"), (try? JSONValue(parsing: answer))?["type"]?.stringValue != "pong" {
                        return "the pong does not parse: \(answer)"
                    }
                case .failure(let error):
                    if error.description.isEmpty { return "an error without a description" }
                }
            }
            return nil
        }
    }

    @Test func webSocketFrames() {
        FuzzSmoke.run("fuzz-websocket-frames", seed: 9) { bytes in
            guard let first = bytes.first else { return nil }
            let webSocketProtocol: GraphQLWebSocketProtocol = first % 2 == 0 ? .graphqlTransportWS : .graphqlWS
            let body = Array(bytes.dropFirst())
            let chunked = _WebSocketFrameFuzzEntry.read(body, chunkSizes: [max(1, Int(first / 2))], protocol: webSocketProtocol)
            let whole = _WebSocketFrameFuzzEntry.read(body, chunkSizes: [], protocol: webSocketProtocol)
            let same = chunked.messages == whole.messages && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }
            return same ? nil : "chunked and whole reads differ"
        }
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

