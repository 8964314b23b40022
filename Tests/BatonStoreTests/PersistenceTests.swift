import BatonAPI
@testable import BatonSQLite
import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// A cache that counts its batched loads, over a real SQLite file.
final class CountingCache: NormalizedCache, Sendable {
    let inner: SQLiteNormalizedCache
    private let counts = Locked<(loads: Int, ids: Int)>((0, 0))

    init(_ inner: SQLiteNormalizedCache) { self.inner = inner }

    var isPersistent: Bool { true }
    var loads: Int { counts.withLock { $0.loads } }
    var loadedIDs: Int { counts.withLock { $0.ids } }

    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] {
        try loadRecords(forKeys: ids, readingAhead: false)
    }

    func loadRecords(forKeys ids: Set<DataID>, readingAhead: Bool) throws -> [DataID: RecordState] {
        counts.withLock {
            $0.loads += 1
            $0.ids += ids.count
        }
        return try inner.loadRecords(forKeys: ids, readingAhead: readingAhead)
    }

    func loadMetadata() throws -> CacheMetadata { try inner.loadMetadata() }
    func write(_ batch: CacheBatch) throws { try inner.write(batch) }
    func clear() throws { try inner.clear() }
}

/// Issue 15: a cache on disk that survives restarts, is read on demand and evicted only by policy.
@Suite("Persistence", .ownThread)
struct PersistenceTests {
    /// A user's fields, with two levels of friends.
    static let userFields: [Selection] = [
        .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
        .field("name", type: .scalar("String")),
        .field(
            "friend", type: .object("User"),
            selections: [
                .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
                .field("name", type: .scalar("String")),
                .field(
                    "friend", type: .object("User"),
                    selections: [
                        .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
                        .field("name", type: .scalar("String")),
                    ]),
            ]),
    ]

    static let user = OperationDescriptor(
        name: "User",
        selections: [.field("user", type: .object("User"), arguments: ["id": .variable("id")], selections: userFields)],
        variables: [:], rootType: "Query")

    static func user(_ id: String) -> OperationDescriptor {
        OperationDescriptor(name: user.name, selections: user.selections, variables: ["id": .string(id)], rootType: "Query")
    }

    static func userData(_ id: Int, name: String = "") -> JSONObject {
        func make(_ id: Int, depth: Int) -> JSONValue {
            var object: JSONObject = ["__typename": "User", "id": .string("\(id)"), "name": .string(name.isEmpty ? "user \(id)" : name)]
            if depth < 2 { object["friend"] = make(id + 1000, depth: depth + 1) }
            return .object(object)
        }
        return ["user": make(id, depth: 0)]
    }

    // MARK: Retention that survives restarts

    /// Issue 15, item 6: what an app fetched stays answerable offline after a restart, however
    /// many other queries it fetches (each retained and released, so garbage collection runs).
    @Test func aRestartThenFiftyFetchesOfOtherQueriesKeepsTheFirstQueryAnswerableOffline() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
                store.retain(Self.user("1")).release()
            }
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                for other in 2..<52 {
                    let token = store.retain(Self.user("\(other)"))
                    store.publish(data: Self.userData(other), for: Self.user("\(other)"), fetched: true)
                    token.release()
                }
                store.collectGarbage()
                #expect(store.check(Self.user("1")) == .available)
                #expect(store.read(Self.user("1")).data == Self.userData(1))
                #expect(store.takePersistenceErrors().isEmpty)
            }
            // And the file kept every record: collection freed memory only.
            let again = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            for id in 1..<52 { #expect(again.read(Self.user("\(id)")).data == Self.userData(id), "user \(id)") }
        }
    }

    /// Fetch times and invalidation marks decide `check`; they are in the file, so a cache policy
    /// answers the same before and after a restart.
    @Test func checkAnswersTheSameBeforeAndAfterARestart() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            func reopened() throws -> Store { Store(cache: try SQLiteNormalizedCache(fileURL: url), queryCacheExpirationTime: .seconds(3600)) }
            do {
                let store = try reopened()
                store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
                store.publish(data: Self.userData(2), for: Self.user("2"), fetched: true)
                store.publish(data: Self.userData(3), for: Self.user("3"), fetched: true)
                store.invalidateRecord("User:2")
                #expect(store.check(Self.user("1")) == .available)
                #expect(store.check(Self.user("2")) == .stale)
            }
            do {
                let store = try reopened()
                #expect(store.check(Self.user("1")) == .available)
                #expect(store.check(Self.user("2")) == .stale)
                #expect(store.check(Self.user("3")) == .available)
                #expect(store.check(Self.user("4")) == .missing)
                // Written again after the mark: fresh, and still after another restart.
                store.publish(data: Self.userData(2), for: Self.user("2"), fetched: true)
                #expect(store.check(Self.user("2")) == .available)
            }
            do {
                let store = try reopened()
                #expect(store.check(Self.user("2")) == .available)
                store.invalidateStore()
            }
            #expect(try reopened().check(Self.user("1")) == .stale)
            // A fetch older than the expiration time is stale after a restart too.
            do {
                let store = try reopened()
                store.publish(data: Self.userData(5), for: Self.user("5"), fetched: true)
                #expect(store.check(Self.user("5")) == .available)
            }
            try Self.sql(url, "UPDATE operations SET fetched_at = fetched_at - 7200")
            #expect(try reopened().check(Self.user("5")) == .stale)
        }
    }

    /// Optimistic data never reaches the file, and neither does a reverted update.
    @Test func optimisticDataIsNeverWritten() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
                _ = store.applyOptimisticUpdate(data: Self.userData(1, name: "optimistic"), for: Self.user("1"))
                #expect(store.read(Self.user("1")).data?["user"]?["name"] == "optimistic")
            }
            let records = try SQLiteNormalizedCache(fileURL: url).allRecords()
            #expect(records["User:1"]?["name"] == .scalar("user 1"))
        }
    }

    // MARK: Records read on demand

    /// Opening reads no record; a query loads what it reads, one batch per level of its tree;
    /// memory keeps at most the working set's limit and loads again what it let go.
    @Test func recordsAreReadOnDemandInBatchesAndMemoryStaysBounded() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                for id in 0..<300 { store.publish(data: Self.userData(id), for: Self.user("\(id)"), fetched: true) }
            }
            let cache = CountingCache(try SQLiteNormalizedCache(fileURL: url))
            let store = Store(cache: cache, workingSetLimit: 200)
            let opened = cache.loads
            #expect(opened <= 1)  // the root record only
            #expect(store.snapshot().count == 1)
            let read = store.read(Self.user("7"))
            #expect(read.data == Self.userData(7))
            // user → friend → friend: the user, then its friend, which two levels down reads
            // ahead the rest of the write it came in (the friend's friend).
            #expect(cache.loads - opened == 2)
            #expect(store.snapshot().count == 4)
            // Reading it again loads nothing.
            _ = store.read(Self.user("7"))
            #expect(cache.loads - opened == 2)
            // Reading every user goes past the limit: memory lets the least recently used go,
            // and every read still answers.
            for id in 0..<300 { #expect(store.read(Self.user("\(id)")).data == Self.userData(id), "user \(id)") }
            let publishes = 0..<300
            for id in publishes.shuffled().prefix(20) { store.publish(data: Self.userData(id, name: "renamed \(id)"), for: Self.user("\(id)")) }
            #expect(store.snapshot().count <= 200)
            for id in 0..<300 {
                let read = store.read(Self.user("\(id)"))
                #expect(!read.isMissing, "user \(id)")
            }
        }
    }

    /// Users (each with two levels of friends) fetched in one response, as a list.
    static let users = OperationDescriptor(
        name: "Users", selections: [.field("users", type: .list(.object("User")), selections: userFields)],
        variables: [:], rootType: "Query")

    static func usersData(_ ids: Range<Int>) -> JSONObject {
        ["users": .list(ids.map { userData($0)["user"]! })]
    }

    /// A response read from a cold store comes from the file in one pass: the read asks for
    /// the first level of the list, whose records one write stored, and the cache reads the rest
    /// of that write with them; no load per level. A query that asks for one record of a
    /// response loads that record only, and memory never takes more than its limit.
    @Test func aResponseReadColdComesInOnePassAndAOneRecordQueryLoadsOneRecord() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: Self.usersData(0..<50), for: Self.users, fetched: true)
                store.publish(data: Self.userData(7), for: Self.user("7"), fetched: true)
            }
            do {
                let cache = CountingCache(try SQLiteNormalizedCache(fileURL: url))
                let store = Store(cache: cache)
                let opened = cache.loads
                #expect(store.read(Self.users).data == Self.usersData(0..<50))
                // 50 users and their 100 friends: one load answers the whole read.
                #expect(cache.loads - opened == 1)
                #expect(cache.loadedIDs == 50 + opened)
                #expect(store.snapshot().count == 151)
            }
            do {
                let cache = CountingCache(try SQLiteNormalizedCache(fileURL: url))
                let store = Store(cache: cache)
                let openedIDs = cache.loadedIDs
                // One level: the user's name. Its record is in the list's write, but a read one
                // level deep reads no further.
                let shallow = OperationDescriptor(
                    name: "UserName",
                    selections: [
                        .field("user", type: .object("User"), arguments: ["id": .value("7")], selections: [.field("name", type: .scalar("String"))])
                    ], variables: [:], rootType: "Query")
                #expect(store.read(shallow).data == ["user": ["name": "user 7"]])
                #expect(store.snapshot().count == 2)
                #expect(cache.loadedIDs == openedIDs + 1)
            }
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url), workingSetLimit: 40)
                #expect(store.read(Self.users).data == Self.usersData(0..<50))
                #expect(store.snapshot().count <= 151)
                _ = store.read(Self.user("7"))
                store.publish(data: Self.userData(5000), for: Self.user("5000"))
                #expect(store.snapshot().count <= 40)
                #expect(store.read(Self.users).data?["users"]?.listValue?.first == Self.userData(0)["user"])
            }
        }
    }

    /// A watcher's records stay in memory, and its updates keep coming when others' go.
    @Test func watchedRecordsStayInTheWorkingSet() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url), workingSetLimit: 20)
            store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
            let names = Locked<[JSONValue?]>([])
            let (_, subscription) = store.subscribe(Self.user("1")) { result in
                names.withLock { $0.append(result.data?["user"]?["name"]) }
            }
            for id in 2..<60 { store.publish(data: Self.userData(id), for: Self.user("\(id)"), fetched: true) }
            #expect(store.snapshot()["User:1"] != nil)
            store.publish(data: Self.userData(1, name: "changed"), for: Self.user("1"))
            #expect(names.withLock { $0 } == [.string("changed")])
            subscription.cancel()
        }
    }

    /// Issue 29, item 5: a second store over the file opens it (no `alreadyOpen`), reads what
    /// the first wrote, and each sees the other's later commits on its next read.
    @Test func aSecondStoreOverOneFileSharesIt() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let first = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            first.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
            first.waitUntilPersisted()
            let (shared, problem) = SQLiteNormalizedCache.openOrRecover(fileURL: url)
            #expect(problem == nil)
            #expect(shared is SQLiteNormalizedCache)
            let second = Store(cache: shared)
            #expect(second.read(Self.user("1")).data == Self.userData(1))
            #expect(second.check(Self.user("1")) == .available)
            second.publish(data: Self.userData(1, name: "from the second"), for: Self.user("1"), fetched: true)
            second.waitUntilPersisted()
            #expect(first.read(Self.user("1")).data == Self.userData(1, name: "from the second"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains("unreadable") })
        }
    }

    /// What stays refused: a file another program keeps locked (an older Baton held its file's
    /// lock while open) is a clear error after the busy timeout, and `openOrRecover` leaves the
    /// file to it and works in memory.
    @Test func aFileLockedByAnotherProgramIsAClearErrorAndIsLeftAlone() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do { _ = try SQLiteNormalizedCache(fileURL: url) }
            let holder = try SQLiteConnection(path: url.path)
            try holder.execute("PRAGMA locking_mode = EXCLUSIVE")
            try holder.execute("BEGIN EXCLUSIVE; COMMIT;")
            let (fallback, problem) = await onOwnThread { SQLiteNormalizedCache.openOrRecover(fileURL: url) }
            #expect(fallback is InMemoryNormalizedCache)
            guard case .alreadyOpen(let path)? = problem else {
                Issue.record("expected alreadyOpen, got \(String(describing: problem))")
                return
            }
            #expect(path == url.path)
            #expect(problem.map { "\($0)" }?.contains("locked by another program") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains("unreadable") })
            withExtendedLifetime(holder) {}
        }
    }

    // MARK: Eviction

    @Test func evictionByRecordCountDropsTheLeastRecentlyUsed() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let cache = try SQLiteNormalizedCache(fileURL: url, eviction: CacheEvictionPolicy(maxRecords: 100, checkInterval: 1))
            func write(_ index: Int) throws {
                try cache.write(CacheBatch(records: [DataID("R:\(index)"): .present(Record(id: DataID("R:\(index)"), typename: "R"))], epoch: index))
            }
            for index in 0..<100 { try write(index) }
            #expect(try cache.recordCount() == 100)
            // R:0 is read after the others were written (SQLite's clock counts milliseconds).
            try await Task.sleep(for: .milliseconds(20))
            try cache.write(CacheBatch(epoch: 100, readIDs: ["R:0"]))
            try await Task.sleep(for: .milliseconds(20))
            // One over the bound: down to nine tenths, least recently used first.
            try write(100)
            // Writes leave eviction to the store's writer (or to `evict()`), never inline.
            #expect(try cache.recordCount() == 101)
            #expect(cache.needsEviction)
            try cache.evict()
            #expect(try cache.recordCount() == 90)
            let left = try cache.allRecords()
            #expect(left["R:0"] != nil)
            #expect((1...11).allSatisfy { left[DataID("R:\($0)")] == nil })
            #expect((12...100).allSatisfy { left[DataID("R:\($0)")] != nil })
        }
    }

    @Test func evictionBySizeKeepsTheFileUnderItsBound() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let bound = 2 << 20
            let cache = try SQLiteNormalizedCache(fileURL: url, eviction: CacheEvictionPolicy(maxBytes: bound, checkInterval: 1))
            let body = String(repeating: "y", count: 2_000)
            for batch in 0..<40 {
                var records: [DataID: RecordState?] = [:]
                for index in 0..<50 {
                    let id = DataID("R:\(batch * 50 + index)")
                    records[id] = .present(Record(id: id, typename: "R", fields: ["body": .scalar(.string(body))]))
                }
                try cache.write(CacheBatch(records: records, epoch: batch))
                if cache.needsEviction { try cache.evict() }
                #expect(try cache.usedBytes() <= bound, "after batch \(batch)")
            }
            // The newest records stayed.
            #expect(try cache.allRecords()["R:1999"] != nil)
            #expect(try cache.recordCount() < 2_000)
        }
    }

    @Test func evictionByAgeDropsWhatWasWrittenLongAgo() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
                store.publish(data: Self.userData(2), for: Self.user("2"), fetched: true)
            }
            // User 1's records were written two hours ago.
            try Self.sql(url, "UPDATE records SET written_at = written_at - 7200 WHERE id IN ('User:1', 'User:1001', 'User:2001')")
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url, eviction: CacheEvictionPolicy(maxAge: .seconds(3600))))
            // Eviction runs on the store's writer, behind the caller.
            store.waitUntilPersisted()
            #expect(store.read(Self.user("2")).data == Self.userData(2))
            #expect(store.recordState(of: "User:1") == nil)
            #expect(store.recordState(of: "User:1001") == nil)
            #expect(store.check(Self.user("1")) == .missing)
        }
    }

    // MARK: Files from older versions, and failures

    /// Issue 15, item 6: a file written by Baton before this schema (version 1: records only)
    /// opens with its records, and is of this Baton's version afterwards.
    @Test func aVersion1FileIsMigratedKeepingTheUsersRecords() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            // Version 1's schema, as that Baton made it.
            do {
                let connection = try SQLiteConnection(path: url.path)
                try connection.execute(
                    """
                    PRAGMA journal_mode = WAL;
                    BEGIN IMMEDIATE;
                    CREATE TABLE baton_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    INSERT INTO baton_meta (key, value) VALUES ('format', 'baton-normalized-cache'), ('version', '1');
                    CREATE TABLE records (id TEXT PRIMARY KEY NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, record BLOB);
                    COMMIT;
                    """)
                var root = Record(id: .rootID, typename: "__Root")
                root.fields[#"user(id:"1")"#] = .link("User:1")
                let user = Record(id: "User:1", typename: "User", fields: ["id": .scalar("1"), "name": .scalar("Ann"), "friend": .null])
                for record in [root, user] {
                    try connection.run(
                        "INSERT INTO records (id, deleted, record) VALUES (?, 0, ?)", [.text(record.id.rawValue), .blob(RecordCoding.encode(record))])
                }
                try connection.run("INSERT INTO records (id, deleted, record) VALUES ('User:9', 1, NULL)")
            }
            do {
                let cache = try SQLiteNormalizedCache(fileURL: url)
                let store = Store(cache: cache)
                let shallow = OperationDescriptor(
                    name: "User",
                    selections: [
                        .field(
                            "user", type: .object("User"), arguments: ["id": .value("1")],
                            selections: [.field("id", type: .nonNull(.scalar("ID"))), .field("name", type: .scalar("String"))])
                    ], variables: [:], rootType: "Query")
                #expect(store.read(shallow).data == ["user": ["id": "1", "name": "Ann"]])
                #expect(store.recordState(of: "User:9") == .deleted)
                var version = ""
                try cache.guardedConnection { try $0.run("SELECT value FROM baton_meta WHERE key = 'version'") { version = $0.text(0) ?? "" } }
                #expect(version == String(SQLiteNormalizedCache.schemaVersion))
                // And it takes the new bookkeeping.
                store.publish(data: Self.userData(3), for: Self.user("3"), fetched: true)
            }
            #expect(Store(cache: try SQLiteNormalizedCache(fileURL: url)).check(Self.user("3")) == .available)
        }
    }

    /// The records an older file holds in the migration tests: the root, linking to two users.
    private static func twoUsersAndTheRoot() -> [Record] {
        var root = Record(id: .rootID, typename: "__Root")
        root.fields[#"user(id:"1")"#] = .link("User:1")
        root.fields[#"user(id:"2")"#] = .link("User:2")
        return [
            root, Record(id: "User:1", typename: "User", fields: ["__typename": .scalar("User"), "id": .scalar("1"), "name": .scalar("Ann"), "friend": .null]),
            Record(id: "User:2", typename: "User", fields: ["__typename": .scalar("User"), "id": .scalar("2"), "name": .scalar("Bo"), "friend": .null]),
        ]
    }

    /// A file of version 2 (records in the JSON form, no write batches) opens with its records,
    /// fetch times and invalidation marks, is of this Baton's version afterwards, and reads its old records
    /// beside new ones.
    @Test func aVersion2FileIsMigratedKeepingItsRecordsAndBookkeeping() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let connection = try SQLiteConnection(path: url.path)
                try connection.execute(
                    """
                    PRAGMA journal_mode = WAL;
                    BEGIN IMMEDIATE;
                    CREATE TABLE baton_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    INSERT INTO baton_meta (key, value) VALUES ('format', 'baton-normalized-cache'), ('version', '2'), ('epoch', '5');
                    CREATE TABLE records (id TEXT PRIMARY KEY NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, record BLOB,
                        written_at REAL NOT NULL DEFAULT 0, used_at REAL NOT NULL DEFAULT 0);
                    CREATE TABLE operations (key TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL, fetched_at REAL NOT NULL);
                    CREATE TABLE invalidations (id TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL);
                    COMMIT;
                    """)
                let now = Date().timeIntervalSince1970
                let records = Self.twoUsersAndTheRoot()
                for record in records {
                    try connection.run(
                        "INSERT INTO records (id, deleted, record, written_at, used_at) VALUES (?, 0, ?, ?, ?)",
                        [.text(record.id.rawValue), .blob(RecordCoding.encode(record)), .real(now), .real(now)])
                }
                try connection.run("INSERT INTO operations (key, epoch, fetched_at) VALUES (?, 4, ?)", [.text(Self.user("1").rootKey), .real(now)])
                try connection.run("INSERT INTO invalidations (id, epoch) VALUES ('User:2', 5)")
            }
            do {
                let cache = try SQLiteNormalizedCache(fileURL: url)
                let store = Store(cache: cache)
                let expected: JSONObject = ["user": ["__typename": "User", "id": "1", "name": "Ann", "friend": nil]]
                #expect(store.read(Self.user("1")).data == expected)
                #expect(store.check(Self.user("1")) == .available)
                #expect(store.check(Self.user("2")) == .stale)
                var version = ""
                try cache.guardedConnection { try $0.run("SELECT value FROM baton_meta WHERE key = 'version'") { version = $0.text(0) ?? "" } }
                #expect(version == String(SQLiteNormalizedCache.schemaVersion))
                store.publish(data: Self.userData(3), for: Self.user("3"), fetched: true)
            }
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            #expect(store.read(Self.user("3")).data == Self.userData(3))
            #expect(store.read(Self.user("1")).data?["user"]?["name"] == "Ann")
            #expect(store.check(Self.user("2")) == .stale)
        }
    }

    /// A file of version 3 (records that hold their ID, after the marker `0xBA`) opens with its
    /// records, is of this Baton's version afterwards, and reads its old records beside new ones,
    /// which hold no second copy of their ID. A version 3 record in another ID's row is
    /// unreadable, as it was.
    @Test func aVersion3FileIsMigratedAndItsRecordsReadBesideNewOnes() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let connection = try SQLiteConnection(path: url.path)
                try connection.execute(
                    """
                    PRAGMA journal_mode = WAL;
                    BEGIN IMMEDIATE;
                    CREATE TABLE baton_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    INSERT INTO baton_meta (key, value) VALUES ('format', 'baton-normalized-cache'), ('version', '3'),
                        ('last_batch', '1'), ('clear_count', '0');
                    CREATE TABLE records (id TEXT PRIMARY KEY NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, record BLOB,
                        written_at REAL NOT NULL DEFAULT 0, used_at REAL NOT NULL DEFAULT 0,
                        batch INTEGER NOT NULL DEFAULT 0, batch_size INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE operations (key TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL, fetched_at REAL NOT NULL);
                    CREATE TABLE invalidations (id TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL);
                    CREATE INDEX records_batch ON records (batch);
                    COMMIT;
                    """)
                let now = Date().timeIntervalSince1970
                let records = Self.twoUsersAndTheRoot()
                for (index, record) in records.enumerated() {
                    let buffer = ByteBuffer(capacity: 16)
                    RecordWriter().write(record, into: buffer)
                    // User:2's row holds a record that names User:1: damaged, as version 3 read it.
                    let row = record.id.rawValue
                    let stored = SQLiteCacheTests.versionThreeForm(
                        of: Array(UnsafeBufferPointer(start: buffer.start, count: buffer.count)), id: index == 2 ? "User:1" : record.id)
                    try connection.run(
                        "INSERT INTO records (id, deleted, record, written_at, used_at, batch, batch_size) VALUES (?, 0, ?, ?, ?, 1, 3)",
                        [.text(row), .blob(stored), .real(now), .real(now)])
                }
            }
            do {
                let cache = try SQLiteNormalizedCache(fileURL: url)
                let store = Store(cache: cache)
                let expected: JSONObject = ["user": ["__typename": "User", "id": "1", "name": "Ann", "friend": nil]]
                #expect(store.read(Self.user("1")).data == expected)
                #expect(store.read(Self.user("2")).isMissing)
                #expect(cache.unreadableRecordCount >= 1)
                var version = ""
                try cache.guardedConnection { try $0.run("SELECT value FROM baton_meta WHERE key = 'version'") { version = $0.text(0) ?? "" } }
                #expect(version == "4")
                store.publish(data: Self.userData(3), for: Self.user("3"), fetched: true)
            }
            let cache = try SQLiteNormalizedCache(fileURL: url)
            var markers: [String: UInt8] = [:]
            try cache.guardedConnection {
                try $0.run("SELECT id, record FROM records") { row in markers[row.text(0) ?? ""] = row.withBlob(1) { $0.first } }
            }
            #expect(markers["User:1"] == RecordWriter.markerWithID)
            #expect(markers["User:3"] == RecordWriter.marker)
            let store = Store(cache: cache)
            #expect(store.read(Self.user("3")).data == Self.userData(3))
            #expect(store.read(Self.user("1")).data?["user"]?["name"] == "Ann")
        }
    }

    /// A full disk during a write is a typed, observable error; memory keeps the data and the
    /// store keeps working.
    @Test func aFullDiskIsATypedErrorAndMemoryKeepsWorking() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let cache = try SQLiteNormalizedCache(fileURL: url)
            let store = Store(cache: cache, workingSetLimit: 10)
            store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
            // The file may not grow any more: SQLite answers SQLITE_FULL, as on a full disk.
            var pages = 0
            try cache.guardedConnection { connection in
                try connection.run("PRAGMA page_count") { pages = $0.int(0) }
                try connection.execute("PRAGMA max_page_count = \(pages)")
            }
            let big = String(repeating: "z", count: 200_000)
            store.publish(data: Self.userData(2, name: big), for: Self.user("2"), fetched: true)
            let errors = store.takePersistenceErrors()
            #expect(errors.count == 1)
            guard case .diskFull(let path, _)? = errors.first as? SQLiteCacheError else {
                Issue.record("not a full disk: \(errors)")
                return
            }
            #expect(path == url.path)
            // Memory has what the file could not take, and keeps it (it cannot be loaded again).
            for id in 3..<30 { store.publish(data: Self.userData(id), for: Self.user("\(id)")) }
            #expect(store.read(Self.user("2")).data == Self.userData(2, name: big))
            #expect(store.read(Self.user("1")).data == Self.userData(1))
        }
    }

    /// Runs SQL on a cache file, for setting up states a test needs (old records, old fetches).
    static func sql(_ url: URL, _ statement: String) throws {
        let connection = try SQLiteConnection(path: url.path)
        try connection.execute(statement)
    }
}
