import BatonAPI
import BatonStore
import CSQLite
import Foundation

/// A `NormalizedCache` in a SQLite file: WAL journal, one transaction per commit (so a crash
/// leaves whole commits only), a versioned schema, records read on demand in batches, and an
/// optional ``CacheEvictionPolicy``. Besides records it keeps what decides staleness (when each
/// operation was fetched, invalidation marks), so a cache policy answers the same after a
/// restart; never request headers, tokens, variables or optimistic data.
///
/// Several stores may share one file, in one process or several (an app and its extension,
/// two runs of a command-line tool): each commit is one short transaction, readers never wait
/// for writers (WAL), and a writer waits for another's transaction (busy timeout) rather than
/// failing. Before each read and commit a store asks ``changesByOthers()`` (SQLite's
/// `PRAGMA data_version` says whether another connection committed) and lets go of the records
/// others wrote; a write merges its edits over a copy another writer stored since, field by
/// field, rather than overwriting it with what its memory held. See <doc:SharingAndLimits>.
///
/// ```swift
/// let (cache, problem) = SQLiteNormalizedCache.openOrRecover(fileURL: url, eviction: .init(maxBytes: 50 << 20))
/// if let problem { log(problem) }   // an unreadable file was moved aside, not deleted
/// let client = BatonClient(url: serverURL, store: Store(cache: cache))
/// ```
public final class SQLiteNormalizedCache: NormalizedCache, Sendable {
    /// The schema version this Baton writes. Versions 1 (records only), 2 (no write batches) and
    /// 3 (records that hold their ID) are migrated on open.
    public static let schemaVersion = 4
    /// The most records a write may hold for a load of one of them to bring the rest along.
    static let coLoadLimit = 4096
    /// The page size of new cache files (existing files keep theirs).
    static let newFilePageSize = 16384
    static let format = "baton-normalized-cache"

    public let fileURL: URL
    /// What leaves the file, and when.
    public let eviction: CacheEvictionPolicy
    let guarded: Locked<Guarded>
    /// A connection of its own for eviction and trimming, opened when first needed: they run in
    /// short transactions beside the store's loads and writes, never holding the cache's lock.
    let evictor: Locked<SQLiteConnection?> = Locked(nil)

    /// The connection and the write path's reused buffers, behind the cache's lock.
    struct Guarded {
        let connection: SQLiteConnection
        /// Reused by each write for the bytes of its IDs and records.
        let buffer = ByteBuffer()
        let writer = RecordWriter()
        /// Decodes loaded rows, sharing the keys of records of one shape.
        let reader = RecordReader()
        /// Rows that could not be read (they are skipped, and kept in the file).
        var unreadable = 0
        var writesSinceEvictionCheck = 0
        /// Whether ``needsEviction`` should look at the bounds (on open, then every `checkInterval` writes).
        var evictionCheckDue = false
        /// Batches whose records a load has already brought in.
        var coLoaded = Set<Int>()
        /// Sharing the file: `PRAGMA data_version` when ``changesByOthers()`` last looked, and
        /// when the write path last looked.
        var lookVersion = 0
        var writeVersion = 0
        /// The highest write number ``changesByOthers()`` has taken into account.
        var watermark = 0
        /// The highest write number the write path has scanned for others' rows.
        var writeScanMark = 0
        /// This connection's own write numbers above the watermark (not others' changes).
        var ownBatches = Set<Int>()
        /// `clear_count` as last seen: another writer's `clear()` changes it.
        var clearCount = 0
        /// Records other writers stored that the store's memory may hold an older copy of:
        /// a write of one merges its edits over the stored copy.
        var needsMerge = Set<DataID>()
        /// `needsMerge` grew too large: every write merges.
        var mergeAll = false
        /// Records whose stored copy differs from the store's memory after a merge: reported
        /// by the next ``changesByOthers()``.
        var reportAtNextLook = Set<DataID>()
    }

    /// The most IDs remembered as needing a merge before every write merges.
    static let needsMergeLimit = 100_000

    /// Always true: what is written survives the process.
    public var isPersistent: Bool { true }

    /// Rows that could not be decoded when loaded (they read as missing and stay in the file).
    public var unreadableRecordCount: Int { guarded.withLock { $0.unreadable } }

    /// Opens (or creates) the cache at `fileURL`, migrating an older schema. Throws
    /// ``SQLiteCacheError`` for a damaged, foreign, newer or already open file; the file is left as it is.
    /// Opens (or creates) the cache at `fileURL`, migrating an older schema. Other stores, in
    /// this process or another, may have the file open too. Throws ``SQLiteCacheError`` for a
    /// damaged, foreign or newer file, or one another connection keeps locked (an older Baton
    /// holds its file's lock while open); the file is left as it is. With an eviction policy, a
    /// file over its bounds is trimmed by the store's writer, not here (see ``needsEviction``).
    public init(fileURL: URL, eviction: CacheEvictionPolicy = .none) throws(SQLiteCacheError) {
        self.fileURL = fileURL
        self.eviction = eviction
        var state = try Self.open(fileURL.path)
        state.writeVersion = state.lookVersion
        state.writeScanMark = state.watermark
        state.evictionCheckDue = eviction.isActive
        guarded = Locked(state)
    }

    /// Opens the cache, or, when the file cannot be used, moves it (and its `-wal`/`-shm`) aside
    /// as `<name>.unreadable-<time>` and starts a fresh cache. Returns the error that caused the
    /// fresh start, if any. Never throws away the old file and never crashes: if even a fresh
    /// file cannot be made (a read-only folder, a full disk), or another connection keeps the
    /// file locked (an older Baton), the store keeps working with an `InMemoryNormalizedCache`
    /// (nothing persists; the error says why). A file that other stores have open is shared, not
    /// recovered: it opens as usual.
    public static func openOrRecover(fileURL: URL, eviction: CacheEvictionPolicy = .none) -> (
        cache: any NormalizedCache, recoveredFrom: SQLiteCacheError?
    ) {
        do {
            return (try SQLiteNormalizedCache(fileURL: fileURL, eviction: eviction), nil)
        } catch {
            switch error {
            // `alreadyOpen`: another connection keeps the file locked (an older Baton): it is
            // left to it.
            case .alreadyOpen, .cannotOpen, .readOnly, .diskFull:
                // Nothing wrong with the file itself: it stays where it is, untouched.
                return (InMemoryNormalizedCache(), error)
            case .corrupt, .foreign, .unsupportedVersion, .statementFailed:
                break
            }
            let stamp = Int(Date().timeIntervalSince1970 * 1000)
            let manager = FileManager.default
            for suffix in ["", "-wal", "-shm"] {
                let source = URL(fileURLWithPath: fileURL.path + suffix)
                guard manager.fileExists(atPath: source.path) else { continue }
                try? manager.moveItem(at: source, to: URL(fileURLWithPath: fileURL.path + ".unreadable-\(stamp)" + suffix))
            }
            do {
                return (try SQLiteNormalizedCache(fileURL: fileURL, eviction: eviction), error)
            } catch {
                return (InMemoryNormalizedCache(), error)
            }
        }
    }

    // MARK: Schema

    /// Opens the file and reads what the sharing bookkeeping starts from. Two processes opening
    /// a new file at once can meet where SQLite answers busy at once instead of waiting (one
    /// turns the file to WAL while the other reads it; a lock upgrade that would deadlock): the
    /// open is then tried again from the start, for up to ``openRetryLimit``, before the file
    /// counts as locked by another program.
    private static func open(_ path: String) throws(SQLiteCacheError) -> Guarded {
        let deadline = ContinuousClock.now + openRetryLimit
        while true {
            do throws(SQLiteCacheError) {
                return try openOnce(path)
            } catch .alreadyOpen(let path) {
                guard ContinuousClock.now < deadline else { throw .alreadyOpen(path: path) }
                usleep(UInt32.random(in: 20_000...80_000))
            }
        }
    }

    /// How long an open is retried while the file is busy (beyond SQLite's own busy wait of
    /// each statement).
    static let openRetryLimit = Duration.seconds(5)

    private static func openOnce(_ path: String) throws(SQLiteCacheError) -> Guarded {
        let connection = try SQLiteConnection(path: path)
        try Self.prepareSchema(connection, path: path)
        var state = Guarded(connection: connection)
        // What the file holds now is what memory will load: others' changes count from here.
        try connection.execute("BEGIN")
        do throws(SQLiteCacheError) {
            try connection.run("SELECT key, value FROM baton_meta WHERE key IN ('last_batch', 'clear_count')") { row in
                let value = row.text(1).flatMap { Int($0) } ?? 0
                if row.text(0) == "last_batch" { state.watermark = value } else { state.clearCount = value }
            }
            state.lookVersion = try connection.dataVersion()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return state
    }

    private static func prepareSchema(_ connection: SQLiteConnection, path: String) throws(SQLiteCacheError) {
        // Reading the schema is the first access to the file: a non-database fails here.
        var tables = try Self.tables(connection)
        // Statement journals (SQLite's undo for a multi-row statement) stay in memory rather
        // than in a temporary file: a commit is one transaction, rolled back whole on failure.
        try connection.execute("PRAGMA temp_store = MEMORY")
        if tables.isEmpty {
            // Larger pages for a new file: a publish of many records writes a quarter of the
            // WAL frames (each frame is two writes) and fewer records spill to overflow pages.
            // Not larger still: a small publish writes whole pages (64 KB pages measured no
            // clear gain on the GitHub response and would make every one-record write 64 KB).
            try connection.execute("PRAGMA page_size = \(Self.newFilePageSize)")
            try connection.execute("PRAGMA journal_mode = WAL")
            // Another process may be creating the file at the same moment: whoever comes
            // second finds the tables there (`IF NOT EXISTS`, `OR IGNORE`).
            try connection.execute(
                """
                BEGIN IMMEDIATE;
                CREATE TABLE IF NOT EXISTS baton_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                INSERT OR IGNORE INTO baton_meta (key, value) VALUES ('format', '\(Self.format)'), ('version', '\(Self.schemaVersion)'),
                    ('last_batch', '0'), ('clear_count', '0');
                CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, record BLOB\(Self.recordColumnsAddedIn2)\(Self.recordColumnsAddedIn3));
                CREATE TABLE IF NOT EXISTS operations (key TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL, fetched_at REAL NOT NULL);
                CREATE TABLE IF NOT EXISTS invalidations (id TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL);
                CREATE INDEX IF NOT EXISTS records_batch ON records (batch);
                COMMIT;
                """)
            tables = try Self.tables(connection)
        }
        guard tables.contains("baton_meta") else { throw .foreign(path: path) }
        var meta = try Self.meta(connection)
        guard meta["format"] == Self.format, let version = meta["version"].flatMap({ Int($0) }) else {
            throw .foreign(path: path)
        }
        // A newer Baton's file is never written: its schema may mean what this one cannot know.
        guard version <= Self.schemaVersion else { throw .unsupportedVersion(path: path, version: version) }
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        // The WAL goes back to this size after a checkpoint (a large trim or publish grows it).
        try connection.execute("PRAGMA journal_size_limit = \(32 << 20)")
        // No `PRAGMA quick_check` here: it reads the whole file, and opening must cost the same
        // whatever the file holds (200,000 records took 21× the open of 2,000 with it). A damaged
        // page shows up as a typed error when it is read, and its records read as missing.
        if version < Self.schemaVersion || meta["last_batch"] == nil || meta["clear_count"] == nil {
            // Migrations and the sharing bookkeeping, once per file, in one transaction that
            // reads the version again (another process may have migrated meanwhile).
            try connection.transaction { () throws(SQLiteCacheError) in
                meta = try Self.meta(connection)
                let current = meta["version"].flatMap { Int($0) } ?? version
                if current < 2 { try migrateFrom1(connection) }
                if current < 3 { try migrateFrom2(connection) }
                if current < 4 { try migrateFrom3(connection) }
                // Write numbers only grow, whatever is deleted: others' writes are found by them.
                try connection.execute(
                    """
                    INSERT OR IGNORE INTO baton_meta (key, value) SELECT 'last_batch', CAST(coalesce(max(batch), 0) AS TEXT) FROM records;
                    INSERT OR IGNORE INTO baton_meta (key, value) VALUES ('clear_count', '0');
                    """)
            }
        }
    }

    private static func tables(_ connection: SQLiteConnection) throws(SQLiteCacheError) -> [String] {
        var tables: [String] = []
        try connection.run("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        return tables
    }

    private static func meta(_ connection: SQLiteConnection) throws(SQLiteCacheError) -> [String: String] {
        var meta: [String: String] = [:]
        try connection.run("SELECT key, value FROM baton_meta") { row in
            if let key = row.text(0), let value = row.text(1) { meta[key] = value }
        }
        return meta
    }

    /// Columns version 3 adds to `records`: the write that stored each record, numbered from 1
    /// (0: before version 3), and how many records that write stored. A load brings in the rest
    /// of a write's records with the ones it asked for (see ``loadRecords(forKeys:)``).
    private static let recordColumnsAddedIn3 = ", batch INTEGER NOT NULL DEFAULT 0, batch_size INTEGER NOT NULL DEFAULT 0"
    private static let indexesAddedIn3 = "CREATE INDEX records_batch ON records (batch);"

    /// Version 3's records hold their ID; they are kept as they are, and read as before (see
    /// ``RecordWriter``). Records written from now on leave it to the row's `id`.
    private static func migrateFrom3(_ connection: SQLiteConnection) throws(SQLiteCacheError) {
        try connection.execute("UPDATE baton_meta SET value = '4' WHERE key = 'version'")
    }

    /// Version 2's records are kept as they are (a record written before has no batch, and is
    /// loaded alone); their stored form is still read.
    private static func migrateFrom2(_ connection: SQLiteConnection) throws(SQLiteCacheError) {
        try connection.execute(
            """
            ALTER TABLE records ADD COLUMN batch INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE records ADD COLUMN batch_size INTEGER NOT NULL DEFAULT 0;
            \(Self.indexesAddedIn3)
            UPDATE baton_meta SET value = '3' WHERE key = 'version';
            """)
    }

    /// Columns version 2 adds to `records`: when each record was last written and last used
    /// (seconds since 1970), for eviction by age and by least recent use.
    private static let recordColumnsAddedIn2 = ", written_at REAL NOT NULL DEFAULT 0, used_at REAL NOT NULL DEFAULT 0"
    /// Tables version 2 adds: fetch times and invalidation marks.
    private static let tablesAddedIn2 = """
        CREATE TABLE operations (key TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL, fetched_at REAL NOT NULL);
        CREATE TABLE invalidations (id TEXT PRIMARY KEY NOT NULL, epoch INTEGER NOT NULL);
        """

    /// Version 1 held records only. Its records are kept, dated now (their age was not known).
    private static func migrateFrom1(_ connection: SQLiteConnection) throws(SQLiteCacheError) {
        let now = Date().timeIntervalSince1970
        try connection.execute(
            """
            ALTER TABLE records ADD COLUMN written_at REAL NOT NULL DEFAULT 0;
            ALTER TABLE records ADD COLUMN used_at REAL NOT NULL DEFAULT 0;
            UPDATE records SET written_at = \(now), used_at = \(now);
            \(Self.tablesAddedIn2)
            UPDATE baton_meta SET value = '2' WHERE key = 'version';
            """)
    }

    // MARK: Reading

    /// IDs per `IN (…)` list, largest first.
    static let lookupChunks = [256, 32, 4, 1]
    static let selectSQL: [Int: String] = Dictionary(
        uniqueKeysWithValues: lookupChunks.map { rows in
            (
                rows,
                "SELECT id, deleted, record, batch, batch_size, rowid FROM records WHERE id IN ("
                    + Array(repeating: "?", count: rows).joined(separator: ", ") + ")"
            )
        })
    private static let selectBatchSQL = "SELECT id, deleted, record, rowid FROM records WHERE batch = ?"

    /// Reads the rows of `ids` in `IN (…)` batches; rows that cannot be decoded read as missing
    /// (counted in ``unreadableRecordCount``).
    ///
    /// Read-ahead: when two or more of the records asked for were stored by one write of at most
    /// 4,096 records (a server response, typically), the write's other records come back too,
    /// read in one pass over its rows, once per write for the cache's life. A query read from a
    /// cold store, asking for a level of its selection tree, gets the rest of the response with
    /// it, instead of one lookup per record and per level; a query that asks for one record
    /// gets that record.
    public func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] {
        try loadRecords(forKeys: ids, readingAhead: false)
    }

    /// Reads the rows of `ids` as ``loadRecords(forKeys:)`` does; with `readingAhead`, the rest of
    /// the write of any record asked for comes back too (a read two levels into records the
    /// store lacked reads the response it is in), within the same bound of 4,096 records.
    public func loadRecords(forKeys ids: Set<DataID>, readingAhead: Bool) throws -> [DataID: RecordState] {
        guard !ids.isEmpty else { return [:] }
        return try guarded.withLock { state throws(SQLiteCacheError) -> [DataID: RecordState] in
            var found: [DataID: RecordState] = [:]
            found.reserveCapacity(ids.count)
            let keys = Array(ids)
            let reader = state.reader
            var unreadable = 0
            // How many of the rows asked for each write stored, and how many rows it stored, for
            // writes small enough to read ahead.
            var askedPerBatch: [Int: (asked: Int, rows: Int)] = [:]
            var foundRows = Set<Int>()
            try Self.forEachChunk(of: keys.count, sizes: Self.lookupChunks) { first, count throws(SQLiteCacheError) in
                try state.connection.run(
                    Self.selectSQL[count]!,
                    keys[first..<first + count].map { .text($0.rawValue) }
                ) { row in
                    if let (id, recordState) = Self.recordState(of: row, reader) { found[id] = recordState } else { unreadable += 1 }
                    let batch = row.int(3)
                    if batch > 0, (2...Self.coLoadLimit).contains(row.int(4)) {
                        askedPerBatch[batch, default: (0, row.int(4))].asked += 1
                        foundRows.insert(row.int(5))
                    }
                }
            }
            for (batch, (asked, rows)) in askedPerBatch where (asked >= 2 || readingAhead) && state.coLoaded.insert(batch).inserted {
                // Room for the whole write at once, not grown (and rehashed) as it comes.
                found.reserveCapacity(found.count + rows)
                try state.connection.run(Self.selectBatchSQL, [.int(batch)]) { row in
                    // Rows asked for are already decoded.
                    if foundRows.contains(row.int(3)) { return }
                    guard let (id, recordState) = Self.recordState(of: row, reader) else {
                        unreadable += 1
                        return
                    }
                    found[id] = recordState
                }
            }
            state.unreadable += unreadable
            return found
        }
    }

    /// The epoch, the store-wide invalidation, record invalidation marks and fetch times.
    public func loadMetadata() throws -> CacheMetadata {
        try guarded.withLock { state throws(SQLiteCacheError) -> CacheMetadata in try Self.metadata(state.connection) }
    }

    static func metadata(_ connection: SQLiteConnection) throws(SQLiteCacheError) -> CacheMetadata {
        var metadata = CacheMetadata()
        try connection.run("SELECT key, value FROM baton_meta WHERE key IN ('epoch', 'store_invalidated_at')") { row in
            guard let key = row.text(0), let value = row.text(1).flatMap({ Int($0) }) else { return }
            if key == "epoch" { metadata.epoch = value } else { metadata.storeInvalidatedAt = value }
        }
        try connection.run("SELECT id, epoch FROM invalidations") { row in
            if let id = row.text(0) { metadata.invalidatedAt[DataID(id)] = row.int(1) }
        }
        try connection.run("SELECT key, epoch, fetched_at FROM operations") { row in
            if let key = row.text(0) {
                metadata.fetches[key] = OperationFetch(epoch: row.int(1), date: Date(timeIntervalSince1970: row.double(2)))
            }
        }
        try connection.run("SELECT NOT EXISTS (SELECT 1 FROM records)") { row in metadata.holdsNoRecords = row.int(0) != 0 }
        return metadata
    }

    /// A `SELECT id, deleted, record` row as the store knows it; `nil` when it cannot be read
    /// (no ID, or a record that does not decode or, in an older form, names another ID).
    static func recordState(of row: SQLiteConnection.Row, _ reader: RecordReader) -> (DataID, RecordState)? {
        guard let text = row.text(0) else { return nil }
        let id = DataID(text)
        if row.int(1) != 0 { return (id, .deleted) }
        guard let record = row.withBlob(2, { reader.decode($0, id: id) }) else { return nil }
        return (id, .present(record))
    }

    /// Every record in the file, for inspection and tests (a store loads records on demand).
    public func allRecords() throws -> RecordSource {
        try guarded.withLock { state throws(SQLiteCacheError) -> RecordSource in
            var source = RecordSource()
            var unreadable = 0
            let reader = state.reader
            try state.connection.run("SELECT id, deleted, record FROM records") { row in
                if let (id, recordState) = Self.recordState(of: row, reader) { source.replace(id, with: recordState) } else { unreadable += 1 }
            }
            state.unreadable = unreadable
            return source
        }
    }

    /// How many records the file holds.
    public func recordCount() throws -> Int {
        try guarded.withLock { state throws(SQLiteCacheError) -> Int in
            var count = 0
            try state.connection.run("SELECT count(*) FROM records") { row in count = row.int(0) }
            return count
        }
    }

    /// The bytes the file's pages in use take (what ``CacheEvictionPolicy/maxBytes`` bounds).
    public func usedBytes() throws -> Int {
        try guarded.withLock { state throws(SQLiteCacheError) -> Int in try Self.usedBytes(state.connection) }
    }

    static func usedBytes(_ connection: SQLiteConnection) throws(SQLiteCacheError) -> Int {
        var pages = 0
        var free = 0
        var size = 0
        try connection.run("PRAGMA page_count") { row in pages = row.int(0) }
        try connection.run("PRAGMA freelist_count") { row in free = row.int(0) }
        try connection.run("PRAGMA page_size") { row in size = row.int(0) }
        return (pages - free) * size
    }

    // MARK: Writing

    /// Rows per multi-row deletion, largest first: a commit runs as few statements as it can
    /// (most of a small statement's cost is running it, not its row).
    private static let chunkSizes = [128, 16, 1]
    /// Every row of a write in one statement, read from the write's buffer through
    /// `baton_rows(?4)` (see ``PendingRowsTable``); the write's time, batch and size are bound
    /// once. Its `WHERE true` keeps SQLite's parser from reading `ON` as a join's.
    private static let upsertSQL =
        "INSERT INTO records (id, deleted, record, written_at, used_at, batch, batch_size)"
        + " SELECT id, record IS NULL, record, ?1, ?1, ?2, ?3 FROM \(PendingRowsTable.name)(?4)"
        + " WHERE true ON CONFLICT (id) DO UPDATE SET deleted = excluded.deleted, record = excluded.record,"
        + " written_at = excluded.written_at, used_at = excluded.used_at, batch = excluded.batch,"
        + " batch_size = excluded.batch_size"
    private static let nowSQL = "((julianday('now') - 2440587.5) * 86400.0)"
    private static let deleteSQL: [Int: String] = Dictionary(
        uniqueKeysWithValues: chunkSizes.map { rows in
            (rows, "DELETE FROM records WHERE id IN (" + Array(repeating: "?", count: rows).joined(separator: ", ") + ")")
        })
    private static let touchSQL: [Int: String] = Dictionary(
        uniqueKeysWithValues: lookupChunks.map { rows in
            (rows, "UPDATE records SET used_at = \(nowSQL) WHERE id IN (" + Array(repeating: "?", count: rows).joined(separator: ", ") + ")")
        })

    /// Writes one commit in one transaction: records (every ID and record is encoded first, into
    /// one buffer, then bound straight from it with multi-row upserts), reading times, fetch
    /// times, invalidation marks and the epoch; then the eviction policy.
    public func write(_ batch: CacheBatch) throws {
        try write([batch])
    }

    /// Writes consecutive commits in one transaction, all or none, each with a batch number of
    /// its own (read-ahead stays by commit). When another writer stored some of these records
    /// since this store last looked, the commit's edits are merged over the stored copies.
    /// Eviction is not run here: the store's writer runs it (see ``needsEviction``).
    public func write(_ batches: [CacheBatch]) throws {
        guard !batches.isEmpty else { return }
        try guarded.withLock { state throws(SQLiteCacheError) in
            let connection = state.connection
            try connection.transaction { () throws(SQLiteCacheError) in
                try noteOthersWrites(&state)
                for batch in batches { try write(batch, &state) }
            }
            if eviction.isActive {
                state.writesSinceEvictionCheck += batches.count
                if state.writesSinceEvictionCheck >= eviction.checkInterval { state.evictionCheckDue = true }
            }
        }
    }

    /// Inside a write's transaction: when another connection committed since the write path
    /// last looked, the records it stored since then need their next write merged.
    private func noteOthersWrites(_ state: inout Guarded) throws(SQLiteCacheError) {
        let version = try state.connection.dataVersion()
        guard version != state.writeVersion else { return }
        state.writeVersion = version
        let mark = max(state.watermark, state.writeScanMark)
        var highest = mark
        var found: [DataID] = []
        let own = state.ownBatches
        try state.connection.run("SELECT id, batch FROM records WHERE batch > ?", [.int(mark)]) { row in
            let batch = row.int(1)
            highest = max(highest, batch)
            if !own.contains(batch), let id = row.text(0) { found.append(DataID(id)) }
        }
        state.writeScanMark = highest
        Self.needMerge(found, &state)
    }

    /// Remembers that `ids` need their next write merged (all writes merge once too many are).
    static func needMerge(_ ids: some Sequence<DataID>, _ state: inout Guarded) {
        guard !state.mergeAll else { return }
        state.needsMerge.formUnion(ids)
        if state.needsMerge.count > needsMergeLimit {
            state.mergeAll = true
            state.needsMerge.removeAll()
        }
    }

    /// The next write number: one more than any write of any connection (kept in `baton_meta`,
    /// so numbers only grow whatever is deleted).
    private func nextBatchNumber(_ connection: SQLiteConnection) throws(SQLiteCacheError) -> Int {
        var last = 0
        try connection.run("SELECT value FROM baton_meta WHERE key = 'last_batch'") { row in last = row.text(0).flatMap { Int($0) } ?? 0 }
        try connection.run("UPDATE baton_meta SET value = ? WHERE key = 'last_batch'", [.text(String(last + 1))])
        return last + 1
    }

    /// The records `batch` writes, with its edits merged over the stored copies of those
    /// another writer stored since this store's memory had them. A merged record whose result
    /// differs from the store's memory is reported by the next ``changesByOthers()``.
    /// `nil` when there is nothing to merge: the batch's records are written as they are.
    private func mergedRecords(_ batch: CacheBatch, _ state: inout Guarded) throws(SQLiteCacheError) -> [DataID: RecordState?]? {
        guard state.mergeAll || !state.needsMerge.isEmpty else { return nil }
        var candidates: [DataID] = []
        batch.forEachRecord { id, recordState in
            if recordState != nil && (state.mergeAll || state.needsMerge.contains(id)) { candidates.append(id) }
        }
        guard !candidates.isEmpty else { return nil }
        var stored: [DataID: RecordState] = [:]
        let reader = state.reader
        try Self.forEachChunk(of: candidates.count, sizes: Self.lookupChunks) { first, count throws(SQLiteCacheError) in
            try state.connection.run(Self.selectSQL[count]!, candidates[first..<first + count].map { .text($0.rawValue) }) { row in
                if let (id, recordState) = Self.recordState(of: row, reader) { stored[id] = recordState }
            }
        }
        var records = batch.records
        for id in candidates {
            guard let mine = batch.recordState(of: id) ?? nil else { continue }
            let edit = batch.edit(of: id)
            let result: RecordState?
            switch (edit, stored[id]) {
            case (nil, let theirs?):
                // This commit did not edit it (an invalidation): the stored copy stays.
                result = theirs
                records[id] = nil
            case (.present(let edits)?, .present(let theirs)?):
                // Field ages merge field by field: the other writer's dates of fields this
                // commit does not write stay.
                result = .present(FieldAges.layered(edits, over: theirs))
                records[id] = .some(result)
            default:
                result = mine
            }
            if result != mine {
                state.reportAtNextLook.insert(id)
            } else {
                state.needsMerge.remove(id)
            }
        }
        return records
    }

    /// One commit's rows and bookkeeping, inside the caller's transaction.
    private func write(_ batch: CacheBatch, _ state: inout Guarded) throws(SQLiteCacheError) {
        let buffer = state.buffer
        // Emptied after each write; a large commit's bytes are not kept for the cache's life.
        defer { buffer.removeAll(keepingUpTo: 4 << 20) }
        let merged = try mergedRecords(batch, &state)
        var rows: [PendingRow] = []
        rows.reserveCapacity(merged?.count ?? batch.recordCount)
        var forgotten: [Range<Int>] = []
        func encode(_ id: DataID, _ recordState: RecordState?) {
            let idStart = buffer.count
            buffer.append(id.rawValue)
            let idRange = idStart..<buffer.count
            switch recordState {
            case nil:
                forgotten.append(idRange)
            case .deleted?:
                rows.append(PendingRow(id: idRange, record: nil))
            case .present(let record)?:
                let recordStart = buffer.count
                state.writer.write(record, into: buffer)
                rows.append(PendingRow(id: idRange, record: recordStart..<buffer.count))
            }
        }
        if let merged {
            for (id, recordState) in merged { encode(id, recordState) }
        } else {
            batch.forEachRecord(encode)
        }
        // The buffer does not move from here on: its bytes are bound without copies.
        let base = UnsafeRawPointer(buffer.start)
        // In ID order, the primary key's B-tree grows at its right edge: full pages, no splits,
        // fewer pages for the WAL to take.
        var keys = rows.indices.map { index in
            ByteStringSort.Key(
                bytes: base.advanced(by: rows[index].id.lowerBound).assumingMemoryBound(to: UInt8.self), count: rows[index].id.count,
                index: index)
        }
        ByteStringSort.sort(&keys)
        // In memory that does not move while SQLite reads it through `baton_rows`.
        let ordered = UnsafeMutableBufferPointer<PendingRow>.allocate(capacity: rows.count)
        defer { ordered.deallocate() }
        for (position, key) in keys.enumerated() { ordered.initializeElement(at: position, to: rows[key.index]) }
        let pending = UnsafeMutablePointer<PendingRows>.allocate(capacity: 1)
        pending.initialize(to: PendingRows(base: base, rows: UnsafeBufferPointer(ordered)))
        defer { pending.deallocate() }
        let touched = batch.readIDs.filter { batch.recordState(of: $0) == nil }.map(\.rawValue)
        let connection = state.connection
        // The rows of this write share a batch number, for read-ahead (see `loadRecords`) and
        // for other writers to find them.
        var writeNumber = 0
        if !rows.isEmpty {
            writeNumber = try nextBatchNumber(connection)
            state.ownBatches.insert(writeNumber)
        }
        let now = Date().timeIntervalSince1970
        do {
            if !rows.isEmpty {
                try connection.run(Self.upsertSQL) { statement, index in
                    switch index {
                    case 1: return sqlite3_bind_double(statement, index, now)
                    case 2: return sqlite3_bind_int64(statement, index, Int64(writeNumber))
                    case 3: return sqlite3_bind_int64(statement, index, Int64(rows.count))
                    default: return sqlite3_bind_pointer(statement, index, pending, PendingRowsTable.pointerType, nil)
                    }
                }
            }
            try Self.forEachChunk(of: forgotten.count, sizes: Self.chunkSizes) { first, count throws(SQLiteCacheError) in
                try connection.run(Self.deleteSQL[count]!) { statement, index in
                    let id = forgotten[first + Int(index - 1)]
                    return sqlite3_bind_text(
                        statement, index, base.advanced(by: id.lowerBound).assumingMemoryBound(to: CChar.self), Int32(id.count),
                        SQLITE_STATIC)
                }
            }
            try Self.forEachChunk(of: touched.count, sizes: Self.lookupChunks) { first, count throws(SQLiteCacheError) in
                try connection.run(Self.touchSQL[count]!, touched[first..<first + count].map { .text($0) })
            }
            try writeMetadata(batch, connection)
        }
    }

    private func writeMetadata(_ batch: CacheBatch, _ connection: SQLiteConnection) throws(SQLiteCacheError) {
        for (key, fetch) in batch.fetches {
            if let fetch {
                try connection.run(
                    "INSERT INTO operations (key, epoch, fetched_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET epoch = excluded.epoch, fetched_at = excluded.fetched_at",
                    [.text(key), .int(fetch.epoch), .real(fetch.date.timeIntervalSince1970)])
            } else {
                try connection.run("DELETE FROM operations WHERE key = ?", [.text(key)])
            }
        }
        for id in batch.invalidatedRecords {
            try connection.run(
                "INSERT INTO invalidations (id, epoch) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET epoch = max(epoch, excluded.epoch)",
                [.text(id.rawValue), .int(batch.epoch)])
        }
        if batch.invalidatesStore {
            try connection.run(
                "INSERT INTO baton_meta (key, value) VALUES ('store_invalidated_at', ?) ON CONFLICT (key) DO UPDATE SET value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)",
                [.text(String(batch.epoch))])
        }
        try connection.run(
            // The newest epoch of any store sharing the file (each adopts it when it looks).
            "INSERT INTO baton_meta (key, value) VALUES ('epoch', ?) ON CONFLICT (key) DO UPDATE SET value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)",
            [.text(String(batch.epoch))])
    }

    /// Removes every record, fetch time and invalidation mark in one transaction (other stores
    /// sharing the file see it as a clear, and drop what they hold).
    public func clear() throws {
        try guarded.withLock { state throws(SQLiteCacheError) in
            let connection = state.connection
            var clearCount = 0
            try connection.transaction { () throws(SQLiteCacheError) in
                try connection.execute(
                    """
                    DELETE FROM records;
                    DELETE FROM operations;
                    DELETE FROM invalidations;
                    DELETE FROM baton_meta WHERE key = 'store_invalidated_at';
                    UPDATE baton_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'clear_count';
                    """)
                try connection.run("SELECT value FROM baton_meta WHERE key = 'clear_count'") { row in
                    clearCount = row.text(0).flatMap { Int($0) } ?? 0
                }
            }
            state.clearCount = clearCount
            // Nothing stored is newer than memory now.
            state.needsMerge.removeAll()
            state.mergeAll = false
            state.coLoaded.removeAll()
        }
    }

    /// Runs `body` with the connection under the cache's lock (tests set up states with it).
    func guardedConnection(_ body: (SQLiteConnection) throws -> Void) throws {
        try guarded.withLock { state in try body(state.connection) }
    }

    /// Calls `body(first, count)` over `0..<total` in chunks of the largest of `sizes` that fit.
    static func forEachChunk(
        of total: Int, sizes: [Int], _ body: (Int, Int) throws(SQLiteCacheError) -> Void
    ) throws(SQLiteCacheError) {
        var next = 0
        while next < total {
            let chunk = sizes.first { $0 <= total - next }!
            try body(next, chunk)
            next += chunk
        }
    }
}

