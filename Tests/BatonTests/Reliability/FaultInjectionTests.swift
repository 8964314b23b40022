import BatonAPI
import BatonExampleAPI
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// A misbehaving server (``FaultServer``) never makes a request hang or crash: each fault gives a
/// typed error within the configured timeout, or the documented recovery.
@Suite("Fault injection over HTTP")
struct FaultInjectionTests {
    static let timeout: Duration = .seconds(3)
    /// How long past its timeout a failing request may take: generous, because a machine loaded
    /// with builds and the other suites can keep the test's tasks from running for many seconds.
    /// A hang would take forever.
    static let grace: Duration = .seconds(40)

    let query = HeroNameQuery(episode: .some(.case(.jedi)))
    static let heroBody = #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#
    static let ok = FaultServer.response(status: "200 OK", contentType: "application/json", body: heroBody)

    /// A client with the suite's short timeout, or, with a retry policy, a long one (those tests
    /// are about retries, and a loaded machine must not turn a slow attempt into another retry).
    private func client(
        _ server: FaultServer, _ kind: HTTPClientKind = .urlSession, retry: RetryPolicy? = nil, timeout: Duration? = nil
    ) -> BatonClient {
        BatonClient(
            url: server.url, httpClient: kind.make(), timeout: timeout ?? (retry == nil ? Self.timeout : .seconds(60)), retryPolicy: retry)
    }

    /// The error `body` throws, and how long it took.
    private func failure(_ body: () async throws -> Void) async -> (error: (any Error)?, elapsed: Duration) {
        let start = ContinuousClock.now
        do {
            try await body()
            return (nil, ContinuousClock.now - start)
        } catch {
            return (error, ContinuousClock.now - start)
        }
    }

    private func isTimeout(_ error: (any Error)?) -> Bool {
        if case .timedOut("HeroName", Self.timeout)? = error as? BatonError { return true }
        return false
    }

    // MARK: Faults

    /// Expects a fetch from a server running `script` to time out in time; returns the server,
    /// still running, for the caller to inspect and stop.
    private func expectTimeOut(over kind: HTTPClientKind, _ script: @escaping FaultServer.Script) async throws -> FaultServer {
        let server = try FaultServer(script: script)
        let client = client(server, kind)
        let (error, elapsed) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        #expect(isTimeout(error), "\(String(describing: error))")
        #expect(elapsed < Self.timeout + Self.grace)
        return server
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aServerThatNeverAnswersTimesOutAndTheConnectionIsClosed(kind: HTTPClientKind) async throws {
        let server = try await expectTimeOut(over: kind) { connection in
            guard connection.readRequest() != nil else { return }
            connection.record(connection.waitForClientClose(seconds: 30) ? "client closed" : "client stayed")
        }
        defer { server.stop() }
        // The abandoned request's connection is closed, not left open on the server.
        #expect(await eventually(timeout: .seconds(20)) { server.events == ["client closed"] })
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aBodyThatTricklesPastTheTimeoutTimesOut(kind: HTTPClientKind) async throws {
        let server = try await expectTimeOut(over: kind) { connection in
            guard connection.readRequest() != nil else { return }
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n") else { return }
            // A byte every 100 ms: never idle long enough for an idle timeout, never done.
            for _ in 0..<300 {
                guard connection.write(" ") else { return }
                connection.pause(0.1)
            }
        }
        server.stop()
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aResponseHeadWithoutItsBodyTimesOut(kind: HTTPClientKind) async throws {
        let server = try await expectTimeOut(over: kind) { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"data\":")
            _ = connection.waitForClientClose(seconds: 30)
        }
        server.stop()
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aConnectionResetMidBodyIsANetworkError(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"data\":{\"hero\":")
            connection.pause(0.1)
            connection.abort()
        }
        defer { server.stop() }
        let (error, elapsed) = await failure { _ = try await client(server, kind).fetch(query: query, cachePolicy: .networkOnly) }
        guard case .network("HeroName", _)? = error as? BatonError else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(elapsed < Self.timeout + Self.grace)
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aConnectionClosedBeforeAnyResponseIsANetworkError(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            _ = connection.readRequest()
        }
        defer { server.stop() }
        let (error, _) = await failure { _ = try await client(server, kind).fetch(query: query, cachePolicy: .networkOnly) }
        guard case .network("HeroName", _)? = error as? BatonError else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [("500 Internal Server Error", 500), ("502 Bad Gateway", 502), ("503 Service Unavailable", 503)])
    func htmlErrorPagesAreHTTPStatusErrors(status: String, code: Int) async throws {
        let page = "<html><head><title>\(status)</title></head><body><h1>\(status)</h1></body></html>"
        let server = try FaultServer(response: FaultServer.response(status: status, contentType: "text/html; charset=utf-8", body: page))
        defer { server.stop() }
        let (error, _) = await failure { _ = try await client(server).fetch(query: query, cachePolicy: .networkOnly) }
        guard case .httpStatus("HeroName", code, let contentType?, let excerpt, let errors)? = error as? BatonError else {
            Issue.record("expected an HTTP status error, got \(String(describing: error))")
            return
        }
        #expect(contentType.hasPrefix("text/html"))
        #expect(excerpt.contains(status))
        #expect(errors.isEmpty)
    }

    @Test(arguments: ["text/plain", "text/html", "application/octet-stream"])
    func aGraphQLBodyWithTheWrongContentTypeIsRefused(contentType: String) async throws {
        let server = try FaultServer(response: FaultServer.response(status: "200 OK", contentType: contentType, body: Self.heroBody))
        defer { server.stop() }
        let (error, _) = await failure { _ = try await client(server).fetch(query: query, cachePolicy: .networkOnly) }
        guard case .httpStatus("HeroName", 200, contentType?, _, _)? = error as? BatonError else {
            Issue.record("expected an HTTP status error, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func anIncrementalResponseThatStallsAfterItsFirstPartTimesOut(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Type: multipart/mixed; boundary=\"-\"\r\nConnection: close\r\n\r\n"
                    + "\r\n---\r\ncontent-type: application/json\r\n\r\n"
                    + #"{"data":{"hero":{"__typename":"Human","id":"1000","name":"Luke Skywalker"}},"hasNext":true}"#
                    + "\r\n---\r\n")
            _ = connection.waitForClientClose(seconds: 30)
        }
        defer { server.stop() }
        let client = client(server, kind)
        var received = 0
        let (error, elapsed) = await failure {
            for try await _ in client.fetchResults(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly) {
                received += 1
            }
        }
        guard case .timedOut("HeroDeferred", Self.timeout)? = error as? BatonError else {
            Issue.record("expected a time-out, got \(String(describing: error))")
            return
        }
        #expect(received == 1)
        #expect(elapsed < Self.timeout + Self.grace)
    }

    @Test func aRestartedServerIsReachedAgain() async throws {
        let server = try FaultServer(response: Self.ok)
        defer { server.stop() }
        // A refused connection fails at once; the time-out is long so that a loaded machine (a
        // full run beside a build took 3 s to deliver the refusal) cannot turn it into one.
        let client = client(server, timeout: .seconds(60))
        #expect(try await client.fetch(query: query, cachePolicy: .networkOnly).data?.hero?.name == "R2-D2")
        server.stop()
        let (error, _) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .network? = error as? BatonError else {
            Issue.record("expected a network error while the server is down, got \(String(describing: error))")
            return
        }
        try server.restart()
        #expect(try await client.fetch(query: query, cachePolicy: .networkOnly).data?.hero?.name == "R2-D2")
    }

    // MARK: Retries

    /// A server answering the first `failures` requests with `failure`, the others with `success`.
    private func flakyServer(failures: Int, failure: String, success: String = Self.ok) throws -> FaultServer {
        let answered = Locked(0)
        return try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            let number = answered.withLock { count -> Int in
                count += 1
                return count
            }
            if number <= failures {
                if failure.isEmpty { connection.abort() } else { connection.write(failure) }
            } else {
                connection.write(success)
            }
        }
    }

    static let unavailable = FaultServer.response(
        status: "503 Service Unavailable", contentType: "text/html", body: "<h1>down</h1>", headers: ["Retry-After: 0"])
    static let quickRetries = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(20), maxDelay: .milliseconds(200))

    @Test(arguments: HTTPClientKind.allCases)
    func queriesAreRetriedAfter503sUntilTheyWork(kind: HTTPClientKind) async throws {
        let server = try flakyServer(failures: 2, failure: Self.unavailable)
        defer { server.stop() }
        let result = try await client(server, kind, retry: Self.quickRetries).fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
        #expect(server.requests.count == 3)
    }

    @Test(arguments: HTTPClientKind.allCases)
    func queriesAreRetriedAfterTheConnectionDrops(kind: HTTPClientKind) async throws {
        let server = try flakyServer(failures: 1, failure: "")
        defer { server.stop() }
        let result = try await client(server, kind, retry: Self.quickRetries).fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
        #expect(server.requests.count == 2)
    }

    @Test func aQueryWaitsOutAServerRestart() async throws {
        let server = try FaultServer(response: Self.ok)
        defer { server.stop() }
        server.stop()
        let policy = RetryPolicy(maxAttempts: 8, initialDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0)
        let client = client(server, retry: policy)
        let fetch = Task { try await client.fetch(query: query, cachePolicy: .networkOnly) }
        try await Task.sleep(for: .milliseconds(400))
        try server.restart()
        #expect(try await fetch.value.data?.hero?.name == "R2-D2")
    }

    @Test func retriesStopAfterTheirAttempts() async throws {
        let server = try flakyServer(failures: .max, failure: Self.unavailable)
        defer { server.stop() }
        let (error, _) = await failure {
            _ = try await client(server, retry: Self.quickRetries).fetch(query: query, cachePolicy: .networkOnly)
        }
        guard case .httpStatus(_, 503, _, _, _)? = error as? BatonError else {
            Issue.record("expected the last 503, got \(String(describing: error))")
            return
        }
        #expect(server.requests.count == 3)
    }

    @Test func mutationsAreNotRetriedUnlessAsked() async throws {
        let server = try flakyServer(failures: .max, failure: Self.unavailable)
        defer { server.stop() }
        _ = await failure { _ = try await client(server, retry: Self.quickRetries).perform(mutation: UpvotePostMutation(postId: 1)) }
        #expect(server.requests.count == 1)

        var asked = Self.quickRetries
        asked.retriesMutations = true
        _ = await failure { _ = try await client(server, retry: asked).perform(mutation: UpvotePostMutation(postId: 1)) }
        #expect(server.requests.count == 4)
    }

    @Test func graphQLErrorsAndBadBodiesAreAnswersNotRetried() async throws {
        let errors = FaultServer.response(status: "200 OK", contentType: "application/json", body: #"{"errors":[{"message":"no"}]}"#)
        let server = try FaultServer(response: errors)
        defer { server.stop() }
        let result = try await client(server, retry: Self.quickRetries).fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.errors?.map(\.message) == ["no"])
        #expect(server.requests.count == 1)

        let garbled = try FaultServer(response: FaultServer.response(status: "200 OK", contentType: "application/json", body: "{"))
        defer { garbled.stop() }
        _ = await failure { _ = try await client(garbled, retry: Self.quickRetries).fetch(query: query, cachePolicy: .networkOnly) }
        #expect(garbled.requests.count == 1)
    }

    @Test func retryAfterIsHonoured() async throws {
        let later = FaultServer.response(status: "429 Too Many Requests", contentType: "text/plain", body: "slow down", headers: ["Retry-After: 1"])
        let server = try flakyServer(failures: 1, failure: later)
        defer { server.stop() }
        let start = ContinuousClock.now
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(20), maxDelay: .seconds(5))
        let result = try await client(server, retry: policy).fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
        #expect(ContinuousClock.now - start >= .milliseconds(950))
    }

    @Test func cancellingAQueryWaitingToRetryEndsItAtOnce() async throws {
        let wait = FaultServer.response(status: "503 Service Unavailable", contentType: "text/plain", body: "", headers: ["Retry-After: 300"])
        let server = try flakyServer(failures: .max, failure: wait)
        defer { server.stop() }
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(300), maxDelay: .seconds(300))
        let client = client(server, retry: policy)
        let fetch = Task { try await client.fetch(query: query, cachePolicy: .networkOnly) }
        #expect(await eventually(timeout: .seconds(20)) { server.requests.count == 1 })
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        fetch.cancel()
        let (error, _) = await failure { _ = try await fetch.value }
        #expect(error is CancellationError, "\(String(describing: error))")
        // Waiting out the retry would take five minutes; at once is far less, even on a loaded machine.
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(server.requests.count == 1)
    }

    @Test func backoffGrowsToItsLimit() {
        let policy = RetryPolicy(maxAttempts: 10, initialDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0)
        #expect(policy.delay(beforeAttempt: 2) == .milliseconds(100))
        #expect(policy.delay(beforeAttempt: 3) == .milliseconds(200))
        #expect(policy.delay(beforeAttempt: 5) == .milliseconds(800))
        #expect(policy.delay(beforeAttempt: 9) == .seconds(1))
        #expect(policy.retries(.query) && !policy.retries(.mutation))
        #expect(!RetryPolicy.never.retries(.query))
    }
}
