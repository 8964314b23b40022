import BatonAPI
import Foundation
import Testing

/// The seeds and saved crashing inputs of a fuzz target (`Fuzz/Corpus/<target>/`,
/// `Fuzz/Regressions/<target>/`), by file name.
private func fuzzInputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
    let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")
    var inputs: [(name: String, bytes: [UInt8])] = []
    for folder in ["Corpus", "Regressions"] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
        for name in names.sorted() {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            inputs.append(("\(folder)/\(target)/\(name)", Array(data)))
        }
    }
    return inputs
}

/// Replays the fuzz-json target's inputs (Fuzz/Regressions/README.md): each parses and
/// round-trips, or fails with a JSONParseError inside the input.
@Suite("Fuzz replay: JSON")
struct FuzzJSONReplayTests {
    @Test func everyInputParsesAndRoundTripsOrFailsWithAnOffset() throws {
        let inputs = try fuzzInputs("fuzz-json")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 4)
        for input in inputs {
            let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: input.bytes) }
            switch parsed {
            case .success(let value):
                #expect(try JSONValue(parsing: value.serializedString()) == value, "\(input.name)")
            case .failure(let error):
                #expect(input.name.hasPrefix("Regressions/"), "seed \(input.name) does not parse: \(error)")
                #expect((0...input.bytes.count).contains(error.offset), "\(input.name): \(error)")
            }
        }
    }
}

/// What the fuzzer found in the JSON parser, as ordinary tests.
@Suite("Fuzz findings: JSON")
struct FuzzJSONFindingTests {
    /// Found by fuzz-json: `1E538` read as infinity, which serializes as `null`.
    @Test func rejectsANumberBeyondTheRangeOfADouble() throws {
        for text in ["1E538", "-1e400", "[0.1,1E538]"] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue(parsing: text) }
        }
        #expect(try JSONValue(parsing: "1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try JSONValue(parsing: "1e-400") == .double(0))
    }
}
