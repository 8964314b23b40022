import BatonAPI
import BatonExampleAPI
import BatonTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// Issue 30, the HTTP level: a server that sends too much, too slowly or to the wrong place gets
/// a bounded, typed outcome from both HTTP clients (``FaultServer``: raw sockets on 127.0.0.1).
/// Where the old behaviour was unbounded memory, the client runs in a process of its own
/// (`baton-hostile-client`) and its peak resident memory is bounded.
@Suite("Hostile HTTP server")
struct HostileHTTPTests {
    let query = HeroNameQuery(episode: .some(.case(.jedi)))
    static let heroBody = #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#
    /// How long past a deadline a failing request may take on a machine loaded with builds and
    /// the rest of the suite (23 s was seen under that load; the failures these tests guard
    /// against never end at all).
    static let grace: Duration = .seconds(60)

    private func failure(_ body: () async throws -> Void) async -> (error: (any Error)?, elapsed: Duration) {
        let start = ContinuousClock.now
        do {
            try await body()
            return (nil, ContinuousClock.now - start)
        } catch {
            return (error, ContinuousClock.now - start)
        }
    }

    /// A body of `total` bytes (or until the client goes), without a `Content-Length`, written
    /// in 64 KiB pieces as fast as the client reads them: nothing of it is held in memory.
    static func endlessBody(total: Int = 512 << 20) -> FaultServer.Script {
        { connection in
            guard connection.readRequest() != nil else { return }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
            guard connection.write(head + "\r\n" + #"{"data":{"hero":{"__typename":"Droid","name":""#) else { return }
            let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
            var sent = 0
            while sent < total, connection.write(piece) { sent += piece.count }
            connection.record("sent \(sent)")
        }
    }

    // MARK: Item 1: size

    @Test(arguments: HTTPClientKind.allCases)
    func aContentLengthOverTheLimitIsRefusedBeforeTheBody(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 536870912\r\n\r\n{\"data\":")
            // No more of the body comes: a client that waited for it would time out, and one that
            // counted it would never reach the limit; only the announced length can fail it.
            connection.record(connection.waitForClientClose(seconds: 40) ? "closed" : "kept open")
        }
        defer { server.stop() }
        let client = BatonClient(url: server.url, httpClient: kind.make(), limits: ResponseLimits(maxResponseBytes: 1 << 20, operationTimeout: .seconds(30)))
        let (error, elapsed) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .responseTooLarge("HeroName", 1 << 20)? = error as? BatonError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(elapsed < Self.grace)
    }

    // MARK: Item 2: inflation

    /// A gzip body of `mebibytes` MiB of spaces, ~1 KB per MiB: Python's zlib compresses one
    /// MiB after a full flush (which resets its window, so every such MiB compresses to the same
    /// bytes), and that is repeated, with the CRC and length of the whole: under a second.
    static func gzipBomb(mebibytes: Int) async throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gzip-bomb-v2-\(mebibytes).gz")
        if let data = try? Data(contentsOf: file), !data.isEmpty { return [UInt8](data) }
        let script = """
            import sys, zlib, struct
            n = int(sys.argv[2])
            block = b' ' * (1 << 20)
            z = zlib.compressobj(9, zlib.DEFLATED, -15)
            first = z.compress(block) + z.flush(zlib.Z_FULL_FLUSH)
            second = z.compress(block) + z.flush(zlib.Z_FULL_FLUSH)
            assert second == z.compress(block) + z.flush(zlib.Z_FULL_FLUSH)
            crc = 0
            for _ in range(n): crc = zlib.crc32(block, crc)
            with open(sys.argv[1] + '.tmp', 'wb') as out:
                out.write(b'\\x1f\\x8b\\x08\\x00\\x00\\x00\\x00\\x00\\x00\\xff' + first)
                for _ in range(n - 1): out.write(second)
                out.write(z.flush() + struct.pack('<II', crc & 0xffffffff, (n << 20) & 0xffffffff))
            """
        let output = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path, String(mebibytes)])
        try #require(output.status == 0, "python3: \(output.stderr)")
        _ = try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(atPath: file.path + ".tmp", toPath: file.path)
        return [UInt8](try Data(contentsOf: file))
    }

    static func gzipScript(_ bomb: [UInt8]) -> FaultServer.Script {
        { connection in
            guard connection.readRequest() != nil else { return }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\nConnection: close\r\n\r\n"
            connection.write(head)
            connection.write(bomb)
        }
    }

    // MARK: Items 1 and 2: floods, read in a process of their own

    /// The `baton-hostile-client` executable built beside the tests.
    static func hostileClient() -> URL? {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("baton-hostile-client")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// How the client process's fetch ended.
    struct ClientRun {
        var outcome = ""
        var description = ""
        var cached = true
        var elapsed: Duration = .zero
        var peakKB = -1
        /// The longest wait of a 10 ms sleep in the client process while it read the response.
        var heartbeatGap: Duration = .seconds(3600)
    }

    /// The longest a task in the client process may wait for its 10 ms sleep while a flood is
    /// read and other requests start and stop beside it: generous for a loaded machine; the
    /// stall it guards against held every task for ~40 s.
    static let heartbeatBound: Duration = .seconds(10)

    /// Runs the client process against `server` with a 16 MiB limit. The floods of this suite
    /// are read there, never in the test runner: on Linux every URLSession in a process shares
    /// one work queue, and a flood read in the runner delayed every other test's requests by
    /// tens of seconds.
    /// With `addressSpaceLimit`, the process runs under that limit of its virtual memory
    /// (`prlimit --as`, util-linux): where the old client trapped in FoundationNetworking.
    private func runClientProcess(_ server: FaultServer, _ kind: HTTPClientKind, addressSpaceLimit: Int? = nil) async throws -> ClientRun {
        let executable = try #require(Self.hostileClient())
        let arguments = [String(server.port), kind.rawValue, String(16 << 20)]
        let output: ProcessOutput
        if let addressSpaceLimit {
            let prlimit = URL(fileURLWithPath: "/usr/bin/prlimit")
            try #require(FileManager.default.isExecutableFile(atPath: prlimit.path), "needs util-linux's prlimit")
            output = try await runProcess(prlimit, ["--as=\(addressSpaceLimit)", executable.path] + arguments)
        } else {
            output = try await runProcess(executable, arguments)
        }
        try #require(output.status == 0, "client exited \(output.status): \(output.stderr)")
        var run = ClientRun()
        for line in output.stdout.split(separator: "\n") {
            let (key, value) = line.firstIndex(of: ":").map { (line[..<$0], line[line.index($0, offsetBy: 2)...]) } ?? (line, "")
            switch key {
            case "outcome": run.outcome = String(value)
            case "description": run.description = String(value)
            case "cached": run.cached = value == "yes"
            case "elapsed-ms": run.elapsed = .milliseconds(Int(value) ?? Int.max / 1_000_000)
            case "vmhwm-kb": run.peakKB = Int(value) ?? -1
            case "heartbeat-gap-ms": run.heartbeatGap = .milliseconds(Int(value) ?? 3_600_000)
            default: break
            }
        }
        print("hostile client \(kind.rawValue): \(run.outcome); \(run.elapsed); peak RSS \(run.peakKB / 1024) MB; heartbeat gap \(run.heartbeatGap)")
        return run
    }

    /// 512 MB offered, 16 MiB allowed: the fetch ends with the typed error naming the limit, soon,
    /// nothing reaches the cache, and the client process's peak resident memory is a small
    /// multiple of the limit (it was 1,064 MB before).
    @Test(arguments: HTTPClientKind.allCases)
    func a512MBBodyStopsAtTheLimitAndKeepsTheClientProcessSmall(kind: HTTPClientKind) async throws {
        let server = try FaultServer(script: Self.endlessBody())
        defer { server.stop() }
        // Under 1 GiB of address space, less than the old client needed for this body (it trapped).
        let run = try await runClientProcess(server, kind, addressSpaceLimit: 1 << 30)
        #expect(run.outcome == "responseTooLarge \(16 << 20)")
        #expect(run.description.contains("ResponseLimits.maxResponseBytes (\(16 << 20) bytes)"), "\(run.description)")
        #expect(!run.cached)
        #expect(run.elapsed < Self.grace)
        #expect(run.heartbeatGap < Self.heartbeatBound, "a task waited \(run.heartbeatGap) for a 10 ms sleep")
        #expect(run.peakKB > 0 && run.peakKB < 160 * 1024, "peak RSS \(run.peakKB) kB")
    }

    /// A gzip body inflating to 1 GiB: bounded by its inflated size, and the client process
    /// stays small (it was 2,108 MB).
    @Test(arguments: HTTPClientKind.allCases)
    func aGzipBombIsBoundedByItsInflatedSizeAndKeepsTheClientProcessSmall(kind: HTTPClientKind) async throws {
        let bomb = try await Self.gzipBomb(mebibytes: 1024)
        #expect(bomb.count < 2 << 20)
        let server = try FaultServer(script: Self.gzipScript(bomb))
        defer { server.stop() }
        let run = try await runClientProcess(server, kind)
        if kind == .urlSession {
            #expect(run.outcome == "responseTooLarge \(16 << 20)")
        } else {
            // AsyncHTTPClient's shared client stops inflating at 25 times the compressed size,
            // which a bomb may reach before Baton's count does.
            #expect(run.outcome == "responseTooLarge \(16 << 20)" || run.outcome.contains("limit"), "\(run.outcome)")
        }
        #expect(!run.cached)
        #expect(run.elapsed < Self.grace)
        #expect(run.heartbeatGap < Self.heartbeatBound, "a task waited \(run.heartbeatGap) for a 10 ms sleep")
        #expect(run.peakKB > 0 && run.peakKB < 160 * 1024, "peak RSS \(run.peakKB) kB")
    }

    /// A header that never ends (curl and NIO's parser cap a header's size): a network error,
    /// soon, not memory growing with what the server sends.
    @Test(arguments: HTTPClientKind.allCases)
    func anEndlessHeaderFails(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: ") else { return }
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            var sent = 0
            while sent < 256 << 20, connection.write(piece) { sent += piece.count }
            connection.record("sent \(sent)")
        }
        defer { server.stop() }
        let run = try await runClientProcess(server, kind)
        #expect(run.outcome.hasPrefix("network "), "\(run.outcome)")
        #expect(run.elapsed < Self.grace)
        #expect(run.heartbeatGap < Self.heartbeatBound, "a task waited \(run.heartbeatGap) for a 10 ms sleep")
        #expect(run.peakKB > 0 && run.peakKB < 160 * 1024, "peak RSS \(run.peakKB) kB")
        let sent = server.events.first.flatMap { Int($0.dropFirst("sent ".count)) } ?? 0
        #expect(sent < 64 << 20, "the server got \(sent) bytes of header in")
    }

    // MARK: Items 6 and 7: time

    @Test func aDefaultClientHasAnOperationDeadline() throws {
        let client = BatonClient(url: URL(string: "http://127.0.0.1:1/graphql")!)
        let transport = try #require(client.networkTransport as? RequestChainNetworkTransport)
        #expect(transport.limits.operationTimeout == .seconds(60))
        #expect(transport.timeout == nil)
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aTricklingBodyEndsAtTheOperationDeadline(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n") else { return }
            for _ in 0..<600 {
                guard connection.write(" ") else { return }
                connection.pause(0.1)
            }
        }
        defer { server.stop() }
        // No per-attempt timeout (the default); only the operation's deadline.
        let client = BatonClient(url: server.url, httpClient: kind.make(), limits: ResponseLimits(operationTimeout: .seconds(2)))
        let (error, elapsed) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .timedOut("HeroName", .seconds(2))? = error as? BatonError else {
            Issue.record("expected a time-out, got \(String(describing: error))")
            return
        }
        #expect(elapsed >= .seconds(2))
        #expect(elapsed < .seconds(2) + Self.grace)
    }

    @Test(arguments: HTTPClientKind.allCases)
    func anIncrementalResponseThatNeverEndsEndsAtTheOperationDeadline(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            guard
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: multipart/mixed; boundary=\"-\"\r\nConnection: close\r\n\r\n"
                        + "\r\n---\r\ncontent-type: application/json\r\n\r\n"
                        + #"{"data":{"hero":{"__typename":"Human","id":"1000","name":"Luke Skywalker"}},"hasNext":true}"#
                        + "\r\n---")
            else { return }
            // An empty part every 0.3 s: always within the gap allowed between chunks.
            for _ in 0..<200 {
                connection.pause(0.3)
                guard connection.write("\r\ncontent-type: application/json\r\n\r\n{\"hasNext\":true}\r\n---") else { return }
            }
        }
        defer { server.stop() }
        let client = BatonClient(
            url: server.url, httpClient: kind.make(), timeout: .seconds(3), limits: ResponseLimits(operationTimeout: .seconds(15)))
        var received = 0
        let (error, elapsed) = await failure {
            for try await _ in client.fetchResults(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly) {
                received += 1
            }
        }
        guard case .timedOut("HeroDeferred", .seconds(15))? = error as? BatonError else {
            Issue.record("expected a time-out, got \(String(describing: error))")
            return
        }
        // The first part arrived long before the deadline, even under load. (It did not, twice:
        // with an 8 s deadline in a full `swift test` beside a debug build, and with 15 s under
        // scripts/test-under-load. In both the test had started in the suite's first wave, when
        // tests that computed without suspending held both threads of the test pool: under load
        // no test at all finished in the suite's first 19.5 s. Those tests now run on threads of
        // their own, `.ownThread`, and the first test finishes after about 3 s under load.)
        #expect(received >= 1)
        #expect(elapsed < .seconds(15) + Self.grace)
    }

    // MARK: Item 11: redirects

    /// Credentials and sensitive headers a request carries in the redirect tests.
    static let secretHeaders: HTTPFields = [
        .authorization: "Bearer secret-token",
        .cookie: "session=secret-cookie",
        HTTPField.Name("X-Api-Key")!: "secret-key",
        HTTPField.Name("X-Tenant-Secret")!: "secret-tenant",
    ]
    static let sensitive = SensitiveData(headerNames: ["X-Tenant-Secret"])

    /// A server that answers every request with the hero, recording it.
    private func targetServer() throws -> FaultServer {
        try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            connection.record("\(request.head)\r\n\r\n\(request.bodyText)")
            connection.write(FaultServer.response(status: "200 OK", contentType: "application/json", body: Self.heroBody))
        }
    }

    /// A server that redirects every request to `location` with `status`.
    private func redirectingServer(to location: URL, status: String = "307 Temporary Redirect") throws -> FaultServer {
        try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write(FaultServer.response(status: status, contentType: "text/plain", body: "moved", headers: ["Location: \(location.absoluteString)"]))
        }
    }

    static let redirectStatuses = ["307 Temporary Redirect", "308 Permanent Redirect"]

    /// A POST's body (the query and its variables) never goes to another origin: both clients
    /// refuse the redirect with a typed error, and nothing reaches the other origin.
    @Test(arguments: HTTPClientKind.allCases, Self.redirectStatuses)
    func aCrossOriginRedirectOfAPOSTFailsWithoutReachingTheOtherOrigin(kind: HTTPClientKind, status: String) async throws {
        let target = try targetServer()
        defer { target.stop() }
        let redirecting = try redirectingServer(to: target.url, status: status)
        defer { redirecting.stop() }
        let client = BatonClient(url: redirecting.url, headerFields: Self.secretHeaders, httpClient: kind.make(), sensitiveData: Self.sensitive)
        let (error, _) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .redirectRefused("HeroName", let code, let location, _)? = error as? BatonError else {
            Issue.record("expected redirectRefused, got \(String(describing: error))")
            return
        }
        #expect(code == Int(status.prefix(3)))
        #expect(location == target.url.absoluteString)
        #expect(target.events.isEmpty)
    }

    /// A 307 or 308 of a POST to its own origin is followed with its method, body and headers.
    @Test(arguments: HTTPClientKind.allCases, Self.redirectStatuses)
    func aSameOriginRedirectOfAPOSTKeepsItsMethodAndBody(kind: HTTPClientKind, status: String) async throws {
        let server = try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            if request.head.hasPrefix("POST /graphql ") {
                connection.write(FaultServer.response(status: status, contentType: "text/plain", body: "moved", headers: ["Location: /moved"]))
            } else {
                connection.record("\(request.head)\r\n\r\n\(request.bodyText)")
                connection.write(FaultServer.response(status: "200 OK", contentType: "application/json", body: Self.heroBody))
            }
        }
        defer { server.stop() }
        let client = BatonClient(url: server.url, headerFields: Self.secretHeaders, httpClient: kind.make())
        let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
        let sent = try #require(server.events.first)
        #expect(sent.hasPrefix("POST /moved "))
        #expect(sent.contains("HeroName"))
        #expect(sent.contains("secret-token"))
    }

    /// A 302 (or 301, 303) would turn a POST into a GET without its body: refused.
    @Test(arguments: HTTPClientKind.allCases)
    func aFoundRedirectOfAPOSTIsRefused(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            connection.record(request.head)
            connection.write(FaultServer.response(status: "302 Found", contentType: "text/plain", body: "moved", headers: ["Location: /moved"]))
        }
        defer { server.stop() }
        let client = BatonClient(url: server.url, httpClient: kind.make())
        let (error, _) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .redirectRefused("HeroName", 302, _, _)? = error as? BatonError else {
            Issue.record("expected redirectRefused, got \(String(describing: error))")
            return
        }
        #expect(server.events.count == 1)
    }

    @Test(arguments: HTTPClientKind.allCases, Self.redirectStatuses)
    func aCrossOriginRedirectOfAGETDropsCredentials(kind: HTTPClientKind, status: String) async throws {
        let target = try targetServer()
        defer { target.stop() }
        let redirecting = try redirectingServer(to: target.url, status: status)
        defer { redirecting.stop() }
        let client = BatonClient(
            url: redirecting.url, headerFields: Self.secretHeaders, httpClient: kind.make(), useGETForQueries: true,
            sensitiveData: Self.sensitive)
        let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
        let sent = try #require(target.events.first)
        #expect(sent.hasPrefix("GET "))
        #expect(!sent.contains("secret-token"))
        #expect(!sent.contains("secret-cookie"))
        // The sensitive headers too: X-Api-Key by default, X-Tenant-Secret as configured.
        #expect(!sent.contains("secret-key"))
        #expect(!sent.contains("secret-tenant"))
    }

    @Test(arguments: HTTPClientKind.allCases)
    func aSameOriginRedirectOfAGETKeepsCredentials(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            if request.head.contains(" /graphql?") {
                connection.write(
                    FaultServer.response(
                        status: "302 Found", contentType: "text/plain", body: "moved", headers: ["Location: /moved"]))
            } else {
                connection.record(request.head)
                connection.write(FaultServer.response(status: "200 OK", contentType: "application/json", body: Self.heroBody))
            }
        }
        defer { server.stop() }
        let client = BatonClient(url: server.url, headerFields: Self.secretHeaders, httpClient: kind.make(), useGETForQueries: true)
        let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
        let sent = try #require(server.events.first)
        #expect(sent.hasPrefix("GET /moved"))
        #expect(sent.contains("secret-token"))
    }

    /// Only http and https locations are followed.
    @Test(arguments: HTTPClientKind.allCases)
    func aRedirectToAnotherSchemeIsRefused(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write(
                FaultServer.response(status: "302 Found", contentType: "text/plain", body: "", headers: ["Location: file:///etc/passwd"]))
        }
        defer { server.stop() }
        let client = BatonClient(url: server.url, httpClient: kind.make(), useGETForQueries: true)
        let (error, _) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .redirectRefused("HeroName", 302, _, _)? = error as? BatonError else {
            Issue.record("expected redirectRefused, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func endlessRedirectsStop(kind: HTTPClientKind) async throws {
        let server = try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            connection.record(request.head)
            let next = "/hop\(UUID().uuidString)"
            connection.write(FaultServer.response(status: "302 Found", contentType: "text/plain", body: "", headers: ["Location: \(next)"]))
        }
        defer { server.stop() }
        var limits = ResponseLimits()
        limits.maxRedirects = 3
        let client = BatonClient(url: server.url, httpClient: kind.make(), useGETForQueries: true, limits: limits)
        let (error, _) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
        guard case .tooManyRedirects("HeroName", 3)? = error as? BatonError else {
            Issue.record("expected the redirects to stop, got \(String(describing: error))")
            return
        }
        #expect(server.events.count == 4)
    }

    // MARK: Item 13: null data, no errors

    @Test(arguments: HTTPClientKind.allCases)
    func nullDataWithoutErrorsIsAnError(kind: HTTPClientKind) async throws {
        for body in [#"{"data":null}"#, #"{"data":null,"errors":[]}"#, #"{"errors":[]}"#] {
            let server = try FaultServer(response: FaultServer.response(status: "200 OK", contentType: "application/json", body: body))
            defer { server.stop() }
            let client = BatonClient(url: server.url, httpClient: kind.make())
            let (error, _) = await failure { _ = try await client.fetch(query: query, cachePolicy: .networkOnly) }
            guard case .invalidResponse("HeroName", _)? = error as? BatonError else {
                Issue.record("\(body): expected invalidResponse, got \(String(describing: error))")
                continue
            }
        }
    }
}
