import BatonAPI
import Foundation
import BatonExampleAPI
import Testing

@Suite("Selection sets")
struct SelectionSetTests {
    let luke: JSONObject = [
        "hero": [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE", "EMPIRE", "FUTURE"],
            "friends": [["__typename": "Human", "name": "Han Solo"], nil, ["__typename": "Droid", "name": "R2-D2"]],
            "height": 5.64,
        ]
    ]

    @Test func readsFieldsFragmentsAndTypeConditions() throws {
        let data = try HeroAndFriendsQuery.Data(jsonObject: luke)
        let hero = try #require(data.hero)
        #expect(hero.__typename == "Human")
        #expect(hero.name == "Luke Skywalker")
        #expect(hero.fragments.characterName.name == "Luke Skywalker")
        #expect(hero.appearsIn == [.case(.newhope), .case(.empire), .unknown("FUTURE")])
        #expect(hero.appearsIn[0] == .newhope)
        #expect(hero.friends?.count == 3)
        #expect(hero.friends?[1] == nil)
        #expect(hero.friends?[2]?.name == "R2-D2")
        #expect(hero.asHuman?.height == 5.64)
        #expect(hero.asDroid == nil)
        #expect(data.jsonObject == luke)
    }

    @Test func namesThePathOfTheFirstMismatch() {
        var bad = luke
        bad["hero"] = [
            "__typename": "Human", "id": "1000", "name": "Luke", "appearsIn": [],
            "friends": [["__typename": "Human", "name": "Han"], ["__typename": "Human", "name": "Leia"], ["__typename": "Droid", "name": 42]],
        ]
        #expect {
            try HeroAndFriendsQuery.Data(jsonObject: bad)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.description == "hero.friends[2].name: expected String, found Int 42"
        }
    }

    @Test func nonNullFieldsMustBePresentAndNotNull() {
        let missing: JSONObject = ["hero": ["__typename": "Droid", "id": "2001", "appearsIn": [], "friends": nil]]
        #expect {
            try HeroAndFriendsQuery.Data(jsonObject: missing)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.description == "hero.name: expected String!, found nothing"
        }
        let null: JSONObject = ["hero": ["__typename": "Droid", "id": "2001", "name": nil, "appearsIn": []]]
        #expect {
            try HeroAndFriendsQuery.Data(jsonObject: null)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.description == "hero.name: expected String!, found null"
        }
        let notAList: JSONObject = ["hero": ["__typename": "Droid", "id": "2001", "name": "R2", "appearsIn": "JEDI"]]
        #expect {
            try HeroAndFriendsQuery.Data(jsonObject: notAList)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.description == #"hero.appearsIn: expected [Episode], found String "JEDI""#
        }
    }

    @Test func typeConditionsOnlyApplyToMatchingTypes() throws {
        // A droid without `height` is fine: `... on Human` does not apply to it.
        let droid: JSONObject = ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "appearsIn": [], "friends": nil, "primaryFunction": "Astromech"]]
        let data = try HeroAndFriendsQuery.Data(jsonObject: droid)
        #expect(data.hero?.asDroid?.primaryFunction == "Astromech")
        #expect(data.hero?.asHuman == nil)
        // A wrong type under a matching condition is caught.
        let wrong: JSONObject = ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "appearsIn": [], "friends": nil, "primaryFunction": 7]]
        #expect(throws: SelectionSetDecodingError.self) { try HeroAndFriendsQuery.Data(jsonObject: wrong) }
    }

    @Test func includeAndSkipFollowVariables() throws {
        let selections: [Selection] = [
            .field("a", type: .nonNull(.scalar("Int")), conditions: [.include(if: "withA")]),
            .field("b", type: .nonNull(.scalar("Int")), conditions: [.skip(if: "skipB")]),
        ]
        #expect(Conditional.__selections == selections)
        // Included and present: fine. Included and absent: an error.
        _ = try Conditional(jsonObject: ["a": 1, "b": 2], variables: ["withA": true, "skipB": false])
        #expect(throws: SelectionSetDecodingError.self) {
            try Conditional(jsonObject: ["b": 2], variables: ["withA": true, "skipB": false])
        }
        // Excluded: may be absent.
        let data = try Conditional(jsonObject: [:], variables: ["withA": false, "skipB": true])
        #expect(data.a == nil)
        // Unknown variables: optional, but checked when present.
        _ = try Conditional(jsonObject: [:])
        #expect(throws: SelectionSetDecodingError.self) { try Conditional(jsonObject: ["a": "x"]) }
    }

    @Test func variablesLeaveOutAbsentValuesAndKeepNulls() {
        let absent = HeroAndFriendsQuery()
        #expect(absent.variablesJSON == [:])
        let null = HeroAndFriendsQuery(episode: .null)
        #expect(null.variablesJSON == ["episode": nil])
        let empire = HeroAndFriendsQuery(episode: .some(.case(.empire)))
        #expect(empire.variablesJSON == ["episode": "EMPIRE"])

        let review = ReviewInput(stars: 5, commentary: "Great", favorite_color: .some(ColorInput(red: 1, green: 2, blue: 3)))
        let mutation = CreateReviewForEpisodeMutation(episode: .case(.jedi), review: review)
        #expect(
            mutation.variablesJSON.serializedData() == JSONValue.object([
                "episode": "JEDI",
                "review": ["stars": 5, "commentary": "Great", "favorite_color": ["red": 1, "green": 2, "blue": 3]],
            ]).serializedData())
        var edited = ReviewInput(stars: 1)
        edited.commentary = .null
        #expect(edited.variableJSON == ["stars": 1, "commentary": nil])
        #expect(edited != ReviewInput(stars: 1))
    }

    @Test func graphQLEnumKeepsUnknownValues() {
        let unknown = GraphQLEnum<Episode>(rawValue: "PHANTOM")
        #expect(unknown == .unknown("PHANTOM"))
        #expect(unknown.value == nil)
        #expect(unknown.rawValue == "PHANTOM")
        #expect(GraphQLEnum<Episode>(rawValue: "JEDI") == .jedi)
    }

    @Test func graphQLErrorReadsItsParts() {
        let error = GraphQLError(json: [
            "message": "boom", "locations": [["line": 2, "column": 3]], "path": ["hero", "friends", 1, "name"],
            "extensions": ["code": "BAD"],
        ])
        #expect(error.message == "boom")
        #expect(error.locations == [.init(line: 2, column: 3)])
        #expect(error.path?.description == "hero.friends[1].name")
        #expect(error.code == "BAD")
        #expect(GraphQLError(json: "odd").message == "odd")
    }
}

/// A selection set with conditional fields, as codegen emits for `@include`/`@skip`.
private struct Conditional: RootSelectionSet {
    let __data: DataDict
    init(_dataDict: DataDict) { __data = _dataDict }
    static let __parentType = TypeCondition("Query")
    static let __selections: [Selection] = [
        .field("a", type: .nonNull(.scalar("Int")), conditions: [.include(if: "withA")]),
        .field("b", type: .nonNull(.scalar("Int")), conditions: [.skip(if: "skipB")]),
    ]
    var a: Int? { __data["a"] }
}

/// A query selecting a custom scalar mapped to `JSONValue` (`"customScalars": {"JSON": "JSONValue"}`),
/// as codegen emits it: seed 003's `CustomJSON`, the documented one-line equivalent.
private struct PayloadQueryData: RootSelectionSet {
    let __data: DataDict
    init(_dataDict: DataDict) { __data = _dataDict }
    static let __parentType = TypeCondition("Query")
    static let __selections: [Selection] = [
        .field("payload", type: .scalar("JSON"), scalar: JSONValue.self)
    ]
    var payload: JSONValue? { __data["payload"] }
}

@Suite("Seed 003: a JSON scalar read as Apollo's [String: Any]")
struct CustomJSONEquivalentTests {
    @Test("a scalar mapped to JSONValue gives Foundation's [String: Any] or [Any] through foundationValue")
    func jsonScalarAsFoundationObjects() throws {
        let object = try PayloadQueryData(jsonObject: ["payload": ["name": "Luke", "tags": [1, 2.5, true, nil]]])
        let dict = try #require(object.payload?.foundationValue as? [String: Any])
        #expect(dict["name"] as? String == "Luke")
        let tags = try #require(dict["tags"] as? [Any])
        #expect(tags.count == 4)
        #expect(tags[0] as? Int == 1)
        #expect(tags[1] as? Double == 2.5)
        #expect(tags[2] as? Bool == true)
        #expect(tags[3] is NSNull)
        #expect(JSONSerialization.isValidJSONObject(dict))

        let list = try PayloadQueryData(jsonObject: ["payload": [1, "two"]])
        #expect((list.payload?.foundationValue as? [Any])?.count == 2)
    }
}
