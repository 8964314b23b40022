import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import BatonSQLite
import BatonWebSocket
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Baton

/// Every log line, with its metadata, as text.
final class CapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [String] = []

    var lines: [String] { lock.withLock { captured } }

    func append(_ line: String) { lock.withLock { captured.append(line) } }

    /// A logger at `trace` that writes here.
    func logger(_ label: String) -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(sink: self) }
        logger.logLevel = .trace
        return logger
    }
}

struct CapturingLogHandler: LogHandler {
    let sink: CapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        sink.append("\(event.level) \(event.message) \(merged.map { "\($0)=\($1)" }.sorted().joined(separator: " "))")
    }
}

/// `Authorization`, other configured headers and sensitive variables never reach a log line or
/// the persistent cache.
@Suite("Secrets stay out of logs and the cache")
struct SecretsTests {
    static let email = "hidden.person@example.com"
    static let searchText = "zz-secret search+text&=?"
    static let sessionHeader = "s3cr3t-session-value"
    static let sensitive = SensitiveData(headerNames: ["X-Session"], variableNames: ["email", "text"])

    /// The secrets and the forms they may take in a URL or JSON.
    static func forms(of secrets: [String]) -> [String] {
        secrets.flatMap { secret in
            [secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
             secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? secret]
        }
    }

    @Test func httpLogsRedactHeadersAndSensitiveVariables() async throws {
        try await withExampleServer { server in
            let token = try #require(
                try await BatonClient(url: server.url).perform(mutation: LoginMutation(email: "someone@example.com")).data?.login)
            let logs = CapturedLogs()
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token)"
            headers[HTTPField.Name("X-Session")!] = Self.sessionHeader
            let client = BatonClient(
                url: server.url, headerFields: headers, useGETForQueries: true, sensitiveData: Self.sensitive,
                logger: logs.logger("test.http"))
            _ = try await client.perform(mutation: LoginMutation(email: Self.email))
            _ = try await client.fetch(query: SearchQuery(text: .some(Self.searchText)), cachePolicy: .networkOnly)

            // A failing GET: the error's description quotes the URL, variables and all.
            let port = try closedLoopbackPort()
            let failing = BatonClient(
                url: URL(string: "http://127.0.0.1:\(port)/graphql")!, headerFields: headers, timeout: .seconds(10),
                useGETForQueries: true, retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(10)),
                sensitiveData: Self.sensitive, logger: logs.logger("test.http"))
            await #expect(throws: BatonError.self) {
                try await failing.fetch(query: SearchQuery(text: .some(Self.searchText)), cachePolicy: .networkOnly)
            }

            let lines = logs.lines
            #expect(lines.contains { $0.contains("sending Login") && $0.contains("<redacted>") })
            #expect(lines.contains { $0.contains("sending Search") && $0.contains("GET") })
            #expect(lines.contains { $0.contains("retrying Search") })
            #expect(lines.contains { $0.hasPrefix("debug") && $0.contains("Search failed") })
            for secret in Self.forms(of: [token, Self.sessionHeader, Self.email, Self.searchText]) {
                let leaks = lines.filter { $0.contains(secret) }
                #expect(leaks.isEmpty, "\(secret) was logged: \(leaks)")
            }
        }
    }

    @Test func webSocketLogsKeepTheConnectionPayloadAndHeadersOut() async throws {
        try await withExampleServer { server in
            let logs = CapturedLogs()
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(Self.sessionHeader)"
            let transport = WebSocketNetworkTransport(
                url: server.webSocketURL,
                configuration: WebSocketTransportConfiguration(
                    headerFields: headers, connectionPayload: WebSocketTransportConfiguration.payload(["authToken": .string(Self.sessionHeader)])),
                logger: logs.logger("test.ws"))
            let client = BatonClient(networkTransport: transport)
            for try await _ in client.subscribe(subscription: CountSubscription(to: 2)) {}
            let leaks = logs.lines.filter { $0.contains(Self.sessionHeader) }
            #expect(leaks.isEmpty, "\(leaks)")
        }
    }

    /// Every byte of the SQLite files in `directory` (database, WAL, shared memory), as Latin-1 text.
    /// The text of every file of the cache in `directory`. The store that wrote them may still
    /// be closing its connection on its writer's thread, and SQLite removes the WAL file when it
    /// has copied it into the database: a file listed and gone before it is read means the
    /// files were changing, and they are read again, whole, once they hold still.
    static func cacheFileText(_ directory: URL) throws -> String {
        var attempts = 0
        while true {
            do {
                var text = ""
                for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                    let data = try Data(contentsOf: directory.appendingPathComponent(name))
                    text += String(data.map { Character(Unicode.Scalar($0)) })
                }
                return text
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile && attempts < 50 {
                attempts += 1
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    @Test func sensitiveVariablesNeverReachTheSQLiteFile() async throws {
        try await withExampleServer { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-secrets-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            // Without the policy the secrets are in the storage keys, and so in the file: the
            // check below can see them.
            let plainDirectory = directory.appendingPathComponent("plain")
            try FileManager.default.createDirectory(at: plainDirectory, withIntermediateDirectories: true)
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: plainDirectory.appendingPathComponent("cache.sqlite")))
                let client = BatonClient(url: server.url, store: store)
                _ = try await client.perform(mutation: LoginMutation(email: Self.email))
                _ = try await client.fetch(query: SearchQuery(text: .some(Self.searchText)), cachePolicy: .networkOnly)
                store.waitUntilPersisted()
            }
            let plain = try Self.cacheFileText(plainDirectory)
            #expect(plain.contains(Self.email) && plain.contains("zz-secret"))

            let secretDirectory = directory.appendingPathComponent("redacted")
            try FileManager.default.createDirectory(at: secretDirectory, withIntermediateDirectories: true)
            do {
                let store = Store(
                    cache: try SQLiteNormalizedCache(fileURL: secretDirectory.appendingPathComponent("cache.sqlite")),
                    sensitiveData: Self.sensitive)
                let client = BatonClient(url: server.url, store: store, sensitiveData: Self.sensitive)
                let login = try await client.perform(mutation: LoginMutation(email: Self.email))
                #expect(login.data?.login != nil)
                let fetched = try await client.fetch(query: SearchQuery(text: .some(Self.searchText)), cachePolicy: .networkOnly)
                // The same secret finds its records again while the store lives; another does not.
                let cached = try await client.fetch(query: SearchQuery(text: .some(Self.searchText)), cachePolicy: .storeOnly)
                #expect(cached.source == .cache)
                #expect(cached.data?.search?.count == fetched.data?.search?.count)
                await #expect(throws: BatonError.self) {
                    try await client.fetch(query: SearchQuery(text: .some("another secret")), cachePolicy: .storeOnly)
                }
                store.waitUntilPersisted()
            }
            let redacted = try Self.cacheFileText(secretDirectory)
            #expect(redacted.contains("<redacted:"))
            for secret in [Self.email, "zz-secret", "another secret"] {
                #expect(!redacted.contains(secret), "\(secret) is in the cache file")
            }
        }
    }
}
