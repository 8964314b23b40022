import Baton
import BatonExampleAPI
import BatonStore
import BatonTestSupport
import BatonTesting
import Foundation
import Testing

/// Seeded random sequences of fetches (a few canned responses, some repeated byte for byte,
/// with and without Cache-Control), local writes, optimistic updates, invalidations, deletions,
/// garbage collection, `clear()` and time passing, run against a client that keeps responses
/// (with room for only a few, so that they are dropped too) and a naive one that keeps none:
/// after every step their results, stores, watchers and availability must agree.
@Suite("Repeated responses against a client that keeps none (random sequences)", .ownThread)
struct RepeatedResponseModelTests {
    /// One request of the sequence: an operation with its variables, and how to read its data.
    enum Request: CaseIterable {
        case heroRecordID, heroRecordIDEmpire, heroAndFriends, heroAndFriendsJedi

        var descriptor: OperationDescriptor {
            switch self {
            case .heroRecordID: OperationDescriptor(operation: HeroRecordIDQuery())
            case .heroRecordIDEmpire: OperationDescriptor(operation: HeroRecordIDQuery(episode: .some(.case(.empire))))
            case .heroAndFriends: OperationDescriptor(operation: HeroAndFriendsQuery())
            case .heroAndFriendsJedi: OperationDescriptor(operation: HeroAndFriendsQuery(episode: .some(.case(.jedi))))
            }
        }

        /// One of a few canned bodies for this request (variant 5 is variant 0 with a space more).
        func body(variant: Int) -> Data {
            let name = variant % 2 == 0 ? "R2-D2" : "Artoo"
            let friend = variant % 3 == 0 ? "Luke Skywalker" : "Han Solo"
            var body: JSONObject
            switch self {
            case .heroRecordID, .heroRecordIDEmpire:
                body = Scenario.heroRecordIDResponse(name: name, friendName: friend)
            case .heroAndFriends, .heroAndFriendsJedi:
                body = [
                    "data": [
                        "hero": [
                            "__typename": "Droid", "id": "2001", "name": .string(name), "appearsIn": ["NEWHOPE", "JEDI"],
                            "friends": [["__typename": "Human", "name": .string(friend)]], "primaryFunction": "Astromech",
                        ]
                    ]
                ]
            }
            if variant == 4 {
                body["errors"] = [["message": "late", "path": ["hero", "name"]]]
                body["extensions"] = ["cost": 2]
            }
            var bytes = JSONValue.object(body).serializedData()
            if variant == 5 { bytes.append(contentsOf: Array(" ".utf8)) }
            return bytes
        }

        /// Fetches this request; the outcome as something comparable.
        func fetch(_ canned: CannedClient, body: Data, cacheControl: String?, policy: SingleResultCachePolicy) async -> String {
            do {
                switch self {
                case .heroRecordID:
                    return describe(try await canned.fetch(HeroRecordIDQuery(), answering: body, cacheControl: cacheControl, cachePolicy: policy))
                case .heroRecordIDEmpire:
                    return describe(
                        try await canned.fetch(
                            HeroRecordIDQuery(episode: .some(.case(.empire))), answering: body, cacheControl: cacheControl, cachePolicy: policy))
                case .heroAndFriends:
                    return describe(try await canned.fetch(HeroAndFriendsQuery(), answering: body, cacheControl: cacheControl, cachePolicy: policy))
                case .heroAndFriendsJedi:
                    return describe(
                        try await canned.fetch(
                            HeroAndFriendsQuery(episode: .some(.case(.jedi))), answering: body, cacheControl: cacheControl, cachePolicy: policy))
                }
            } catch {
                return "error: \(error)"
            }
        }

        func describe<Data: RootSelectionSet>(_ result: GraphQLResult<Data>) -> String {
            "\(String(describing: result.data?.jsonObject)) \(String(describing: result.errors)) \(String(describing: result.extensions)) "
                + "\(result.source) \(result.isStale) \(String(describing: result.caughtFieldError))"
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func keepingResponsesChangesNothingObservable(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let clock = ManualFreshnessClock()
        let freshness = CacheFreshness(defaultMaxAge: .seconds(20))
        // Room for about three of the responses: entries are dropped and kept again.
        let fast = CannedClient(store: Store(freshness: freshness, clock: clock), keptResponseBytes: 3 * 300)
        let naive = CannedClient(store: Store(freshness: freshness, clock: clock), keptResponseBytes: 0)
        let clients = [fast, naive]
        let counters = clients.map { _ in Request.allCases.map { _ in NotificationCounter() } }
        var subscriptions: [StoreSubscription] = []
        for (index, canned) in clients.enumerated() {
            for (request, counter) in zip(Request.allCases, counters[index]) {
                subscriptions.append(canned.store.subscribe(request.descriptor) { _ in counter.increment() }.subscription)
            }
        }
        defer { for subscription in subscriptions { subscription.cancel() } }
        var optimistic: [[OptimisticUpdate]] = [[], []]
        let cacheControls: [String?] = [nil, nil, nil, "max-age=10", "no-cache", "no-store"]
        let policies: [SingleResultCachePolicy] = [
            .fetchIgnoringCacheData, .fetchIgnoringCacheData, .fetchIgnoringCacheData, .fetchIgnoringCacheCompletely,
            .returnCacheDataElseFetch,
        ]
        for step in 0..<1_500 {
            let action = Int.random(in: 0..<20, using: &random)
            switch action {
            case 0..<11:
                let request = Request.allCases.randomElement(using: &random)!
                // Mostly the first two variants, so that most fetches repeat the last response.
                let variant = Int.random(in: 0..<10, using: &random) < 7 ? Int.random(in: 0..<2, using: &random) : Int.random(in: 0..<6, using: &random)
                let cacheControl = cacheControls.randomElement(using: &random)!
                let policy = policies.randomElement(using: &random)!
                let body = request.body(variant: variant)
                var outcomes: [String] = []
                for canned in clients { outcomes.append(await request.fetch(canned, body: body, cacheControl: cacheControl, policy: policy)) }
                #expect(outcomes[0] == outcomes[1], "step \(step): fetch of \(request) variant \(variant)")
            case 11:
                let name = ["Changed", "R2-D2", "Artoo"].randomElement(using: &random)!
                for canned in clients { canned.store.update { $0.get(droid)?.setValue(.string(name), "name") } }
            case 12:
                let descriptor = Request.allCases.randomElement(using: &random)!.descriptor
                for (index, canned) in clients.enumerated() {
                    optimistic[index].append(
                        canned.store.applyOptimisticUpdate(data: nil, for: descriptor) { proxy, _ in proxy.get(droid)?.setValue("Optimistic", "name") })
                }
            case 13:
                guard !optimistic[0].isEmpty else { continue }
                let which = Int.random(in: 0..<optimistic[0].count, using: &random)
                for (index, canned) in clients.enumerated() { canned.store.revertOptimisticUpdate(optimistic[index].remove(at: which)) }
            case 14:
                let whole = Bool.random(using: &random)
                for canned in clients { if whole { canned.store.invalidateStore() } else { canned.store.invalidateRecord(droid) } }
            case 15:
                for canned in clients { canned.store.update { $0.delete(droid) } }
            case 16:
                for canned in clients { _ = canned.store.collectGarbage() }
            case 17:
                guard Int.random(in: 0..<4, using: &random) == 0 else { continue }
                for canned in clients { canned.store.clear() }
                optimistic = [[], []]
            default:
                clock.advance(by: .seconds(Int64.random(in: 0...15, using: &random)))
            }
            #expect(fast.store.snapshot() == naive.store.snapshot(), "step \(step), action \(action): the stores differ")
            for (request, (fastCounter, naiveCounter)) in zip(Request.allCases, zip(counters[0], counters[1])) {
                #expect(fastCounter.value == naiveCounter.value, "step \(step): \(request)'s watchers were notified differently")
                #expect(fast.store.check(request.descriptor) == naive.store.check(request.descriptor), "step \(step): \(request)")
            }
        }
        // The sequence did exercise repeats, and dropped entries.
        #expect(fast.hits > 50)
        #expect(naive.hits == 0)
    }
}
