// Only `import Baton` (no HTTPTypes): what a user needs to write an interceptor comes with it.
import Baton
import BatonAPI
import BatonExampleAPI
import Foundation
import Testing

/// An interceptor a user writes: it records each request it sees (with its document or not,
/// and its persisted-query hash) and the status that came back, and stamps a header.
private struct WireRecordingInterceptor: GraphQLInterceptor {
    struct Seen: Sendable, Equatable {
        let sendsDocument: Bool
        let hash: String?
        let status: Int
    }

    let seen = Locked<[Seen]>([])

    func intercept(
        _ request: GraphQLRequest,
        next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        var request = request
        let fields: HTTPFields = [.init("X-Seen-By")!: "wire"]
        request.headerFields.append(contentsOf: fields)
        let result = try await next(request)
        let status: HTTPResponse.Status = result.response.status
        let body = request.bodyJSON
        let hash = body["extensions"]?.objectValue?["persistedQuery"]?.objectValue?["sha256Hash"]?.stringValue
        seen.withLock { $0.append(Seen(sendsDocument: body["query"] != nil, hash: hash, status: status.code)) }
        return result
    }
}

@Suite("Wire-end interceptors")
struct WireInterceptorTests {
    /// Automatic persisted queries against the example server: a user's ordinary interceptor sees
    /// one request with its document; a wire interceptor sees what goes on the wire, the hash
    /// alone and then the retry with the document, then (once the server knows it) the hash alone.
    @Test func aWireInterceptorSeesThePersistedQueryHashOnlyRequest() async throws {
        try await withExampleServer { server in
            let user = WireRecordingInterceptor()
            let wire = WireRecordingInterceptor()
            let client = BatonClient(url: server.url, interceptors: [user], autoPersistQueries: true, wireInterceptors: [wire])
            let query = HeroNameQuery(episode: .empire)
            let id = HeroNameQuery.operationIdentifier
            let first = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(first.data?.hero?.name == "Luke Skywalker")
            let second = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(second.data?.hero?.name == "Luke Skywalker")

            #expect(user.seen.withLock { $0.map(\.sendsDocument) } == [true, true])
            #expect(user.seen.withLock { $0.map(\.hash) } == [nil, nil])
            // The example server answers an unknown hash with 400, a request error: the wire end sees it.
            #expect(
                wire.seen.withLock { $0 } == [
                    .init(sendsDocument: false, hash: id, status: 400),
                    .init(sendsDocument: true, hash: id, status: 200),
                    .init(sendsDocument: false, hash: id, status: 200),
                ])
        }
    }
}
