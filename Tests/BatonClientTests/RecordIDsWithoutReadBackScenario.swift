import Baton
import BatonExampleAPI
import BatonTesting
import Testing

/// `__id` is filled in by the executor's one walk: the result has the record IDs a store read
/// would give, whether or not the response is written (relay-runtime's `__id` field).
@Suite("Scenario: record IDs without reading back")
struct RecordIDsWithoutReadBackScenario {
    @Test func aFetchedResultHasTheRecordIDsTheStoreReadGives() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(), for: HeroRecordIDQuery.self)
        let result = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        let hero = try #require(result.data?.hero)
        let read = try scenario.client.store.read(query: HeroRecordIDQuery())
        #expect(hero.__id == read.hero?.__id)
        #expect(hero.friends?.map { $0?.__id } == read.hero?.friends?.map { $0?.__id })
        #expect(hero.friends?.first??.__id == "client:\(hero.__id):friends:0")
    }

    @Test func aResultNotWrittenToTheStoreHasThemToo() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(), for: HeroRecordIDQuery.self)
        let result = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheCompletely)
        let hero = try #require(result.data?.hero)
        #expect(!hero.__id.isEmpty)
        #expect(hero.friends?.count == 2)
        #expect(scenario.client.store.snapshot().count == 1)  // the root alone
    }
}
