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

    func normalize(_ data: JSONObject, _ descriptor: OperationDescriptor, errors: [GraphQLError] = []) -> RecordSource {
        ResponseNormalizer.normalize(
            data, selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables, errors: errors)
    }

    /// The root record (`__Root`, as Relay names it) reads as the operation's root type:
    /// `__typename` at the root is `Query` as the server said, and `... on Query` applies.
    @Test func theRootRecordReadsAsTheRootType() throws {
        let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))
        let selections: [Selection] = [
            typename, .inlineFragment(on: TypeCondition("Query"), selections: [.field("viewerName", type: .scalar("String"))]),
        ]
        let descriptor = OperationDescriptor(name: "Root", selections: selections, variables: [:], rootType: "Query")
        let store = Store()
        store.publish(data: ["__typename": "Query", "viewerName": "Ada"], for: descriptor)
        let read = store.read(descriptor)
        #expect(!read.isMissing)
        #expect(read.data?["__typename"] == "Query")
        #expect(read.data?["viewerName"] == "Ada")
    }

    @Test func normalizesObjectsByIDAndOthersByClientID() throws {
        let records = normalize(lukeResponse, empire)
        let root = try #require(records[.rootID])
        #expect(root[#"hero(episode:"EMPIRE")"#] == .link("Human:1000"))
        let luke = try #require(records["Human:1000"])
        #expect(luke.typename == "Human")
        #expect(luke["name"] == .scalar("Luke Skywalker"))
        #expect(luke["appearsIn"] == .scalar(["NEWHOPE", "EMPIRE"]))
        #expect(luke[#"height(unit:"FOOT")"#] == .scalar(5.64))
        // Friends without an `id` selected get client IDs from their parent, field and index.
        #expect(
            luke["friends"]
                == .list([.link("client:Human:1000:friends:0"), .null, .link("client:Human:1000:friends:2")]))
        #expect(records["client:Human:1000:friends:2"]?["name"] == .scalar("R2-D2"))
        #expect(records["client:Human:1000:friends:2"]?.typename == "Droid")
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
        #expect(result.seenIDs == [.rootID, "Human:1000", "client:Human:1000:friends:0", "client:Human:1000:friends:2"])
        // Other arguments are a different storage key: a miss.
        let jedi = OperationDescriptor(operation: HeroAndFriendsQuery(episode: .some(.case(.jedi))))
        #expect(Reader.read(selections: jedi.selections, rootType: "Query", variables: jedi.variables, source: records).isMissing)
    }

    @Test func missingAndDeletedAreDifferent() throws {
        var records = normalize(lukeResponse, empire)
        records.delete("client:Human:1000:friends:0")
        #expect(records.state(of: "client:Human:1000:friends:0") == .deleted)
        #expect(records.state(of: "nowhere") == nil)
        // Deleted reads as null: not missing.
        let deleted = Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: records)
        #expect(!deleted.isMissing)
        #expect(deleted.data?["hero"]?["friends"]?.listValue?[0] == .null)
        // Missing makes the whole read a miss.
        records.remove("client:Human:1000:friends:2")
        let missing = Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: records)
        #expect(missing.isMissing)
        // A missing field too.
        var noName = normalize(lukeResponse, empire)
        var luke = try #require(noName["Human:1000"])
        luke.fields["name"] = nil
        noName.set(luke)
        #expect(Reader.read(selections: empire.selections, rootType: "Query", variables: empire.variables, source: noName).isMissing)
    }

    @Test func fieldsWithErrorsKeepTheirErrorsInPlaceOfTheValue() throws {
        // Relay's normalizer and Apollo Kotlin's cache: a field the server nulled for an error
        // keeps the error (not the older value, not a miss) until a response writes it again.
        var store = normalize(lukeResponse, empire)
        let failed: JSONObject = [
            "hero": [
                "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE"], "friends": nil,
                "height": nil,
            ]
        ]
        let friendsError = GraphQLError(message: "friends are down", path: ["hero", "friends"], extensions: ["code": "DOWN"])
        let heightError = GraphQLError(message: "no ruler", path: ["hero", "height"])
        let changes = normalize(failed, empire, errors: [friendsError, heightError, GraphQLError(message: "no path")])
        store.apply(changes)
        let luke = try #require(store["Human:1000"])
        #expect(luke["friends"] == .fieldErrors([GraphQLError(message: "friends are down", path: [], extensions: ["code": "DOWN"])]))
        #expect(luke[#"height(unit:"FOOT")"#] == .fieldErrors([GraphQLError(message: "no ruler", path: [])]))
        #expect(luke["appearsIn"] == .scalar(["NEWHOPE"]))
        // Without an error, null is data and is written.
        store.apply(normalize(failed, empire))
        #expect(store["Human:1000"]?["friends"] == .null)
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
        #expect(searchRecords["Starship:3000"]?["length"] == .scalar(34.37))
        #expect(searchRecords["Human:1002"]?["length"] == nil)
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
        #expect(records["Human:1000"]?[#"height(unit:"METER")"#] == .scalar(1.72))
        #expect(records["Human:1000"]?["mass"] == nil)
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

    @Test func longListsOfObjectsAreNormalizedWhole() throws {
        // 300 items: the normalizer makes room for the list's records after its first sixteenth.
        let reviews = OperationDescriptor(operation: ReviewsQuery(episode: .case(.jedi)))
        let items: [JSONValue] = (0..<300).map { index in
            index == 7 ? .null : ["__typename": "Review", "episode": "JEDI", "stars": .int(index % 5), "commentary": .string("review \(index)")]
        }
        let data: JSONObject = ["reviews": .list(items)]
        let records = normalize(data, reviews)
        #expect(records.count == 300)  // 299 reviews and the root
        #expect(records[#"client:root:reviews(episode:"JEDI"):299"#]?["commentary"] == .scalar("review 299"))
        let read = Reader.read(selections: reviews.selections, rootType: "Query", variables: reviews.variables, source: records)
        #expect(read.data == data)
    }

    @Test func applyingMoreChangesThanRecordsGivesWhatMergingGives() {
        let changes = RecordSource(records: [
            Record(id: .rootID, typename: "Query", fields: ["hero": .link("Human:1000"), "extra": .scalar(1)]),
            Record(id: "1000", fields: ["name": .scalar("Luke"), "height": .scalar(1.72)]),
            Record(id: "2000", typename: "Droid", fields: ["name": .scalar("R2-D2")]),
            Record(id: "3000", fields: ["name": .scalar("Leia")]),
            Record(id: "4000", fields: ["name": .scalar("Han")]),
        ])
        let base: [Record] = [
            Record(id: .rootID, typename: "Query", fields: ["hero": .link("Human:1000")]),
            Record(id: "1000", typename: "Human", fields: ["name": .scalar("Luke Skywalker"), "height": .scalar(1.72)]),
            Record(id: "2000", typename: "Droid", fields: ["name": .scalar("R2-D2")]),
        ]
        // A source smaller than the changes takes the changes' table over; one with more
        // records merges the changes into its own. Both must end the same and report the same.
        var small = RecordSource(records: base)
        var smallRootFields = Set<String>()
        let smallChanged = small.apply(changes, changedRootFields: &smallRootFields)
        let others = (0..<20).map { Record(id: DataID("other-\($0)"), fields: ["n": .scalar(.int($0))]) }
        var large = RecordSource(records: base + others)
        var largeRootFields = Set<String>()
        let largeChanged = large.apply(changes, changedRootFields: &largeRootFields)

        #expect(smallChanged == [.rootID, "1000", "3000", "4000"])
        #expect(largeChanged == smallChanged)
        #expect(smallRootFields == ["extra"])
        #expect(largeRootFields == smallRootFields)
        for id in [DataID.rootID, "1000", "2000", "3000", "4000"] { #expect(small.state(of: id) == large.state(of: id)) }
        #expect(small["1000"] == Record(id: "1000", typename: "Human", fields: ["name": .scalar("Luke"), "height": .scalar(1.72)]))
        #expect(small.count == 5)
        #expect(large.count == 25)
    }

    /// An update with the record's own fields (the same query answered again) moves its values
    /// into the record's storage and the record's into the update's: a copy of the source taken
    /// before (a snapshot, a watcher's view) and a change set its caller still holds keep what
    /// they had, and the source has the new values.
    @Test func anUpdateOfTheSameFieldsLeavesEarlierCopiesAsTheyWere() {
        let old = Record(id: "1000", typename: "Human", fields: ["name": .scalar("Luke"), "height": .scalar(1.72), "ship": .link("X-1")])
        let new = Record(id: "1000", typename: "Human", fields: ["name": .scalar("Luke"), "height": .scalar(1.8), "ship": .link("X-2")])
        // More records than the change set, so that it merges into the source's own table.
        var source = RecordSource(records: [old, Record(id: "2000", fields: ["name": .scalar("R2-D2")])])
        let snapshot = source
        let changes = RecordSource(records: [new])
        let changed = source.apply(changes)
        #expect(changed == ["1000"])
        #expect(source["1000"] == new)
        #expect(snapshot["1000"] == old)
        #expect(changes["1000"] == new)
        // And with nothing else holding either side's storage: the same outcome.
        var alone = RecordSource(records: [old, Record(id: "2000", fields: ["name": .scalar("R2-D2")])])
        #expect(alone.apply(RecordSource(records: [new])) == ["1000"])
        #expect(alone["1000"] == new)
        #expect(alone["2000"] == Record(id: "2000", fields: ["name": .scalar("R2-D2")]))
    }
}
