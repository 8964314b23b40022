import BatonAPI
import BatonStore
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
    /// fresh start, if any. Never throws away the old file and never crashes; if even a fresh
    /// file cannot be made, falls back to a cache in `:memory:`.
    public static func openOrRecover(fileURL: URL) -> (cache: SQLiteNormalizedCache, recoveredFrom: SQLiteCacheError?) {
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
            if let fresh = try? SQLiteNormalizedCache(fileURL: fileURL) { return (fresh, error) }
            // The folder is not writable: keep working in memory.
            return ((try? SQLiteNormalizedCache(fileURL: URL(fileURLWithPath: ":memory:")))!, error)
        }
    }

    private func prepareSchema() throws(SQLiteCacheError) {
        // Reading the schema is the first access to the file: a non-database fails here.
        var tables: [String] = []
        try connection.run("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        if tables.isEmpty {
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

    public func write(_ changes: [DataID: RecordState?]) throws {
        guard !changes.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            do throws(SQLiteCacheError) {
                // One buffer for every record's bytes.
                var bytes: [UInt8] = []
                for (id, state) in changes {
                    switch state {
                    case nil:
                        try connection.run("DELETE FROM records WHERE id = ?", [.text(id.rawValue)])
                    case .deleted?:
                        try connection.run(
                            "INSERT OR REPLACE INTO records (id, deleted, record) VALUES (?, 1, NULL)", [.text(id.rawValue)])
                    case .present(let record)?:
                        bytes.removeAll(keepingCapacity: true)
                        RecordCoding.encode(record, into: &bytes)
                        try connection.run(
                            "INSERT OR REPLACE INTO records (id, deleted, record) VALUES (?, 0, ?)", [.text(id.rawValue), .blob(bytes)])
                    }
                }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func clear() throws {
        lock.lock()
        defer { lock.unlock() }
        try connection.execute("DELETE FROM records")
    }
}
