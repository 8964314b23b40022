import BatonAPI
import BatonStore
import CSQLite
import Foundation

/// A ``NormalizedCache`` in a SQLite file: WAL journal, one transaction per publish (so a crash
/// leaves whole publishes only), and a versioned schema. It stores records only: never request
/// headers, tokens or variables.
///
/// ```swift
/// let (cache, problem) = SQLiteNormalizedCache.openOrRecover(fileURL: url)
/// if let problem { log(problem) }   // the unreadable file was moved aside, not deleted
/// let client = BatonClient(url: serverURL, store: Store(cache: cache))
/// ```
public final class SQLiteNormalizedCache: NormalizedCache, @unchecked Sendable {
    /// The schema version this Baton writes.
    public static let schemaVersion = 1
    /// The page size of new cache files (existing files keep theirs).
    static let newFilePageSize = 16384
    static let format = "baton-normalized-cache"

    public let fileURL: URL
    private let connection: SQLiteConnection
    private let lock = NSLock()
    /// Rows that could not be read at load time (they are skipped, and kept in the file).
    public private(set) var unreadableRecordCount = 0

    /// Opens (or creates) the cache at `fileURL`. Throws ``SQLiteCacheError`` for a damaged,
    /// foreign or newer file; the file is left as it is.
    public init(fileURL: URL) throws(SQLiteCacheError) {
        self.fileURL = fileURL
        connection = try SQLiteConnection(path: fileURL.path)
        try prepareSchema()
    }

    /// Opens the cache, or, when the file cannot be used, moves it (and its `-wal`/`-shm`) aside
    /// as `<name>.unreadable-<time>` and starts a fresh cache. Returns the error that caused the
    /// fresh start, if any. Never throws away the old file and never crashes: if even a fresh
    /// file cannot be made (a read-only folder, a full disk), the store keeps working with an
    /// ``InMemoryNormalizedCache`` (nothing persists; the error says why).
    public static func openOrRecover(fileURL: URL) -> (cache: any NormalizedCache, recoveredFrom: SQLiteCacheError?) {
        do {
            return (try SQLiteNormalizedCache(fileURL: fileURL), nil)
        } catch {
            let stamp = Int(Date().timeIntervalSince1970 * 1000)
            let manager = FileManager.default
            for suffix in ["", "-wal", "-shm"] {
                let source = URL(fileURLWithPath: fileURL.path + suffix)
                guard manager.fileExists(atPath: source.path) else { continue }
                try? manager.moveItem(at: source, to: URL(fileURLWithPath: fileURL.path + ".unreadable-\(stamp)" + suffix))
            }
            do {
                return (try SQLiteNormalizedCache(fileURL: fileURL), error)
            } catch let freshError {
                // Not even a fresh file: keep working in memory. Report the first problem
                // unless only the fresh file failed (the old one could not be opened either).
                if case .cannotOpen = error { return (InMemoryNormalizedCache(), freshError) }
                return (InMemoryNormalizedCache(), error)
            }
        }
    }

    private func prepareSchema() throws(SQLiteCacheError) {
        // Reading the schema is the first access to the file: a non-database fails here.
        var tables: [String] = []
        try connection.run("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        // Statement journals (SQLite's undo for a multi-row statement) stay in memory rather
        // than in a temporary file: a publish is one transaction, rolled back whole on failure.
        try connection.execute("PRAGMA temp_store = MEMORY")
        if tables.isEmpty {
            // Larger pages for a new file: a publish of many records writes a quarter of the
            // WAL frames (each frame is two writes) and fewer records spill to overflow pages.
            // Not larger still: a small publish writes whole pages (64 KB pages measured no
            // clear gain on the GitHub response and would make every one-record write 64 KB).
            try connection.execute("PRAGMA page_size = \(Self.newFilePageSize)")
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute(
                """
                BEGIN IMMEDIATE;
                CREATE TABLE baton_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                INSERT INTO baton_meta (key, value) VALUES ('format', '\(Self.format)'), ('version', '\(Self.schemaVersion)');
                CREATE TABLE records (id TEXT PRIMARY KEY NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, record BLOB);
                COMMIT;
                """)
            try connection.execute("PRAGMA synchronous = NORMAL")
            return
        }
        guard tables.contains("baton_meta") else { throw .foreign(path: fileURL.path) }
        var meta: [String: String] = [:]
        try connection.run("SELECT key, value FROM baton_meta") { row in
            if let key = row.text(0), let value = row.text(1) { meta[key] = value }
        }
        guard meta["format"] == Self.format, let version = meta["version"].flatMap({ Int($0) }) else {
            throw .foreign(path: fileURL.path)
        }
        guard version <= Self.schemaVersion else { throw .unsupportedVersion(path: fileURL.path, version: version) }
        // Version 1 is the first schema: later versions migrate here, one step at a time.
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        // A damaged page shows up here rather than in the middle of the app's work.
        var integrity = "ok"
        try connection.run("PRAGMA quick_check") { row in integrity = row.text(0) ?? "unknown" }
        guard integrity == "ok" else { throw .corrupt(path: fileURL.path, message: integrity) }
    }

    public func loadRecords() throws -> RecordSource {
        lock.lock()
        defer { lock.unlock() }
        do {
            var source = RecordSource()
            var unreadable = 0
            try connection.run("SELECT id, deleted, record FROM records") { row in
                guard let id = row.text(0) else {
                    unreadable += 1
                    return
                }
                if row.int(1) != 0 {
                    source.delete(DataID(id))
                } else if let record = try? RecordCoding.decode(row.blob(2)), record.id.rawValue == id {
                    source.set(record)
                } else {
                    unreadable += 1
                }
            }
            unreadableRecordCount = unreadable
            return source
        }
    }

    /// Reused by each write for the bytes of its IDs and records (guarded by `lock`).
    private let buffer = ByteBuffer()
    private var writer = RecordWriter()

    /// Where a row's values lie in `buffer`: its ID, and its record (`nil` for a deletion).
    private struct PendingRow {
        var id: Range<Int>
        var record: Range<Int>?
    }

    /// Rows per multi-row statement, largest first: a publish runs as few statements as it
    /// can (most of a small statement's cost is running it, not its row).
    private static let chunkSizes = [128, 16, 1]
    private static let upsertSQL: [Int: String] = Dictionary(
        uniqueKeysWithValues: chunkSizes.map { rows in
            (
                rows,
                "INSERT INTO records (id, deleted, record) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
                    + " ON CONFLICT (id) DO UPDATE SET deleted = excluded.deleted, record = excluded.record"
            )
        })
    private static let deleteSQL: [Int: String] = Dictionary(
        uniqueKeysWithValues: chunkSizes.map { rows in
            (rows, "DELETE FROM records WHERE id IN (" + Array(repeating: "?", count: rows).joined(separator: ", ") + ")")
        })

    /// Writes one publish in one transaction. Every ID and record is encoded first, into one
    /// buffer, outside the transaction; then the rows go in with multi-row upserts, bound
    /// straight from the buffer (no copies).
    public func write(_ changes: [DataID: RecordState?]) throws {
        guard !changes.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        // Emptied after each write; a large publish's bytes are not kept for the cache's life.
        defer { buffer.removeAll(keepingUpTo: 4 << 20) }
        var rows: [PendingRow] = []
        rows.reserveCapacity(changes.count)
        var forgotten: [Range<Int>] = []
        for (id, state) in changes {
            let idStart = buffer.count
            buffer.append(id.rawValue)
            let idRange = idStart..<buffer.count
            switch state {
            case nil:
                forgotten.append(idRange)
            case .deleted?:
                rows.append(PendingRow(id: idRange, record: nil))
            case .present(let record)?:
                let recordStart = buffer.count
                writer.write(record, into: buffer)
                rows.append(PendingRow(id: idRange, record: recordStart..<buffer.count))
            }
        }
        // The buffer does not move from here on: its bytes are bound without copies.
        let base = UnsafeRawPointer(buffer.start)
        // In ID order, the primary key's B-tree grows at its right edge: full pages, no splits,
        // fewer pages for the WAL to take.
        rows.sort { left, right in
            let common = min(left.id.count, right.id.count)
            let order = memcmp(base.advanced(by: left.id.lowerBound), base.advanced(by: right.id.lowerBound), common)
            return order != 0 ? order < 0 : left.id.count < right.id.count
        }
        let connection = self.connection
        try connection.transaction { () throws(SQLiteCacheError) in
            var next = 0
            while next < rows.count {
                let chunk = Self.chunkSizes.first { $0 <= rows.count - next }!
                let first = next
                try connection.run(Self.upsertSQL[chunk]!) { statement, index in
                    let row = rows[first + Int(index - 1) / 3]
                    switch (index - 1) % 3 {
                    case 0:
                        return sqlite3_bind_text(
                            statement, index, base.advanced(by: row.id.lowerBound).assumingMemoryBound(to: CChar.self),
                            Int32(row.id.count), SQLITE_STATIC)
                    case 1:
                        return sqlite3_bind_int(statement, index, row.record == nil ? 1 : 0)
                    default:
                        guard let record = row.record else { return sqlite3_bind_null(statement, index) }
                        return sqlite3_bind_blob(statement, index, base.advanced(by: record.lowerBound), Int32(record.count), SQLITE_STATIC)
                    }
                }
                next += chunk
            }
            next = 0
            while next < forgotten.count {
                let chunk = Self.chunkSizes.first { $0 <= forgotten.count - next }!
                let first = next
                try connection.run(Self.deleteSQL[chunk]!) { statement, index in
                    let id = forgotten[first + Int(index - 1)]
                    return sqlite3_bind_text(
                        statement, index, base.advanced(by: id.lowerBound).assumingMemoryBound(to: CChar.self), Int32(id.count),
                        SQLITE_STATIC)
                }
                next += chunk
            }
        }
    }

    public func clear() throws {
        lock.lock()
        defer { lock.unlock() }
        try connection.execute("DELETE FROM records")
    }
}
