import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Testing

/// A refetch that returns what the store holds changes nothing and notifies no watcher; a change
/// of one field notifies the watchers that read it (issue 26, item 4).
@Suite("Scenario: an unchanged refetch")
struct UnchangedRefetchScenario {
    @Test func notifiesNoWatcherAndAOneFieldChangeNotifiesOnce() async throws {
        let scenario = Scenario()
        let store = scenario.client.store
        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(), for: HeroRecordIDQuery.self)
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        let counter = NotificationCounter()
        let (_, subscription) = store.subscribe(OperationDescriptor(operation: HeroRecordIDQuery())) { _ in counter.increment() }
        defer { subscription.cancel() }

        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(), for: HeroRecordIDQuery.self)
        let changed = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(counter.value == 0)
        #expect(changed.data?.hero?.name == "R2-D2")

        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(friendName: "Luke"), for: HeroRecordIDQuery.self)
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(counter.value == 1)
    }
}
