import Baton
import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import Foundation
import HTTPTypes

/// 1,000 sequential network-only fetches against the example server on loopback vs the same
/// 1,000 requests sent with the bare HTTP client.
enum RequestOverhead {
    static func figure() async throws -> Figure {
        let server = try await ExampleServer.start()
        defer { Task { await server.stop() } }
        let httpClient = URLSessionHTTPClient()
        let client = BatonClient(url: server.url, httpClient: httpClient)
        let query = HeroAndFriendsQuery(episode: .some(.case(.empire)))
        let request = GraphQLRequest(operation: query, url: server.url)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.accept] = "application/graphql-response+json, application/json;q=0.9"
        let httpRequest = HTTPRequest(method: .post, url: server.url, headerFields: fields)
        let body = request.bodyJSON.serializedData()
        let count = 1_000
        return try await compareAsync("1,000 fetches (network only)", floorName: "bare HTTP client", target: 1.15, rounds: 5) {
            for _ in 0..<count {
                _ = try await client.fetch(query: query, cachePolicy: .networkOnly)
            }
        } floor: {
            for _ in 0..<count {
                _ = try await httpClient.send(httpRequest, body: body, timeout: nil)
            }
        }
    }
}
