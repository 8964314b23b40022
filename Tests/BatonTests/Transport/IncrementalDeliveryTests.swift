import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// `@defer` and `@stream` end to end: the example server sends real separate `multipart/mixed`
/// parts in either format, the client reads them as they arrive, emits each partial result and
/// normalizes it; a cut-off response is a typed error.
@Suite("Incremental delivery")
struct IncrementalDeliveryTests {
    struct Case: Sendable, CustomStringConvertible {
        let kind: HTTPClientKind
        let format: IncrementalDeliveryFormat
        var description: String { "\(kind.rawValue), \(format)" }
    }

    static let cases: [Case] = HTTPClientKind.allCases.flatMap { kind in
        IncrementalDeliveryFormat.allCases.map { Case(kind: kind, format: $0) }
    }

    private func client(_ server: RunningExampleServer, _ testCase: Case, recorder: RecordingHTTPClient? = nil) -> BatonClient {
        BatonClient(
            networkTransport: RequestChainNetworkTransport(
                url: server.url, httpClient: recorder ?? testCase.kind.make(), incrementalDeliveryFormats: [testCase.format]))
    }

    @Test(arguments: cases)
    func deferredFragmentsArriveInLaterParts(testCase: Case) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(testCase.kind)
            let client = client(server, testCase, recorder: recorder)
            var results: [GraphQLResult<HeroDeferredQuery.Data>] = []
            var arrivals: [ContinuousClock.Instant] = []
            for try await result in client.fetchResults(query: HeroDeferredQuery(episode: .some(.case(.empire))), cachePolicy: .networkOnly) {
                results.append(result)
                arrivals.append(.now)
            }
            #expect(recorder.requests.first?.headerFields[.accept]?.hasPrefix(testCase.format.acceptRange) == true)

            // The initial part, then one part per deferred fragment.
            try #require(results.count == 3)
            let first = try #require(results[0].data?.hero)
            #expect(first.name == "Luke Skywalker")
            #expect(first.deferred == nil)  // not arrived yet: nil, not a decoding failure
            #expect(first.friends == nil)
            #expect(first.fragments.heroAppearances == nil)
            let last = try #require(results[2].data?.hero)
            #expect(last.deferred?.friends?.compactMap { $0?.name } == ["Han Solo", "Leia Organa", "C-3PO", "R2-D2"])
            #expect(last.fragments.heroAppearances?.appearsIn.compactMap { $0?.rawValue } == ["NEWHOPE", "EMPIRE", "JEDI"])
            // The parts were read as they arrived, not after the whole body.
            #expect(arrivals[2] - arrivals[0] >= .milliseconds(40))

            // Each part was normalized: the store answers the whole query.
            let cached = try await client.fetch(query: HeroDeferredQuery(episode: .some(.case(.empire))), cachePolicy: .returnCacheDataDontFetch)
            #expect(cached.data == results[2].data)
        }
    }

    @Test(arguments: cases)
    func streamedListItemsArriveOneByOne(testCase: Case) async throws {
        try await withExampleServer { server in
            let client = client(server, testCase)
            var counts: [Int] = []
            var hasNexts: [Bool] = []
            for try await response in client.networkTransport.responses(for: HeroFriendsStreamedQuery(episode: .some(.case(.empire)))) {
                hasNexts.append(response.hasNext)
                let data = try #require(try response.result(for: HeroFriendsStreamedQuery(episode: .some(.case(.empire)))).data)
                counts.append(data.hero?.friends?.count ?? -1)
            }
            #expect(counts.first == 1)
            #expect(counts.last == 4)
            #expect(counts == counts.sorted())
            #expect(hasNexts.last == false)
            #expect(hasNexts.dropLast().allSatisfy { $0 })

            // `fetch` returns the final, merged result.
            let final = try await client.fetch(query: HeroFriendsStreamedQuery(episode: .some(.case(.empire))), cachePolicy: .networkOnly)
            #expect(final.data?.hero?.friends?.compactMap { $0?.name } == ["Han Solo", "Leia Organa", "C-3PO", "R2-D2"])
        }
    }

    /// A server that does not do incremental delivery answers with one JSON body: one result.
    @Test func plainResponseToADeferredQuery() async throws {
        let body = #"{"data":{"hero":{"__typename":"Human","id":"1000","name":"Luke Skywalker","friends":[],"appearsIn":["JEDI"]}}}"#
        let server = try CannedHTTPServer(
            response: CannedHTTPServer.response(status: "200 OK", contentType: "application/json", body: body))
        defer { server.stop() }
        let client = BatonClient(url: server.url, timeout: .seconds(10))
        var results: [GraphQLResult<HeroDeferredQuery.Data>] = []
        for try await result in client.fetchResults(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly) {
            results.append(result)
        }
        #expect(results.count == 1)
        #expect(results.first?.data?.hero?.fragments.heroAppearances?.appearsIn.count == 1)
    }

    private func multipartResponse(_ body: String, contentLength: Int? = nil) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: multipart/mixed; boundary=\"-\"; deferSpec=20220824\r\n"
            + "Content-Length: \(contentLength ?? body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    }

    private let firstPart = "\r\n---\r\ncontent-type: application/json\r\n\r\n"
        + #"{"data":{"hero":{"__typename":"Human","id":"1000","name":"Luke Skywalker"}},"hasNext":true}"#

    @Test func truncatedPartIsATypedError() async throws {
        let cut = firstPart + "\r\n---\r\ncontent-type: application/json\r\n\r\n" + #"{"incremental":[{"path":["hero"],"da"#
        let server = try CannedHTTPServer(response: multipartResponse(cut))
        defer { server.stop() }
        let client = BatonClient(url: server.url, timeout: .seconds(10))
        var received = 0
        await #expect {
            for try await _ in client.fetchResults(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly) {
                received += 1
            }
        } throws: { error in
            guard case .incompleteResponse("HeroDeferred", let reason)? = error as? BatonError else { return false }
            return reason.contains("middle of part 2")
        }
        #expect(received == 1)  // the initial part was delivered before the failure
    }

    @Test func bodyEndingBeforeTheLastPartIsATypedError() async throws {
        let server = try CannedHTTPServer(response: multipartResponse(firstPart + "\r\n---\r\n"))
        defer { server.stop() }
        await #expect {
            try await BatonClient(url: server.url, timeout: .seconds(10)).fetch(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly)
        } throws: { error in
            guard case .incompleteResponse(_, let reason)? = error as? BatonError else { return false }
            return reason.contains("more would follow")
        }
    }

    @Test func malformedPartIsATypedError() async throws {
        let body = "\r\n---\r\ncontent-type: application/json\r\n\r\n{\"data\":{\"hero\":\r\n-----\r\n"
        let server = try CannedHTTPServer(response: multipartResponse(body))
        defer { server.stop() }
        await #expect {
            try await BatonClient(url: server.url, timeout: .seconds(10)).fetch(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly)
        } throws: { error in
            guard case .malformedResponse? = error as? BatonError else { return false }
            return true
        }
    }
}
