import Baton
import BatonExampleAPI
import BatonTesting
import Testing

/// A response that does not match the selections is a typed error with its path, and the one
/// walk that found it wrote nothing.
@Suite("Scenario: a mismatching response writes nothing")
struct MismatchWritesNothingScenario {
    @Test func aWrongTypeDeepInTheResponseFailsWithItsPathAndTheStoreIsUntouched() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(), for: HeroRecordIDQuery.self)
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        let before = scenario.client.store.snapshot()
        var wrong = Scenario.heroRecordIDResponse(name: "Changed")
        wrong["data"] = [
            "hero": [
                "__typename": "Droid", "id": "2001", "name": "Changed",
                "friends": [["__typename": "Human", "name": "Luke"], ["__typename": "Droid", "name": 42]],
            ]
        ]
        scenario.transport.enqueue(body: wrong, for: HeroRecordIDQuery.self)
        do {
            _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
            Issue.record("a name of 42 was accepted")
        } catch BatonError.dataMismatch(let name, let error) {
            #expect(name == "HeroRecordID")
            #expect(error.path.description == "hero.friends[1].name")
            #expect(error.found == "Int 42")
        }
        #expect(scenario.client.store.snapshot() == before)
    }
}
