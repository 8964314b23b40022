import Baton
import BatonExampleAPI
import BatonTesting
import Testing

/// Issue 30, item 13, for any transport: a response or event whose `data` is null and that has
/// no `errors` is ``BatonError/invalidResponse(operationName:reason:)`` (GraphQL over HTTP: a
/// null `data` means the operation failed, and `errors` says why), whatever carried it; the
/// store is untouched. A null `data` with errors is a result with those errors.
@Suite("Scenario: data null without errors")
struct NullDataWithoutErrorsScenario {
    @Test func aSubscriptionEventWithNullDataAndNoErrorsEndsTheSubscription() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: ["data": ["count": 1]], for: CountSubscription.self)
        scenario.transport.enqueue(body: ["data": nil], for: CountSubscription.self)
        scenario.transport.enqueue(body: ["data": ["count": 3]], for: CountSubscription.self)
        var counts: [Int] = []
        do {
            for try await result in scenario.client.subscribe(subscription: CountSubscription(to: 3)) {
                counts.append(result.data?.count ?? -1)
            }
            Issue.record("the event without data or errors was taken")
        } catch BatonError.invalidResponse(let name, let reason) {
            #expect(name == "Count")
            #expect(reason.contains("no `errors`"))
        }
        #expect(counts == [1])
    }

    @Test func aQueryResponseWithNullDataAndNoErrorsIsAnErrorAndWritesNothing() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Scenario.heroRecordIDResponse(), for: HeroRecordIDQuery.self)
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        let before = scenario.client.store.snapshot()
        scenario.transport.enqueue(body: ["data": nil], for: HeroRecordIDQuery.self)
        await #expect {
            _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        } throws: { error in
            guard case .invalidResponse("HeroRecordID", _)? = error as? BatonError else { return false }
            return true
        }
        #expect(scenario.client.store.snapshot() == before)
    }

    @Test func nullDataWithErrorsIsAResultWithThoseErrors() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: ["data": nil, "errors": [["message": "no hero today"]]], for: HeroRecordIDQuery.self)
        let result = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(result.data == nil)
        #expect(result.errors?.map(\.message) == ["no hero today"])
    }
}
