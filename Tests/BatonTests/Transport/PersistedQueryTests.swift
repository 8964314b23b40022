import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// Automatic persisted queries and the persisted-only mode, against the example server: how
/// many requests go out and what each carries.
@Suite("Persisted queries")
struct PersistedQueryTests {
    let query = HeroNameQuery(episode: .some(.case(.empire)))

    private func persistedQuery(of sent: RecordingHTTPClient.Sent) -> [String: Any]? {
        if sent.method == .get {
            let extensions = sent.queryParameters["extensions"].flatMap { Data($0.utf8) }
            let object = extensions.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            return object?["persistedQuery"] as? [String: Any]
        }
        return (sent.bodyJSON?["extensions"] as? [String: Any])?["persistedQuery"] as? [String: Any]
    }

    private func sendsDocument(_ sent: RecordingHTTPClient.Sent) -> Bool {
        sent.method == .get ? sent.queryParameters["query"] != nil : sent.bodyJSON?["query"] != nil
    }

    @Test(arguments: HTTPClientKind.allCases)
    func hashFirstThenDocumentThenHashOnly(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: server.url, httpClient: recorder, autoPersistQueries: true)
            let first = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(first.data?.hero?.name == "Luke Skywalker")
            // The server did not know the hash: the hash alone, then the hash with the document.
            let requests = recorder.requests
            #expect(requests.count == 2)
            #expect(requests.map(\.method) == [.post, .post])
            #expect(requests.map(sendsDocument) == [false, true])
            for sent in requests {
                let persisted = try #require(persistedQuery(of: sent))
                #expect(persisted["version"] as? Int == 1)
                #expect(persisted["sha256Hash"] as? String == HeroNameQuery.operationIdentifier)
            }

            // Now it does: one request, the hash alone.
            let second = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(second.data?.hero?.name == "Luke Skywalker")
            #expect(recorder.requests.count == 3)
            #expect(recorder.requests.last.map(sendsDocument) == false)
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func getForHashedQueriesAndPOSTForTheRetry(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: server.url, httpClient: recorder, useGETForQueries: true, autoPersistQueries: true)
            let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(result.data?.hero?.name == "Luke Skywalker")
            #expect(recorder.requests.map(\.method) == [.get, .post])
            #expect(recorder.requests.map(sendsDocument) == [false, true])
            _ = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(recorder.requests.map(\.method) == [.get, .post, .get])
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func retryByGETWhenAsked(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(
                url: server.url, httpClient: recorder, useGETForQueries: true, autoPersistQueries: true,
                useGETForPersistedQueryRetry: true)
            let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(result.data?.hero?.name == "Luke Skywalker")
            #expect(recorder.requests.map(\.method) == [.get, .get])
            #expect(recorder.requests.map(sendsDocument) == [false, true])
            #expect(recorder.requests.last?.queryParameters["query"] == HeroNameQuery.operationDocument)
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func mutationsArePersistedByPOST(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(
                url: server.url, httpClient: recorder, useGETForQueries: true, autoPersistQueries: true,
                useGETForPersistedQueryRetry: true)
            _ = try await client.perform(mutation: UpvotePostMutation(postId: 2))
            _ = try await client.perform(mutation: UpvotePostMutation(postId: 2))
            #expect(recorder.requests.map(\.method) == [.post, .post, .post])
            #expect(recorder.requests.map(sendsDocument) == [false, true, false])
        }
    }

    /// A document sent with a hash that is not its SHA-256 is refused, and not registered.
    @Test func serverChecksTheHash() async throws {
        try await withExampleServer { server in
            let wrongHash = String(repeating: "0", count: 64)
            let body: [String: Any] = [
                "query": HeroNameQuery.operationDocument,
                "extensions": ["persistedQuery": ["version": 1, "sha256Hash": wrongHash]],
            ]
            let response = try await server.httpSend(
                method: "POST", body: try JSONSerialization.data(withJSONObject: body),
                headers: ["Content-Type": "application/json", "Accept": "application/json"])
            #expect(response.errorMessages == ["provided sha does not match query"])
            let hashOnly: [String: Any] = ["extensions": ["persistedQuery": ["version": 1, "sha256Hash": wrongHash]]]
            let second = try await server.httpSend(
                method: "POST", body: try JSONSerialization.data(withJSONObject: hashOnly),
                headers: ["Content-Type": "application/json", "Accept": "application/json"])
            #expect(second.errorMessages == ["PersistedQueryNotFound"])
            #expect((second.errors.first?["extensions"] as? [String: Any])?["code"] as? String == "PERSISTED_QUERY_NOT_FOUND")
        }
    }

    /// The codegen's manifest format, for the operations given.
    private func manifest(_ operations: [(name: String, id: String, body: String)]) -> Data {
        let entries = operations.map { ["id": $0.id, "name": $0.name, "type": "query", "body": $0.body] }
        let json: [String: Any] = ["format": "apollo-persisted-query-manifest", "version": 1, "operations": entries]
        return (try? JSONSerialization.data(withJSONObject: json)) ?? Data()
    }

    @Test(arguments: HTTPClientKind.allCases)
    func persistedOnlySendsIdsOnly(kind: HTTPClientKind) async throws {
        let store = try PersistedQueryStore(
            manifest: manifest([("HeroName", HeroNameQuery.operationIdentifier, HeroNameQuery.operationDocument)]))
        try await withExampleServer(persistedQueries: store) { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: server.url, httpClient: recorder, persistedQueriesOnly: true)
            let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
            #expect(result.data?.hero?.name == "Luke Skywalker")
            #expect(recorder.requests.count == 1)
            #expect(recorder.requests.map(sendsDocument) == [false])

            // An operation missing from the manifest: a typed error, and no document is ever sent.
            await #expect {
                try await client.fetch(query: SearchQuery(text: .some("luke")), cachePolicy: .networkOnly)
            } throws: { error in
                guard case .persistedQueryNotFound("Search", let id)? = error as? BatonError else { return false }
                return id == SearchQuery.operationIdentifier
            }
            #expect(recorder.requests.count == 2)
            #expect(recorder.requests.map(sendsDocument) == [false, false])

            // A client sending documents is refused.
            let plain = try await BatonClient(url: server.url).fetch(query: SearchQuery(text: .some("luke")), cachePolicy: .networkOnly)
            #expect(plain.data == nil)
            #expect(plain.errors?.first?.message.hasPrefix("PersistedQueryNotAllowed") == true)
        }
    }

    @Test func manifestWithAWrongIdIsRefused() {
        #expect(throws: PersistedQueryStoreError.self) {
            try PersistedQueryStore(manifest: manifest([("HeroName", String(repeating: "a", count: 64), HeroNameQuery.operationDocument)]))
        }
    }

    /// `PersistedQueryNotFound` is recognized by its code or by its message alone.
    @Test func notFoundByCodeOrMessage() {
        func result(_ body: String) -> HTTPResult {
            HTTPResult(response: HTTPResponse(status: .ok), body: Data(body.utf8))
        }
        #expect(PersistedQueryInterceptor.persistedQueryProblem(in: result(#"{"errors":[{"message":"PersistedQueryNotFound"}]}"#)) == .notFound)
        #expect(
            PersistedQueryInterceptor.persistedQueryProblem(
                in: result(#"{"errors":[{"message":"not found","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)) == .notFound)
        #expect(
            PersistedQueryInterceptor.persistedQueryProblem(in: result(#"{"errors":[{"message":"PersistedQueryNotSupported"}]}"#))
                == .notSupported)
        #expect(PersistedQueryInterceptor.persistedQueryProblem(in: result(#"{"data":{"hero":null}}"#)) == nil)
        #expect(PersistedQueryInterceptor.persistedQueryProblem(in: result("not json")) == nil)
    }
}
