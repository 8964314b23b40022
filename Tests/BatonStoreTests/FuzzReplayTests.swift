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
            // As the fuzz target does: what decodes, the accessors read (a field they cannot read traps).
            if let data = try? HeroAndFriendsQuery.Data(jsonObject: object, variables: variables) { _ = Self.readAll(data) }
            if let data = try? SearchQuery.Data(jsonObject: object, variables: variables) { _ = Self.readAll(data) }
            if let data = try? HumanQuery.Data(jsonObject: object, variables: variables) { _ = Self.readAll(data) }
        }
    }

    /// Every field of decoded data, read through the generated accessors (as `fuzz-selections` does).
    static func readAll(_ data: HeroAndFriendsQuery.Data) -> [String] {
        guard let hero = data.hero else { return [] }
        var fields = [hero.id, hero.name, hero.fragments.characterName.name, "\(hero.appearsIn)"]
        fields += (hero.friends ?? []).map { $0?.name ?? "-" }
        fields += ["\(String(describing: hero.asHuman?.height))", hero.asDroid?.primaryFunction ?? "-"]
        return fields
    }

    static func readAll(_ data: SearchQuery.Data) -> [String] {
        var fields: [String] = []
        for result in data.search ?? [] {
            if let human = result?.asHuman { fields += [human.id, human.name, human.homePlanet ?? "-"] }
            if let droid = result?.asDroid { fields += [droid.id, droid.name, droid.primaryFunction ?? "-"] }
            if let starship = result?.asStarship {
                let length: String = starship.length.map { "\($0)" } ?? "-"
                fields += [starship.id, starship.name, length]
            }
        }
        return fields
    }

    static func readAll(_ data: HumanQuery.Data) -> [String] {
        guard let human = data.human else { return [] }
        return [human.id, human.name, human.homePlanet ?? "-", "\(String(describing: human.height))", "\(String(describing: human.mass))", "\(human.appearsIn)"]
    }
}

/// What fuzzing found in decoding, as ordinary tests.
@Suite("Fuzz findings: selections")
struct FuzzSelectionsFindingTests {
    /// Found by fuzz-selections: with a `__typename` the generated code does not know (a type
    /// added to the schema later, or a broken server), the validator skipped `...CharacterName`
    /// (on `Character`, in a `Character` field), so data without the fragment's `name` decoded
    /// and `hero.name` trapped when read. A fragment on the parent type always applies now.
    @Test func aFragmentOnTheParentTypeAppliesWhateverTheTypename() throws {
        let withoutName: JSONObject = ["hero": ["__typename": "Wookiee", "id": "1", "appearsIn": [], "friends": nil]]
        #expect(throws: SelectionSetDecodingError.self) { try HeroAndFriendsQuery.Data(jsonObject: withoutName) }

        let withName: JSONObject = ["hero": ["__typename": "Wookiee", "id": "1", "name": "Chewbacca", "appearsIn": [], "friends": nil]]
        let hero = try #require(try HeroAndFriendsQuery.Data(jsonObject: withName).hero)
        #expect(hero.name == "Chewbacca")
        #expect(hero.fragments.characterName.name == "Chewbacca")
        #expect(hero.asHuman == nil)
        #expect(hero.asDroid == nil)
    }

    /// The store holds to the same rule: the fragment's fields of such an object are written
    /// and read back, so the query is answered from the cache rather than missing there.
    @Test func aFragmentOnTheParentTypeIsNormalizedAndReadWhateverTheTypename() throws {
        let withName: JSONObject = ["hero": ["__typename": "Wookiee", "id": "1", "name": "Chewbacca", "appearsIn": [], "friends": nil]]
        let query = HeroAndFriendsQuery(episode: .some(.case(.empire)))
        let store = Store()
        store.publish(data: withName, for: OperationDescriptor(operation: query))
        #expect(store.snapshot()["Wookiee:1"]?["name"] == .scalar("Chewbacca"))
        let hero = try #require(try store.read(query: query).hero)
        #expect(hero.name == "Chewbacca")
        #expect(hero.fragments.characterName.name == "Chewbacca")
    }
}
