import BatonAPI
@testable import BatonSQLite
import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// Issue 29, item 7: `baton-cache`, run as users run it, as a process on real files.
@Suite("baton-cache, the cache inspector", .ownThread)
struct CacheInspectorTests {
    static func user(_ id: String) -> OperationDescriptor { PersistenceTests.user(id) }
    static func userData(_ id: Int, name: String = "") -> JSONObject { PersistenceTests.userData(id, name: name) }

    /// A cache of two users' queries (three users each, through `friend`), user 2's record
    /// invalidated; the store is gone and the file closed.
    static func makeCache(_ url: URL) {
        let store = Store(cache: try! SQLiteNormalizedCache(fileURL: url))
        store.publish(data: userData(1), for: user("1"), fetched: true)
        store.publish(data: userData(2), for: user("2"), fetched: true)
        store.invalidateRecord("User:2")
        store.waitUntilPersisted()
    }

    static func run(_ arguments: [String]) async throws -> ProcessOutput {
        try await runProcess(try #require(builtExecutable("baton-cache")), arguments)
    }

    @Test func statsShowAndDumpReadTheFileWithoutChangingIt() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            Self.makeCache(url)
            let before = try Data(contentsOf: url)

            let stats = try await Self.run(["stats", url.path, "--json"])
            #expect(stats.status == 0, "\(stats.stderr)")
            let figures = try JSONValue(parsing: Data(stats.stdout.utf8))
            // The root and six users.
            #expect(figures["records"] == 7)
            #expect(figures["byType"]?["User"]?["records"] == 6)
            #expect(figures["byType"]?["__Root"]?["records"] == 1)
            #expect(figures["staleRecords"] == 1)
            #expect(figures["operations"] == 2)
            #expect(figures["oldestWrite"]?.stringValue != nil)
            #expect((figures["storedBytes"]?.intValue ?? 0) > 0)
            let text = try await Self.run(["stats", url.path])
            #expect(text.stdout.contains("records: 7"), "\(text.stdout)")
            #expect(text.stdout.contains("User: 6 records"), "\(text.stdout)")

            let show = try await Self.run(["show", url.path, "User:1001"])
            #expect(show.status == 0, "\(show.stderr)")
            #expect(show.stdout.contains(#""__id":"User:1001""#), "\(show.stdout)")
            #expect(show.stdout.contains("User:1: friend"), "\(show.stdout)")
            let root = try await Self.run(["show", url.path, "User:1"])
            #expect(root.stdout.contains(#"client:root: user(id:"1")"#), "\(root.stdout)")
            let invalid = try await Self.run(["show", url.path, "User:2"])
            #expect(invalid.stdout.contains("invalidated at epoch"), "\(invalid.stdout)")
            let missing = try await Self.run(["show", url.path, "User:404"])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no record User:404"), "\(missing.stderr)")

            let dump = try await Self.run(["dump", url.path])
            #expect(dump.status == 0, "\(dump.stderr)")
            let json = try JSONValue(parsing: Data(dump.stdout.utf8))
            #expect(json["version"] == .int(SQLiteNormalizedCache.schemaVersion))
            let records = try #require(json["records"]?.listValue)
            #expect(records.count == 7)
            let first = try #require(records.first { $0["__id"] == "User:1" })
            #expect(first["fields"]?["name"]?["v"] == "user 1")
            #expect(first["fields"]?["friend"]?["__ref"] == "User:1001")
            #expect(json["invalidations"]?["User:2"]?.intValue != nil)
            #expect(json["operations"]?.objectValue?.count == 2)

            // Not a byte of the file changed.
            #expect(try Data(contentsOf: url) == before)
        }
    }

    /// `stats` counts a record as stale when a field of it is past its max age at the time it
    /// runs: its response's `Cache-Control: max-age` ran out (the file says when), or, with
    /// `--max-age`, it was received longer ago than that (the schema's and the client's max
    /// ages are not in the file).
    @Test func statsCountsRecordsPastTheirMaxAge() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("ages.sqlite")
            do {
                // A store that dates every response (a default max age of an hour).
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: CacheFreshness(defaultMaxAge: .seconds(3600)))
                // `Cache-Control: max-age=0`: the root's `user(id:"1")` and users 1, 1001, 2001 expire at once.
                store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true, received: ResponseAge(maxAge: .zero))
                // No max age in the head: dated, expiring only by the max age that applies.
                store.publish(data: Self.userData(2), for: Self.user("2"), fetched: true, received: ResponseAge())
                store.waitUntilPersisted()
            }
            let before = try Data(contentsOf: url)

            let stats = try await Self.run(["stats", url.path, "--json"])
            #expect(stats.status == 0, "\(stats.stderr)")
            let figures = try JSONValue(parsing: Data(stats.stdout.utf8))
            #expect(figures["records"] == 7)
            #expect(figures["expiredRecords"] == 4)
            #expect(figures["invalidatedRecords"] == 0)
            #expect(figures["staleRecords"] == 4)
            let text = try await Self.run(["stats", url.path])
            #expect(text.stdout.contains("stale: 4 records (0 invalidated, 4 past their max age)"), "\(text.stdout)")

            // An hour's max age: users 2, 1002 and 2002 were received just now.
            let hour = try await Self.run(["stats", url.path, "--json", "--max-age", "3600"])
            #expect(try JSONValue(parsing: Data(hour.stdout.utf8))["expiredRecords"] == 4, "\(hour.stdout)")
            // None: every dated field is past it.
            let zero = try await Self.run(["stats", url.path, "--max-age", "0"])
            #expect(zero.stdout.contains("stale: 7 records (0 invalidated, 7 past their max age)"), "\(zero.stdout)")
            let negative = try await Self.run(["stats", url.path, "--max-age", "-1"])
            #expect(negative.status != 0)
            #expect(negative.stderr.contains("--max-age"), "\(negative.stderr)")
            let huge = try await Self.run(["stats", url.path, "--max-age", "1e300"])
            #expect(huge.status != 0)
            #expect(huge.stderr.contains("--max-age must be"), "\(huge.stderr)")

            // The library measures at the time it is given: before the writes, nothing had expired.
            let inspector = try SQLiteCacheInspector(fileURL: url)
            #expect(try inspector.statistics(now: .distantPast, maxAge: .zero).expiredRecords == 0)
            #expect(try inspector.statistics().expiredRecords == 4)
            // Reading changed nothing.
            #expect(try Data(contentsOf: url) == before)
        }
    }

    /// An app may have the file open while the inspector reads it.
    @Test func inspectingAFileAnAppHasOpenSeesItsCommits() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("open.sqlite")
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            store.publish(data: Self.userData(5), for: Self.user("5"), fetched: true)
            store.waitUntilPersisted()
            let show = try await Self.run(["show", url.path, "User:5"])
            #expect(show.status == 0, "\(show.stderr)")
            #expect(show.stdout.contains(#""name":{"v":"user 5"}"#), "\(show.stdout)")
            #expect(store.read(Self.user("5")).data == Self.userData(5))
        }
    }

    @Test func aDamagedANewerAndAForeignFileAreClearErrors() async throws {
        try await withTemporaryFolder { folder in
            let damaged = folder.appendingPathComponent("damaged.sqlite")
            try Data(repeating: 0x5A, count: 8192).write(to: damaged)
            let notADatabase = try await Self.run(["stats", damaged.path])
            #expect(notADatabase.status == 1)
            #expect(notADatabase.stderr.contains("damaged or not a database"), "\(notADatabase.stderr)")
            #expect(try Data(contentsOf: damaged) == Data(repeating: 0x5A, count: 8192))

            let newer = folder.appendingPathComponent("newer.sqlite")
            Self.makeCache(newer)
            let connection = try SQLiteConnection(path: newer.path)
            try connection.execute("UPDATE baton_meta SET value = '99' WHERE key = 'version'")
            for command in [["stats", newer.path], ["dump", newer.path], ["show", newer.path, "User:1"], ["trim", newer.path, "--max-bytes", "0"]] {
                let result = try await Self.run(command)
                #expect(result.status == 1, "\(command)")
                #expect(result.stderr.contains("schema version 99, newer than this Baton knows"), "\(command): \(result.stderr)")
            }

            let foreign = folder.appendingPathComponent("foreign.sqlite")
            let other = try SQLiteConnection(path: foreign.path)
            try other.execute("CREATE TABLE notes (text TEXT)")
            let result = try await Self.run(["dump", foreign.path])
            #expect(result.status == 1)
            #expect(result.stderr.contains("not a Baton cache"), "\(result.stderr)")

            let absent = try await Self.run(["stats", folder.appendingPathComponent("absent.sqlite").path])
            #expect(absent.status == 1)
            #expect(absent.stderr.contains("no such file"), "\(absent.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("absent.sqlite").path))
        }
    }

    /// Damage inside a page (not the header): `stats` checks the file and says where.
    @Test func damageInsideTheFileIsFoundByStats() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("pages.sqlite")
            Self.makeCache(url)
            var bytes = try Data(contentsOf: url)
            // The second page onwards: the tables' B-trees.
            let page = SQLiteNormalizedCache.newFilePageSize
            for offset in stride(from: page, to: min(bytes.count, page * 3), by: 7) { bytes[offset] = 0xFF }
            try bytes.write(to: url)
            let stats = try await Self.run(["stats", url.path])
            #expect(stats.status == 1)
            #expect(stats.stderr.contains("damaged"), "\(stats.stderr)")
        }
    }

    /// `trim` removes the least recently used records down to the size asked for and gives
    /// the space back to the disk; what was read last stays, and so does the root.
    @Test func trimRemovesTheLeastRecentlyUsedAndShrinksTheFile() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("big.sqlite")
            do {
                let cache = try SQLiteNormalizedCache(fileURL: url)
                let body = String(repeating: "b", count: 1_000)
                for batch in 0..<20 {
                    var records: [DataID: RecordState?] = [.rootID: .present(Record(id: .rootID, typename: "__Root"))]
                    for index in 0..<100 {
                        let id = DataID("Item:\(batch * 100 + index)")
                        records[id] = .present(Record(id: id, typename: "Item", fields: ["body": .scalar(.string(body))]))
                    }
                    try cache.write(CacheBatch(records: records, epoch: batch))
                }
                try await Task.sleep(for: .milliseconds(20))
                // The oldest record is read last: it stays.
                try cache.write(CacheBatch(epoch: 21, readIDs: ["Item:0"]))
            }
            let sizeBefore = try Self.size(url)
            #expect(sizeBefore > 2_000_000)
            let trim = try await Self.run(["trim", url.path, "--max-bytes", "500000"])
            #expect(trim.status == 0, "\(trim.stderr)")
            #expect(trim.stdout.contains("removed"), "\(trim.stdout)")
            #expect(try Self.size(url) <= 500_000 + SQLiteNormalizedCache.newFilePageSize * 4)
            let cache = try SQLiteNormalizedCache(fileURL: url)
            #expect(try cache.usedBytes() <= 500_000)
            let left = try cache.allRecords()
            #expect(left[.rootID] != nil)
            #expect(left["Item:0"] != nil)
            #expect(left["Item:1"] == nil)
            #expect(left["Item:1999"] != nil)
        }
    }

    static func size(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// An executable of the package built beside the tests.
func builtExecutable(_ name: String) -> URL? {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return nil
}
