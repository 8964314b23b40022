import Baton
import BatonExampleAPI
import BatonTesting
import Testing

/// A server-side process shares one client between many tasks: their publishes execute in
/// parallel before the store's lock, and every result is what the store then reads.
@Suite("Scenario: many tasks, one client")
struct ManyTasksOneClientScenario {
    @Test func sixtyFourConcurrentFetchesOfDifferentHeroesAllLandWhole() async throws {
        let scenario = Scenario()
        scenario.transport.setHandler { request in
            let episode = request.variables["episode"]?.stringValue ?? "NONE"
            return [
                "data": [
                    "hero": [
                        "__typename": "Human", "id": .string("h-\(episode)"), "name": .string("Hero of \(episode)"),
                        "friends": [["__typename": "Droid", "name": .string("Friend of \(episode)")]],
                    ]
                ]
            ]
        }
        let client = scenario.client
        let episodes: [Episode] = [.empire, .jedi, .newhope]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<64 {
                let episode = episodes[round % episodes.count]
                group.addTask {
                    let result = try await client.fetch(query: HeroRecordIDQuery(episode: .init(episode)), cachePolicy: .fetchIgnoringCacheData)
                    #expect(result.data?.hero?.name == "Hero of \(episode.rawValue)")
                    #expect(result.data?.hero?.friends?.first??.name == "Friend of \(episode.rawValue)")
                }
            }
            try await group.waitForAll()
        }
        for episode in episodes {
            let read = try client.store.read(query: HeroRecordIDQuery(episode: .init(episode)))
            #expect(read.hero?.name == "Hero of \(episode.rawValue)")
        }
    }
}
