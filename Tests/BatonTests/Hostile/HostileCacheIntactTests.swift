import BatonAPI
import BatonExampleAPI
import BatonStore
import Foundation
import Testing

@testable import Baton

/// Issue 30: "the store's cache stays intact in every case (a failed response writes nothing)".
/// Each case fills a store with a good answer to the query first, then asks a misbehaving server
/// of our own (``FaultServer``, raw sockets on 127.0.0.1) the same query over each HTTP client:
/// the fetch fails with a typed error, the store holds exactly what it held (its records, equal
/// as a whole), and a watcher of the query hears nothing.
///
/// An incremental (`@defer`) response is the one kind whose earlier parts are written as they
/// arrive, each a whole response of its own (as Apollo iOS and Relay write them); a failure
/// after them writes nothing more. The deferred case here fails in its first part.
@Suite("Hostile servers leave the cache intact")
struct HostileCacheIntactTests {
    static let heroBody = #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#

    /// A way for a server to answer the hero query wrongly.
    enum Misbehaviour: String, CaseIterable, Sendable {
        case contentLengthOverTheLimit
        case bodyOverTheLimit
        case trickleUntilTheDeadline
        case closedMidBody
        case truncatedJSON
        case invalidUTF8
        case nestedTooDeep
        case wrongShape
        case nullDataWithoutErrors
        case errorPathTooLong
        case htmlServerError
        case endlessRedirects
        case redirectToAnotherOrigin
        case deferredPartOverTheLimit

        /// What the server writes after reading the request (`redirect` is another origin's URL).
        func script(redirect: URL) -> FaultServer.Script {
            { connection in
                guard connection.readRequest() != nil else { return }
                let json = "application/json"
                switch self {
                case .contentLengthOverTheLimit:
                    connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 900000000\r\n\r\n{\"data\":")
                case .bodyOverTheLimit:
                    guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
                    else { return }
                    connection.write(#"{"data":{"hero":{"__typename":"Droid","name":""# + String(repeating: "x", count: 300_000) + #""}}}"#)
                case .trickleUntilTheDeadline:
                    guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
                    else { return }
                    for _ in 0..<200 {
                        guard connection.write(" ") else { return }
                        connection.pause(0.1)
                    }
                case .closedMidBody:
                    connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"data\":{\"hero\":")
                case .truncatedJSON:
                    connection.write(FaultServer.response(status: "200 OK", contentType: json, body: #"{"data":{"hero":{"__typename":"Droid","name":"R2"#))
                case .invalidUTF8:
                    let body: [UInt8] = Array(#"{"data":{"hero":{"__typename":"Droid","name":""#.utf8) + [0xFF, 0xFE] + Array(#""}}}"#.utf8)
                    guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
                    else { return }
                    connection.write(body)
                case .nestedTooDeep:
                    let body = #"{"data":{"hero":"# + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}}"
                    connection.write(FaultServer.response(status: "200 OK", contentType: json, body: body))
                case .wrongShape:
                    connection.write(FaultServer.response(status: "200 OK", contentType: json, body: #"{"data":{"hero":{"__typename":"Droid","name":42}}}"#))
                case .nullDataWithoutErrors:
                    connection.write(FaultServer.response(status: "200 OK", contentType: json, body: #"{"data":null}"#))
                case .errorPathTooLong:
                    let path = "\"hero\"" + String(repeating: ",\"f\"", count: 5_000)
                    let body = #"{"data":{"hero":null},"errors":[{"message":"deep","path":["# + path + "]}]}"
                    connection.write(FaultServer.response(status: "200 OK", contentType: json, body: body))
                case .htmlServerError:
                    connection.write(
                        FaultServer.response(status: "500 Internal Server Error", contentType: "text/html", body: "<html><body>Bad gateway</body></html>"))
                case .endlessRedirects:
                    connection.write("HTTP/1.1 307 Temporary Redirect\r\nLocation: /graphql\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                case .redirectToAnotherOrigin:
                    // A POST may follow a 307 only to its own origin.
                    connection.write(
                        "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(redirect.absoluteString)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                case .deferredPartOverTheLimit:
                    guard
                        connection.write(
                            "HTTP/1.1 200 OK\r\nContent-Type: multipart/mixed; boundary=\"-\"\r\nConnection: close\r\n\r\n"
                                + "\r\n---\r\ncontent-type: application/json\r\n\r\n{\"data\":{\"hero\":{\"__typename\":\"Human\",\"id\":\"1000\",\"name\":\"")
                    else { return }
                    connection.write(String(repeating: "x", count: 300_000))
                }
            }
        }
    }

    /// The limits the misbehaving server meets: small, so that the cases stay small.
    static let limits = ResponseLimits(
        maxResponseBytes: 100_000, maxPartBytes: 100_000, maxErrorPathLength: 1_024, operationTimeout: .seconds(3), maxRedirects: 3)

    @Test(arguments: HTTPClientKind.allCases, Misbehaviour.allCases)
    func aFailedResponseWritesNothing(kind: HTTPClientKind, misbehaviour: Misbehaviour) async throws {
        let good = try FaultServer(response: FaultServer.response(status: "200 OK", contentType: "application/json", body: Self.heroBody))
        defer { good.stop() }
        let otherOrigin = try FaultServer(response: FaultServer.response(status: "200 OK", contentType: "application/json", body: Self.heroBody))
        defer { otherOrigin.stop() }
        let hostile = try FaultServer(script: misbehaviour.script(redirect: otherOrigin.url))
        defer { hostile.stop() }

        let store = Store()
        let query = HeroNameQuery(episode: .some(.case(.jedi)))
        let filled = try await BatonClient(url: good.url, store: store, httpClient: kind.make()).fetch(query: query, cachePolicy: .networkOnly)
        #expect(filled.data?.hero?.name == "R2-D2")
        let before = store.snapshot()
        let notified = Locked(0)
        let watcher = store.subscribe(OperationDescriptor(operation: query)) { _ in notified.withLock { $0 += 1 } }
        defer { watcher.subscription.cancel() }

        let client = BatonClient(url: hostile.url, store: store, httpClient: kind.make(), limits: Self.limits)
        let start = ContinuousClock.now
        var failure: (any Error)?
        do {
            if misbehaviour == .deferredPartOverTheLimit {
                for try await _ in client.fetchResults(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly) {}
            } else {
                _ = try await client.fetch(query: query, cachePolicy: .networkOnly)
            }
        } catch {
            failure = error
        }
        let elapsed = ContinuousClock.now - start
        let error = try #require(failure, "\(misbehaviour) over \(kind): the fetch succeeded")
        #expect(error is BatonError, "\(misbehaviour) over \(kind): \(type(of: error)): \(error)")
        #expect(elapsed < .seconds(60), "\(misbehaviour) over \(kind) took \(elapsed)")
        #expect(store.snapshot() == before, "\(misbehaviour) over \(kind) changed the store")
        #expect(notified.withLock { $0 } == 0, "\(misbehaviour) over \(kind) notified a watcher")
        #expect(otherOrigin.requests.isEmpty, "\(misbehaviour) over \(kind) reached another origin")
    }
}
