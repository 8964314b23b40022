import Baton
import BatonAPI
import BatonExampleAPI
import BatonStore
import BatonTesting
import Foundation
import HTTPTypes
import Testing

/// Issue 29, item 2, over real HTTP: the example server's `Cache-Control` head (what the
/// request's `X-Example-Cache-Control` asks it to send) reaches the store through URLSession,
/// and cache policies honour it. The client's scenarios (FreshnessScenario) cover the same over
/// MockNetworkTransport.
@Suite("Cache-Control from the example server")
struct CacheControlOverHTTPTests {
    let hero = HeroAndFriendsQuery(episode: .some(.case(.empire)))
    static let asked = HTTPField.Name("X-Example-Cache-Control")!

    @Test func maxAgeAnswersFromTheCacheUntilItRunsOut() async throws {
        try await withExampleServer { server in
            let clock = ManualFreshnessClock()
            let counter = RequestCounter()
            let client = BatonClient(
                url: server.url, store: Store(clock: clock), headerFields: [Self.asked: "max-age=60"], interceptors: [counter])
            #expect(try await client.fetch(query: hero).source == .server)
            clock.advance(by: .seconds(30))
            let cached = try await client.fetch(query: hero)
            #expect(cached.source == .cache)
            #expect(!cached.isStale)
            #expect(counter.count == 1)

            // Past the response's 60 s: stale, so fetched again.
            clock.advance(by: .seconds(31))
            #expect(client.store.load(OperationDescriptor(operation: hero)).availability == .stale)
            #expect(try await client.fetch(query: hero).source == .server)
            #expect(counter.count == 2)

            // Stale within maxStale: answered from the cache, flagged.
            clock.advance(by: .seconds(61))
            let stale = try await client.fetch(query: hero, maxStale: .seconds(10))
            #expect(stale.source == .cache)
            #expect(stale.isStale)
            #expect(counter.count == 2)
        }
    }

    @Test func noStoreLeavesTheStoreWithoutTheResponse() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url, headerFields: [Self.asked: "private, no-store"])
            let fetched = try await client.fetch(query: hero)
            #expect(fetched.source == .server)
            #expect(fetched.data?.hero?.name == "Luke Skywalker")
            #expect(client.store.recordState(of: "Human:1000") == nil)
            await #expect {
                try await client.fetch(query: hero, cachePolicy: .returnCacheDataDontFetch)
            } throws: { error in
                guard case .cacheMiss? = error as? BatonError else { return false }
                return true
            }
        }
    }
}
