import BatonAPI
import BatonExampleAPI
import BatonStore
import Testing

@Suite("Normalizer and reader")
struct NormalizerReaderTests {
    let lukeResponse: JSONObject = [
        "hero": [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE", "EMPIRE"],
            "friends": [["__typename": "Human", "name": "Han Solo"], nil, ["__typename": "Droid", "name": "R2-D2"]],
            "height": 5.64,
        ]
    ]

    var empire: OperationDescriptor { OperationDescriptor(operation: HeroAndFriendsQuery(episode: .some(.case(.empire)))) }

    func normalize(_ data: JSONObject, _ descriptor: OperationDescriptor, errorPaths: [ResponsePath] = []) -> RecordSource {
        ResponseNormalizer.normalize(
            data, selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables, errorPaths: errorPaths)
    }

    @Test func normalizesObjectsByIDAndOthersByClientID() throws {
        let records = normalize(lukeResponse, empire)
        let root = try #require(records[.rootID])
        #expect(root[#"hero(episode:"EMPIRE")"#] == .link("1000"))
        let luke = try #require(records["1000"])
        #expect(luke.typename == "Human")
        #expect(luke["name"] == .scalar("Luke Skywalker"))
        #expect(luke["appearsIn"] == .scalar(["NEWHOPE", "EMPIRE"]))
        #expect(luke[#"height(unit:"FOOT")"#] == .scalar(5.64))
        // Friends without an `id` selected get client IDs from their parent, field and index.
        #expect(
            luke["friends"]
                == .list([.link("client:1000:friends:0"), .null, .link("client:1000:friends:2")]))
        #expect(records["client:1000:friends:2"]?["name"] == .scalar("R2-D2"))
        #expect(records["client:1000:friends:2"]?.typename == "Droid")
        // Deterministic.
        #expect(normalize(lukeResponse, empire) == records)
    }

    @Test func readsBackWhatWasWritten() throws {
        let records = normalize(lukeResponse, empire)
        let result = Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: records)
        #expect(!result.isMissing)
        let data = try HeroAndFriendsQuery.Data(jsonObject: try #require(result.data), variables: empire.variables)
        #expect(data.hero?.name == "Luke Skywalker")
        #expect(data.hero?.asHuman?.height == 5.64)
        #expect(data.hero?.friends?[1] == nil)
        #expect(data.hero?.fragments.characterName.name == "Luke Skywalker")
        #expect(result.data == lukeResponse)
        #expect(result.seenIDs == [.rootID, "1000", "client:1000:friends:0", "client:1000:friends:2"])
        // Other arguments are a different storage key: a miss.
        let jedi = OperationDescriptor(operation: HeroAndFriendsQuery(episode: .some(.case(.jedi))))
        #expect(Reader.read(selections: jedi.selections, rootType: "Query", variables: jedi.variables, source: records).isMissing)
    }

    @Test func missingAndDeletedAreDifferent() throws {
        var records = normalize(lukeResponse, empire)
        records.delete("client:1000:friends:0")
        #expect(records.state(of: "client:1000:friends:0") == .deleted)
        #expect(records.state(of: "nowhere") == nil)
        // Deleted reads as null: not missing.
        let deleted = Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: records)
        #expect(!deleted.isMissing)
        #expect(deleted.data?["hero"]?["friends"]?.listValue?[0] == .null)
        // Missing makes the whole read a miss.
        records.remove("client:1000:friends:2")
        let missing = Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: records)
        #expect(missing.isMissing)
        // A missing field too.
        var noName = normalize(lukeResponse, empire)
        var luke = try #require(noName["1000"])
        luke.fields["name"] = nil
        noName.set(luke)
        #expect(Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: noName).isMissing)
    }

    @Test func fieldsWithErrorsDoNotOverwriteGoodData() throws {
        var store = normalize(lukeResponse, empire)
        let failed: JSONObject = [
            "hero": [
                "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE"], "friends": nil,
                "height": nil,
            ]
        ]
        let changes = normalize(failed, empire, errorPaths: [["hero", "friends"], ResponsePath([.key("hero"), .key("height")])])
        store.apply(changes)
        let luke = try #require(store["1000"])
        #expect(luke["friends"]?.linkedIDs?.count == 3)
        #expect(luke[#"height(unit:"FOOT")"#] == .scalar(5.64))
        #expect(luke["appearsIn"] == .scalar(["NEWHOPE"]))
        // Without an error, null is data and is written.
        store.apply(normalize(failed, empire))
        #expect(store["1000"]?["friends"] == .null)
    }

    @Test func typeConditionsAndListsOfObjectsWithoutIDs() throws {
        let reviews = OperationDescriptor(operation: ReviewsQuery(episode: .case(.jedi)))
        let data: JSONObject = [
            "reviews": [["__typename": "Review", "episode": "JEDI", "stars": 5, "commentary": nil], nil]
        ]
        let records = normalize(data, reviews)
        #expect(records[.rootID]?[#"reviews(episode:"JEDI")"#] == .list([.link(#"client:root:reviews(episode:"JEDI"):0"#), .null]))
        let read = Reader.read(selections: reviews.selections, rootType: "Query", variables: reviews.variables, source: records)
        #expect(read.data == data)

        let search = OperationDescriptor(operation: SearchQuery(text: "o"))
        let found: JSONObject = [
            "search": [
                ["__typename": "Human", "id": "1002", "name": "Han Solo", "homePlanet": nil],
                ["__typename": "Starship", "id": "3000", "name": "Millenium Falcon", "length": 34.37],
            ]
        ]
        let searchRecords = normalize(found, search)
        #expect(searchRecords["3000"]?["length"] == .scalar(34.37))
        #expect(searchRecords["1002"]?["length"] == nil)
        let back = Reader.read(selections: search.selections, rootType: "Query", variables: search.variables, source: searchRecords)
        #expect(back.data == found)
    }

    @Test func includeAndSkipDecideWhatIsWrittenAndRead() throws {
        let query = HumanQuery(id: "1000", unit: .some(.case(.meter)), withHeight: true, skipMass: true)
        let descriptor = OperationDescriptor(operation: query)
        let data: JSONObject = [
            "human": ["__typename": "Human", "id": "1000", "name": "Luke", "homePlanet": "Tatooine", "height": 1.72, "appearsIn": []]
        ]
        let records = normalize(data, descriptor)
        #expect(records["1000"]?[#"height(unit:"METER")"#] == .scalar(1.72))
        #expect(records["1000"]?["mass"] == nil)
        #expect(Reader.read(selections: descriptor.selections, rootType: "Query", variables: descriptor.variables, source: records).data == data)
        // The same query wanting mass misses it.
        let withMass = OperationDescriptor(operation: HumanQuery(id: "1000", unit: .some(.case(.meter)), withHeight: true, skipMass: false))
        #expect(Reader.read(selections: withMass.selections, rootType: "Query", variables: withMass.variables, source: records).isMissing)
    }

    @Test func idSelectedAsDunderIDReadsTheRecordID() throws {
        let selections: [Selection] = [
            .field("viewer", type: .object("User"), selections: [.field("__typename", type: .nonNull(.scalar("String"))), .field("__id", type: .nonNull(.scalar("ID"))), .field("email", type: .scalar("String"))])
        ]
        let records = ResponseNormalizer.normalize(
            ["viewer": ["__typename": "User", "__id": "ignored", "email": "me@example.com"]], selections: selections, rootType: "Query")
        #expect(records[.viewerID]?["email"] == .scalar("me@example.com"))
        #expect(records[.viewerID]?["__id"] == nil)
        let read = Reader.read(selections: selections, rootType: "Query", source: records)
        #expect(read.data?["viewer"]?["__id"] == .string(DataID.viewerID.rawValue))
    }
}
