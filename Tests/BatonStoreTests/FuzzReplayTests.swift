import BatonAPI
import BatonExampleAPI
import BatonStore
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

/// Replays the fuzz-selections target's inputs (Fuzz/Regressions/README.md) through the same
/// path: decoded by generated selection sets with `init(jsonObject:)`, then normalized.
@Suite("Fuzz replay: selections and normalizer")
struct FuzzSelectionsReplayTests {
    /// Whether the data decodes as `Data`; normalizes it either way, and checks that the root
    /// record is written when it decodes.
    func decodeAndNormalize<Data: RootSelectionSet>(_: Data.Type, _ object: JSONObject, variables: JSONObject, input: String) -> Bool {
        let decoded = Result { () throws(SelectionSetDecodingError) in try Data(jsonObject: object, variables: variables) }
        let records = ResponseNormalizer.normalizeWithHandles(
            object, selections: Data.__selections, rootType: Data.__parentType.name, variables: variables
        ).changes
        switch decoded {
        case .success:
            #expect(records[.rootID] != nil, "\(input) decodes as \(Data.self) but normalizes to no root record")
            return true
        case .failure(let error):
            #expect(!error.description.isEmpty)
            return false
        }
    }

    @Test func everyInputDecodesOrFailsWithATypedErrorAndNormalizes() throws {
        let inputs = try fuzzInputs("fuzz-selections")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 5)
        for input in inputs {
            guard let response = try? JSONValue(parsing: input.bytes).objectValue else {
                #expect(input.name.hasPrefix("Regressions/"), "seed \(input.name) is not a JSON object")
                continue
            }
            let object = response["data"]?.objectValue ?? response
            let variables = response["variables"]?.objectValue ?? [:]
            let decodedAs = [
                decodeAndNormalize(HeroAndFriendsQuery.Data.self, object, variables: variables, input: input.name),
                decodeAndNormalize(SearchQuery.Data.self, object, variables: variables, input: input.name),
                decodeAndNormalize(HumanQuery.Data.self, object, variables: variables, input: input.name),
                decodeAndNormalize(LaunchListQuery.Data.self, object, variables: variables, input: input.name),
                decodeAndNormalize(PaginatedTodosQuery.Data.self, object, variables: variables, input: input.name),
                decodeAndNormalize(TodoListPaginationQuery.Data.self, object, variables: variables, input: input.name),
            ]
            if input.name.hasPrefix("Corpus/") {
                #expect(decodedAs.contains(true), "seed \(input.name) decodes as none of the operations")
            }
        }
    }
}
