import BatonAPI
import BatonExampleAPI
@_spi(Fuzzing) import BatonWebSocket
import Foundation
import Testing

@_spi(Fuzzing) import Baton

/// The seeds and saved crashing inputs of a fuzz target (`Fuzz/Corpus/<target>/`,
/// `Fuzz/Regressions/<target>/`), by file name.
private func fuzzInputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
    let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")
    var inputs: [(name: String, bytes: [UInt8])] = []
    for folder in ["Corpus", "Regressions"] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
        for name in names.sorted() where name != "README.md" {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            inputs.append(("\(folder)/\(target)/\(name)", Array(data)))
        }
    }
    return inputs
}

/// Replays the fuzz-multipart target's inputs (Fuzz/Regressions/README.md) through the same
/// entry point: each body is read in the input's own chunks, in one chunk and byte by byte, and
/// every read yields the same responses and ends the same way (a typed error or none).
@Suite("Fuzz replay: multipart incremental responses")
struct FuzzMultipartReplayTests {
    typealias Outcome = (responses: [(body: JSONObject, hasNext: Bool)], error: BatonError?)

    private func summary(_ outcome: Outcome) -> String {
        outcome.responses.map { "\(JSONValue.object($0.body).serializedString()) hasNext=\($0.hasNext)" }.joined(separator: "\n")
            + "\nerror: \(outcome.error.map { String(describing: $0) } ?? "none")"
    }

    @Test func everyInputReadsTheSameWhateverTheChunking() throws {
        let inputs = try fuzzInputs("fuzz-multipart")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 6)
        for input in inputs {
            let (chunkSizes, contentType, body) = _IncrementalDeliveryFuzzEntry.splitInput(input.bytes)
            let whole = _IncrementalDeliveryFuzzEntry.read(contentType: contentType, body: body, chunkSizes: [])
            for sizes in [chunkSizes, [1], [2, 3]] {
                let chunked = _IncrementalDeliveryFuzzEntry.read(contentType: contentType, body: body, chunkSizes: sizes)
                #expect(summary(chunked) == summary(whole), "\(input.name) in chunks of \(sizes)")
            }
            // The seeds are real responses: they read to the end, but for the truncated one.
            if input.name.hasPrefix("Corpus/") {
                if input.name.contains("truncated") {
                    guard case .incompleteResponse? = whole.error else {
                        Issue.record("\(input.name): \(summary(whole))")
                        continue
                    }
                } else {
                    #expect(whole.error == nil, "\(input.name): \(summary(whole))")
                    #expect(whole.responses.last?.hasNext == false, "\(input.name)")
                }
            }
        }
    }

    /// The seeds of both formats merge to the whole response.
    @Test func seedsOfBothFormatsMergeToTheSameData() throws {
        let inputs = try fuzzInputs("fuzz-multipart")
        func finalData(_ name: String) throws -> String {
            let input = try #require(inputs.first { $0.name == "Corpus/fuzz-multipart/\(name)" })
            let (_, contentType, body) = _IncrementalDeliveryFuzzEntry.splitInput(input.bytes)
            let outcome = _IncrementalDeliveryFuzzEntry.read(contentType: contentType, body: body, chunkSizes: [])
            return try #require(outcome.responses.last?.body["data"]).serializedString()
        }
        #expect(try finalData("defer-spec.txt").contains(#""appearsIn":["NEWHOPE","EMPIRE","JEDI"]"#))
        #expect(try finalData("defer-spec.txt") == finalData("defer-apollo.txt"))
        #expect(try finalData("stream-spec.txt").contains(#""name":"R2-D2""#))
        #expect(try finalData("stream-spec.txt") == finalData("stream-apollo.txt"))
    }
}

/// Replays the fuzz-websocket target's inputs (Fuzz/Regressions/README.md): each decodes in
/// both protocols to a message or a typed error; a ping's answer is a pong.
@Suite("Fuzz replay: WebSocket messages")
struct FuzzWebSocketReplayTests {
    @Test func everyInputDecodesOrFailsWithATypedError() throws {
        let inputs = try fuzzInputs("fuzz-websocket")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 10)
        for input in inputs {
            let text = String(decoding: input.bytes, as: UTF8.self)
            var decodedIn: [GraphQLWebSocketProtocol] = []
            for webSocketProtocol in GraphQLWebSocketProtocol.allCases {
                switch _WebSocketMessageFuzzEntry.decode(text, protocol: webSocketProtocol) {
                case .success(let answer):
                    decodedIn.append(webSocketProtocol)
                    if answer.hasPrefix("{") {
                        #expect(try JSONValue(parsing: answer)["type"] == "pong", "\(input.name): \(answer)")
                    }
                case .failure(let error):
                    #expect(!error.description.isEmpty)
                }
            }
            if input.name.hasPrefix("Corpus/") {
                // The seeds are real messages: `tws-…` of graphql-transport-ws, `ws-…` of graphql-ws.
                let expected: GraphQLWebSocketProtocol = input.name.contains("/tws-") ? .graphqlTransportWS : .graphqlWS
                #expect(decodedIn.contains(expected), "seed \(input.name) does not decode in \(expected)")
            }
        }
    }
}

/// What fuzzing found in incremental delivery, as ordinary tests.
@Suite("Fuzz findings: multipart incremental responses")
struct FuzzMultipartFindingTests {
    /// A `deferSpec=20220824` stream whose `path` ends with a negative index trapped in the
    /// merger (`replaceSubrange` of a range before the list's start): now a typed error.
    @Test func aNegativeStreamIndexIsATypedError() {
        for index in ["-1", "-3", "-1000"] {
            let body = "\r\n---\r\n\r\n{\"data\":{\"a\":[1,2]},\"hasNext\":true}\r\n---\r\n\r\n"
                + "{\"incremental\":[{\"items\":[3],\"path\":[\"a\",\(index)]}],\"hasNext\":false}\r\n-----\r\n"
            let outcome = _IncrementalDeliveryFuzzEntry.read(
                contentType: "multipart/mixed; boundary=\"-\"; deferSpec=20220824", body: Array(body.utf8), chunkSizes: [])
            #expect(outcome.responses.count == 1, "\(index)")
            guard case .invalidResponse(_, let reason)? = outcome.error else {
                Issue.record("\(index): \(String(describing: outcome.error))")
                continue
            }
            #expect(reason.contains("negative index"), "\(index): \(reason)")
        }
    }
}

/// Replays the fuzz-sse target's inputs (Fuzz/Regressions/README.md): each subscription body
/// reads the same in the input's chunks, byte by byte and in one chunk.
@Suite("Fuzz replay: HTTP subscriptions")
struct FuzzSSEReplayTests {
    @Test func everyInputReadsTheSameWhateverTheChunking() throws {
        let inputs = try fuzzInputs("fuzz-sse")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 4)
        for input in inputs {
            guard let first = input.bytes.first else { continue }
            let body = Array(input.bytes.dropFirst())
            let sse = first % 2 == 0
            let whole = _HTTPSubscriptionFuzzEntry.readSubscription(sse: sse, boundary: "graphql", body: body, chunkSizes: [])
            for sizes in [[max(1, Int(first / 2))], [1]] {
                let chunked = _HTTPSubscriptionFuzzEntry.readSubscription(sse: sse, boundary: "graphql", body: body, chunkSizes: sizes)
                #expect(chunked.results == whole.results, "\(input.name) in chunks of \(sizes)")
                #expect(chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }, "\(input.name) in chunks of \(sizes)")
            }
            if input.name.hasPrefix("Corpus/"), !input.name.contains("error") {
                #expect(whole.error == nil, "\(input.name): \(String(describing: whole.error))")
                #expect(!whole.results.isEmpty, "\(input.name)")
            }
        }
    }
}

/// Replays the fuzz-error-paths target's inputs: a count of records or a typed error.
@Suite("Fuzz replay: error paths")
struct FuzzErrorPathReplayTests {
    @Test func everyInputNormalizesOrFailsWithATypedError() throws {
        let inputs = try fuzzInputs("fuzz-error-paths")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 3)
        for input in inputs {
            let outcome = _HTTPSubscriptionFuzzEntry.normalizeWithErrorPaths(
                input.bytes, selections: HeroAndFriendsQuery.Data.__selections)
            if input.name.contains("past-limit") {
                guard case .failure(.errorPathTooLong(_, 101, 64)) = outcome else {
                    Issue.record("\(input.name): \(outcome)")
                    continue
                }
            } else if case .failure(let error) = outcome {
                Issue.record("\(input.name): \(error)")
            }
        }
    }
}
