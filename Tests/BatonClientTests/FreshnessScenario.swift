import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Foundation
import Testing

// Cases of Apollo Kotlin's normalized cache (apollographql/apollo-kotlin-normalized-cache),
// tests/cache-control: ClientAndServerSideCacheControlTest, DoNotStoreTest, StaleTest, as
// scenarios of a client over MockNetworkTransport whose responses carry an HTTP head, with a
// clock the test moves (no sleeps). Apollo's `FetchPolicy.CacheFirst` is `.returnCacheDataElseFetch`,
// `CacheOnly` `.returnCacheDataDontFetch`, `NetworkOnly` `.fetchIgnoringCacheData`.
@Suite("Scenario: freshness (Cache-Control, max ages, maxStale, stale watches)")
struct FreshnessScenario {
    let transport = MockNetworkTransport()
    let clock = ManualFreshnessClock()
    let client: BatonClient

    init(freshness: CacheFreshness = CacheFreshness(defaultMaxAge: .seconds(20), maxAgeByField: ["Droid": ["name": .seconds(2)]])) {
        client = BatonClient(networkTransport: transport, store: Store(freshness: freshness, clock: clock))
    }

    func enqueue(name: String = "R2-D2", cacheControl: String? = nil) {
        if let cacheControl {
            transport.enqueue(
                body: Scenario.heroRecordIDResponse(name: name), headerFields: [.cacheControl: cacheControl], for: HeroRecordIDQuery.self)
        } else {
            transport.enqueue(body: Scenario.heroRecordIDResponse(name: name), for: HeroRecordIDQuery.self)
        }
    }

    var requestCount: Int { transport.requests(of: HeroRecordIDQuery.self).count }

    // ClientAndServerSideCacheControlTest.cacheMisses: the response's max-age and the field's own.
    @Test("ClientAndServerSideCacheControlTest: cacheMisses")
    func cacheMisses() async throws {
        let scenario = FreshnessScenario(freshness: CacheFreshness(defaultMaxAge: .seconds(20)))
        scenario.enqueue(cacheControl: "max-age=10")
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        scenario.clock.advance(by: .seconds(5))
        let cached = try await scenario.client.fetch(query: HeroRecordIDQuery())
        #expect(cached.source == .cache)
        #expect(!cached.isStale)
        #expect(scenario.requestCount == 1)

        // Past the response's 10 s (though within the 20 s default): a miss, fetched again.
        scenario.clock.advance(by: .seconds(6))
        scenario.enqueue(name: "R2-D2 (again)", cacheControl: "max-age=0")
        let refetched = try await scenario.client.fetch(query: HeroRecordIDQuery())
        #expect(refetched.source == .server)
        #expect(scenario.requestCount == 2)

        // max-age=0: stale at once.
        scenario.enqueue(cacheControl: "max-age=60")
        #expect(try await scenario.client.fetch(query: HeroRecordIDQuery()).source == .server)
        #expect(scenario.requestCount == 3)
    }

    // ClientAndServerSideCacheControlTest.isStale: stale data within maxStale answers, flagged.
    @Test("ClientAndServerSideCacheControlTest: isStale")
    func isStale() async throws {
        enqueue()
        _ = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        clock.advance(by: .seconds(3))  // past Droid.name's 2 s
        let withinMaxStale = try await client.fetch(query: HeroRecordIDQuery(), maxStale: .seconds(10))
        #expect(withinMaxStale.source == .cache)
        #expect(withinMaxStale.isStale)
        #expect(withinMaxStale.data?.hero?.name == "R2-D2")
        // Store-only answers with what it has, flagged.
        let storeOnly = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .returnCacheDataDontFetch)
        #expect(storeOnly.isStale)
        #expect(requestCount == 1)
    }

    /// `.returnCacheDataElseFetch` treats stale data as a miss (no maxStale).
    @Test func returnCacheDataElseFetchFetchesStaleData() async throws {
        enqueue()
        _ = try await client.fetch(query: HeroRecordIDQuery())
        clock.advance(by: .seconds(1))
        #expect(try await client.fetch(query: HeroRecordIDQuery()).source == .cache)
        clock.advance(by: .seconds(2))
        enqueue(name: "Artoo")
        let result = try await client.fetch(query: HeroRecordIDQuery())
        #expect(result.source == .server)
        #expect(result.data?.hero?.name == "Artoo")
        #expect(!result.isStale)
    }

    /// `.returnCacheDataAndFetch` gives the stale data, flagged, then the server's.
    @Test func returnCacheDataAndFetchGivesStaleDataThenTheServers() async throws {
        enqueue()
        _ = try await client.fetch(query: HeroRecordIDQuery())
        clock.advance(by: .seconds(3))
        enqueue(name: "Artoo")
        var results: [GraphQLResult<HeroRecordIDQuery.Data>] = []
        for try await result in client.fetchResults(query: HeroRecordIDQuery(), cachePolicy: .returnCacheDataAndFetch) {
            results.append(result)
        }
        #expect(results.map(\.source) == [.cache, .server])
        #expect(results.map(\.isStale) == [true, false])
        #expect(results.last?.data?.hero?.name == "Artoo")
    }

    // DoNotStoreTest.doNotStoreQuery, with the response's `Cache-Control: no-store`.
    @Test("DoNotStoreTest: doNotStoreQuery (Cache-Control: no-store)")
    func doNotStoreQuery() async throws {
        enqueue(cacheControl: "private, no-store")
        let network = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(network.data?.hero?.name == "R2-D2")
        #expect(client.store.recordState(of: DataID("Droid:2001")) == nil)
        await #expect(throws: BatonError.self) {
            try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .returnCacheDataDontFetch)
        }
    }

    // StaleTest.staleErrorThenNetworkError: stale past maxStale, the network fails: the error.
    @Test("StaleTest: staleErrorThenNetworkError")
    func staleErrorThenNetworkError() async throws {
        let scenario = FreshnessScenario(freshness: CacheFreshness(defaultMaxAge: .seconds(86_400), maxStale: .seconds(14 * 86_400)))
        scenario.enqueue()
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery())
        scenario.clock.advance(by: .seconds(15 * 86_400 + 1))
        scenario.transport.enqueue(failure: ServerDown(), for: HeroRecordIDQuery.self)
        await #expect(throws: ServerDown.self) { try await scenario.client.fetch(query: HeroRecordIDQuery()) }
        #expect(scenario.requestCount == 2)
    }

    // ClientAndServerSideCacheControlTest.queryNetworkIfStale: fresh answers from the store;
    // stale within maxStale answers from the store, flagged; stale beyond it goes to the network.
    @Test("ClientAndServerSideCacheControlTest: queryNetworkIfStale")
    func queryNetworkIfStale() async throws {
        let scenario = FreshnessScenario(freshness: CacheFreshness(defaultMaxAge: .seconds(86_400)))
        scenario.enqueue()
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery())
        let fresh = try await scenario.client.fetch(query: HeroRecordIDQuery(), maxStale: .seconds(86_400))
        #expect(fresh.source == .cache && !fresh.isStale)
        scenario.clock.advance(by: .seconds(86_400 * 3 / 2))
        let stale = try await scenario.client.fetch(query: HeroRecordIDQuery(), maxStale: .seconds(86_400))
        #expect(stale.source == .cache && stale.isStale)
        scenario.clock.advance(by: .seconds(86_400))
        scenario.enqueue()
        let network = try await scenario.client.fetch(query: HeroRecordIDQuery(), maxStale: .seconds(86_400))
        #expect(network.source == .server)
        #expect(scenario.requestCount == 2)
    }

    /// A watch with `refetchWhenStale` fetches again when its data goes stale on the clock, and
    /// emits the server's new data; one without does not wait on the clock at all.
    @Test func aWatchRefetchesWhenItsDataGoesStale() async throws {
        enqueue(cacheControl: "max-age=60")
        var updates = client.watch(query: HeroRecordIDQuery(), refetchWhenStale: true).makeAsyncIterator()
        let first = try await updates.next()
        #expect(first?.source == .server)
        try await waitUntil { clock.sleeperCount == 1 }
        enqueue(name: "Artoo", cacheControl: "max-age=60")
        clock.advance(by: .seconds(2))  // Droid.name's max age
        let second = try await updates.next()
        #expect(second?.source == .server)
        #expect(second?.data?.hero?.name == "Artoo")
        #expect(requestCount == 2)
        // And again at the new data's max age.
        try await waitUntil { clock.sleeperCount == 1 }

        let quiet = FreshnessScenario()
        quiet.enqueue()
        var plain = quiet.client.watch(query: HeroRecordIDQuery()).makeAsyncIterator()
        _ = try await plain.next()
        quiet.clock.advance(by: .seconds(100))
        #expect(quiet.clock.sleeperCount == 0)
        #expect(quiet.requestCount == 1)
    }

    /// `QueryObserver(refetchWhenStale:)` (and `@Query`'s, which makes one): the observer's watch
    /// fetches again once its data goes stale, and shows the new data; without it nothing waits
    /// on the clock.
    @Test @MainActor func aQueryObserverRefetchesWhenItsDataGoesStale() async throws {
        enqueue(cacheControl: "max-age=60")
        let observer = QueryObserver(client: client, query: HeroRecordIDQuery(), refetchWhenStale: true)
        try await waitUntil { observer.data?.hero?.name == "R2-D2" }
        try await waitUntil { clock.sleeperCount == 1 }
        enqueue(name: "Artoo", cacheControl: "max-age=60")
        clock.advance(by: .seconds(2))  // Droid.name's max age
        try await waitUntil { observer.data?.hero?.name == "Artoo" }
        #expect(requestCount == 2)

        let quiet = FreshnessScenario()
        quiet.enqueue()
        let plain = QueryObserver(client: quiet.client, query: HeroRecordIDQuery())
        try await waitUntil { plain.data != nil }
        quiet.clock.advance(by: .seconds(100))
        for _ in 0..<100 { await Task.yield() }
        #expect(quiet.clock.sleeperCount == 0)
        #expect(quiet.requestCount == 1)
    }

    /// A max age of zero (here the client's for `Droid.name`; the schema's
    /// `@cacheControl(maxAge: 0)` reads the same): the data is stored but never fresh, so a
    /// cache-first fetch goes to the server each time, and a store-only read answers, flagged.
    @Test func aMaxAgeOfZeroIsStoredButNeverFresh() async throws {
        let scenario = FreshnessScenario(freshness: CacheFreshness(maxAgeByField: ["Droid": ["name": .zero]]))
        scenario.enqueue()
        _ = try await scenario.client.fetch(query: HeroRecordIDQuery())
        scenario.enqueue(name: "Artoo")
        #expect(try await scenario.client.fetch(query: HeroRecordIDQuery()).source == .server)
        #expect(scenario.requestCount == 2)
        let cached = try await scenario.client.fetch(query: HeroRecordIDQuery(), cachePolicy: .returnCacheDataDontFetch)
        #expect(cached.source == .cache)
        #expect(cached.isStale)
        #expect(cached.data?.hero?.name == "Artoo")
    }

    /// A watch does not refetch in a loop data that arrives already stale (`no-cache`).
    @Test func aWatchDoesNotRefetchDataThatArrivesStale() async throws {
        enqueue(cacheControl: "no-cache")
        var updates = client.watch(query: HeroRecordIDQuery(), refetchWhenStale: true).makeAsyncIterator()
        _ = try await updates.next()
        for _ in 0..<100 { await Task.yield() }
        #expect(clock.sleeperCount == 0)
        #expect(requestCount == 1)
    }

    /// A watch's emissions from the store say whether their data is stale.
    @Test func watchEmissionsFromTheStoreTellStaleness() async throws {
        enqueue()
        _ = try await client.fetch(query: HeroRecordIDQuery())
        clock.advance(by: .seconds(3))
        var updates = client.watch(query: HeroRecordIDQuery(), cachePolicy: .returnCacheDataDontFetch).makeAsyncIterator()
        let first = try await updates.next()
        #expect(first?.isStale == true)
        // Another query's fresh response brings fresh data.
        enqueue(name: "Artoo")
        _ = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        let second = try await updates.next()
        #expect(second?.data?.hero?.name == "Artoo")
        #expect(second?.isStale == false)
    }

    /// `Cache-Control` as a client reads it.
    @Test func cacheControlHeadsAreRead() {
        #expect(CacheControl([.cacheControl: "max-age=60, private"]) == CacheControl(maxAge: .seconds(60)))
        #expect(CacheControl([.cacheControl: "no-store"]) == CacheControl(noStore: true))
        #expect(CacheControl([.cacheControl: "no-cache"]) == CacheControl(maxAge: .zero))
        #expect(CacheControl([.cacheControl: "public, s-maxage=600, MAX-AGE=\"30\""]) == CacheControl(maxAge: .seconds(30)))
        var twice = HTTPFields()
        twice.append(HTTPField(name: .cacheControl, value: "max-age=60"))
        twice.append(HTTPField(name: .cacheControl, value: "max-age=20"))
        #expect(CacheControl(twice) == CacheControl(maxAge: .seconds(20)))
        #expect(CacheControl([.cacheControl: "max-age=soon, max-age=-1"]) == CacheControl())
        #expect(CacheControl([:]) == CacheControl())
    }
}

/// A transport failure.
struct ServerDown: Error {}

/// Waits (yielding, then a millisecond at a time, up to 5 s) until `condition` holds, on the
/// caller's actor.
func waitUntil(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async throws {
    for attempt in 0..<5_000 {
        if condition() { return }
        if attempt < 100 { await Task.yield() } else { try await Task.sleep(for: .milliseconds(1)) }
    }
    Issue.record("the condition never held")
}

/// BatonTesting's clock: sleepers wake when the clock passes their time, and a cancelled sleep
/// throws.
@Suite("ManualFreshnessClock")
struct ManualFreshnessClockTests {
    @Test func wakesSleepersWhenMovedAndHonoursCancellation() async throws {
        let clock = ManualFreshnessClock()
        let due = clock.now.addingTimeInterval(10)
        let sleeper = Task { try await clock.sleep(until: due) }
        try await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)

        let cancelled = Task { try await clock.sleep(until: due.addingTimeInterval(100)) }
        try await waitUntil { clock.sleeperCount == 1 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.sleeperCount == 0)
        // A time already passed returns at once.
        try await clock.sleep(until: due)
    }
}
