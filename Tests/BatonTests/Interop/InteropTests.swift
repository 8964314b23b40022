import BatonAPI
import Foundation
import Testing

@testable import Baton

/// Baton against a GraphQL server nobody on Baton wrote: strawberry-graphql (Python), started
/// from `Interop/` for each test. `.ci/run` installs it; see `Interop/README.md`.
@Suite("Interop with an independent Python server (strawberry-graphql)", .serialized)
struct InteropTests {
    @Test func postQueryWithVariables() async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(url: peer.url)
            let hello = try await client.fetch(query: InteropHelloQuery(name: "Baton"))
            #expect(hello.data?.hello == "Hello, Baton!")
            #expect(hello.source == .server)
            let hero = try await client.fetch(query: InteropHeroQuery(id: "1000"))
            #expect(hero.data?.hero?.name == "Luke Skywalker")
            // Normalized: the same query is answered from the store.
            let cached = try await client.fetch(query: InteropHeroQuery(id: "1000"), cachePolicy: .returnCacheDataDontFetch)
            #expect(cached.data?.hero?.name == "Luke Skywalker")
            #expect(cached.source == .cache)
        }
    }

    @Test func mutationThenQuery() async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(url: peer.url)
            let added = try await client.perform(mutation: InteropAddMessageMutation(text: "from Swift"))
            #expect(added.data?.addMessage.text == "from Swift")
            let messages = try await client.fetch(query: InteropMessagesQuery(), cachePolicy: .fetchIgnoringCacheData)
            #expect(messages.data?.messages.contains { $0.text == "from Swift" } == true)
        }
    }

    @Test func fieldErrorsComeWithPartialData() async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(url: peer.url)
            let result = try await client.fetch(query: InteropFailingQuery())
            #expect(result.data?.hello == "Hello, world!")
            #expect(result.data?.alwaysFails == nil)
            #expect(result.errors?.first?.path?.description.contains("alwaysFails") == true)
        }
    }

    @Test func preflightHeadersReachTheServer() async throws {
        try await withInteropPeer { peer in
            let client = BatonClient(url: peer.url) { request in
                request.headerFields[.authorization] = "Bearer interop"
                return .send
            }
            let result = try await client.fetch(query: InteropAuthorizationQuery())
            #expect(result.data?.authorization == "Bearer interop")
        }
    }
}
