import BatonAPI
import BatonExampleAPI
import Testing

/// The natural ways to give a nullable input (issue 16, item 9): the generated operations of
/// BatonExampleAPI take enums, scalars and input objects written as Swift code would write them.
/// That these compile is most of the test; the variables show they mean what they say.
@Suite struct GraphQLNullableTests {
    @Test func aNullableEnumTakesTheCaseItself() {
        #expect(HeroNameQuery(episode: .empire).variablesJSON == ["episode": "EMPIRE"])
        #expect(HeroAndFriendsQuery(episode: .jedi).variablesJSON == ["episode": "JEDI"])
        #expect(HeroNameQuery(episode: .some(.newhope)).variablesJSON == ["episode": "NEWHOPE"])
        let episode = Episode.empire
        #expect(HeroNameQuery(episode: .init(episode)).variablesJSON == ["episode": "EMPIRE"])
        #expect(HeroNameQuery(episode: GraphQLNullable(episode)).variablesJSON == ["episode": "EMPIRE"])
        // The long forms still work, and a raw name reaches the server as written.
        #expect(HeroNameQuery(episode: .some(.case(.empire))).variablesJSON == ["episode": "EMPIRE"])
        #expect(HeroNameQuery(episode: "FUTURE").variablesJSON == ["episode": "FUTURE"])
        #expect(HeroNameQuery(episode: .null).variablesJSON == ["episode": nil])
        #expect(HeroNameQuery(episode: nil).variablesJSON == [:])
        #expect(HeroNameQuery().variablesJSON == [:])
    }

    @Test func aNonNullEnumTakesTheCaseItself() {
        let review = ReviewInput(stars: 5)
        #expect(CreateReviewForEpisodeMutation(episode: .jedi, review: review).variablesJSON["episode"] == "JEDI")
        #expect(HumanQuery(id: "1000", unit: .foot, withHeight: true, skipMass: false).variablesJSON["unit"] == "FOOT")
        let units: [GraphQLEnum<LengthUnit>] = [.meter, .foot]
        #expect(units.map(\.rawValue) == ["METER", "FOOT"])
        // Comparing with a case reads the same as before the shorthands (no ambiguity).
        let unit: GraphQLEnum<LengthUnit> = .foot
        #expect(unit == .foot)
        #expect(unit != .meter)
        #expect(units.contains(.meter))
        let optionalUnit: GraphQLEnum<LengthUnit>? = .meter
        #expect(optionalUnit == .meter)
    }

    @Test func scalarsTakeLiteralsValuesAndOptionals() {
        #expect(SearchQuery(text: "falcon").variablesJSON == ["text": "falcon"])
        let text = "wing"
        #expect(SearchQuery(text: .init(text)).variablesJSON == ["text": "wing"])
        #expect(SearchQuery(text: .some(text)).variablesJSON == ["text": "wing"])
        let missing: String? = nil
        let present: String? = "x"
        #expect(SearchQuery(text: missing ?? .none).variablesJSON == [:])
        #expect(SearchQuery(text: missing ?? .null).variablesJSON == ["text": nil])
        #expect(SearchQuery(text: present ?? .null).variablesJSON == ["text": "x"])
        #expect(SearchQuery(text: .init(missing)).variablesJSON == ["text": nil])
        #expect(TodoListQuery(first: 5, after: nil).variablesJSON == ["first": 5])
    }

    @Test func inputObjectsTakeTheObject() {
        let color = ColorInput(red: 1, green: 2, blue: 3)
        let withInit = ReviewInput(stars: 5, commentary: "Best one", favorite_color: .init(color))
        let withSome = ReviewInput(stars: 5, commentary: "Best one", favorite_color: .some(color))
        let optional: ColorInput? = color
        let withOptional = ReviewInput(stars: 5, commentary: "Best one", favorite_color: optional ?? .null)
        let expected: JSONValue = ["stars": 5, "commentary": "Best one", "favorite_color": ["red": 1, "green": 2, "blue": 3]]
        for review in [withInit, withSome, withOptional] {
            #expect(CreateReviewForEpisodeMutation(episode: .empire, review: review).variablesJSON["review"] == expected)
        }
    }
}
