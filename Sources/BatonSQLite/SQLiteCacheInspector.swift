import BatonAPI
import BatonStore
import Foundation

/// Reads a cache file without ever changing it: the connection is opened with
/// `SQLITE_OPEN_READONLY`, no migration runs and nothing is written (an app may have the file
/// open meanwhile). What the `baton-cache` command shows: ``statistics(now:maxAge:)``, a record with what
/// links to it (``record(_:)``, ``referrers(of:)``), the whole file as JSON (``dump(_:)``).
///
/// A file that is not a database, or is damaged, is ``SQLiteCacheError/corrupt(path:message:)``;
/// one of a newer Baton, ``SQLiteCacheError/unsupportedVersion(path:version:)``; a SQLite
/// database that is not a Baton cache, ``SQLiteCacheError/foreign(path:)``.
public final class SQLiteCacheInspector: Sendable {
    /// The file inspected.
    public let fileURL: URL
    /// The file's schema version (1 to ``SQLiteNormalizedCache/schemaVersion``).
    public let schemaVersion: Int
    private let connection: Locked<SQLiteConnection>

    /// Opens the file read-only and checks it is a Baton cache this Baton can read.
    public init(fileURL: URL) throws(SQLiteCacheError) {
        self.fileURL = fileURL
        let path = fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw .cannotOpen(path: path, message: "no such file") }
        let connection = try SQLiteConnection(path: path, readOnly: true)
        var tables: [String] = []
        try connection.run("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        guard tables.contains("baton_meta"), tables.contains("records") else { throw .foreign(path: path) }
        var meta: [String: String] = [:]
        try connection.run("SELECT key, value FROM baton_meta") { row in
            if let key = row.text(0), let value = row.text(1) { meta[key] = value }
        }
        guard meta["format"] == SQLiteNormalizedCache.format, let version = meta["version"].flatMap({ Int($0) }) else {
            throw .foreign(path: path)
        }
        guard version <= SQLiteNormalizedCache.schemaVersion else { throw .unsupportedVersion(path: path, version: version) }
        schemaVersion = version
        self.connection = Locked(connection)
    }

    /// Column expressions that older schemas lack.
    private var writtenAt: String { schemaVersion >= 2 ? "written_at" : "NULL" }
    private var usedAt: String { schemaVersion >= 2 ? "used_at" : "NULL" }
    private var batch: String { schemaVersion >= 3 ? "batch" : "0" }

    /// Counts over the whole file: records by type with the bytes they take, the oldest and
    /// newest writes, and what is stale at `now`: records marked invalid, and records with a
    /// field past its max age. The file keeps when each field was received and, when its
    /// response's `Cache-Control: max-age` said so, when it expires (`__ages`); the max ages of
    /// the schema's `@cacheControl` and the client's `CacheFreshness` are not in the file, so
    /// `maxAge`, when given, stands for them: a field received longer ago than that is past it
    /// (as for a store whose `CacheFreshness.defaultMaxAge` it is). Fields no response dated
    /// do not count (their max age, if any, is unknown here). Runs SQLite's `quick_check`
    /// first: a damaged file is ``SQLiteCacheError/corrupt(path:message:)``, not figures.
    public func statistics(now: Date = Date(), maxAge: Duration? = nil) throws(SQLiteCacheError) -> CacheStatistics {
        let path = fileURL.path
        let now = now.timeIntervalSince1970
        let maxAgeSeconds = maxAge?.seconds
        let writtenAt = self.writtenAt
        let version = schemaVersion
        return try connection.withLock { connection throws(SQLiteCacheError) -> CacheStatistics in
            var problems: [String] = []
            try connection.run("PRAGMA quick_check") { row in
                if let line = row.text(0), line != "ok" { problems.append(line) }
            }
            if !problems.isEmpty { throw .corrupt(path: path, message: problems.prefix(3).joined(separator: "; ")) }
            var statistics = CacheStatistics()
            let reader = RecordReader()
            var invalidated = Set<String>()
            if version >= 2 {
                try connection.run("SELECT id FROM invalidations") { row in if let id = row.text(0) { invalidated.insert(id) } }
            }
            try connection.run("SELECT id, deleted, record, \(writtenAt), length(id) + coalesce(length(record), 0) FROM records") { row in
                let bytes = row.int(4)
                statistics.storedBytes += bytes
                let isInvalidated = row.text(0).map { invalidated.contains($0) } ?? false
                if isInvalidated { statistics.invalidatedRecords += 1 }
                if version >= 2 {
                    let written = Date(timeIntervalSince1970: row.double(3))
                    if statistics.oldestWrite.map({ written < $0 }) ?? true { statistics.oldestWrite = written }
                    if statistics.newestWrite.map({ written > $0 }) ?? true { statistics.newestWrite = written }
                }
                if row.int(1) != 0 {
                    statistics.deletedRecords += 1
                    if isInvalidated { statistics.staleRecords += 1 }
                    return
                }
                guard let id = row.text(0), let record = row.withBlob(2, { reader.decode($0, id: DataID(id)) }) else {
                    statistics.unreadableRecords += 1
                    if isInvalidated { statistics.staleRecords += 1 }
                    return
                }
                statistics.records += 1
                let isExpired = Self.hasFieldPastItsMaxAge(record, now: now, maxAge: maxAgeSeconds)
                if isExpired { statistics.expiredRecords += 1 }
                if isInvalidated || isExpired { statistics.staleRecords += 1 }
                let type = record.typename ?? "(no typename)"
                statistics.byType[type, default: CacheStatistics.TypeFigures()].records += 1
                statistics.byType[type, default: CacheStatistics.TypeFigures()].bytes += bytes
            }
            if version >= 2 {
                var storeInvalidatedAt: Int?
                try connection.run("SELECT value FROM baton_meta WHERE key = 'store_invalidated_at'") { row in
                    storeInvalidatedAt = row.text(0).flatMap { Int($0) }
                }
                try connection.run("SELECT epoch FROM operations") { row in
                    statistics.operations += 1
                    if let storeInvalidatedAt, row.int(0) <= storeInvalidatedAt { statistics.staleOperations += 1 }
                }
            }
            statistics.usedBytes = try SQLiteNormalizedCache.usedBytes(connection)
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            statistics.fileBytes = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            return statistics
        }
    }

    /// Whether a field of `record` is past its max age at `now` (seconds since 1970): its
    /// response's expiry has come, or it was received at least `maxAge` seconds ago. As the
    /// store measures it: a field goes stale the moment its time comes.
    static func hasFieldPastItsMaxAge(_ record: Record, now: Double, maxAge: Double?) -> Bool {
        guard let ages = record.fields[FieldAges.key]?.scalarValue?.objectValue else { return false }
        for storageKey in ages.keys {
            guard let age = FieldAges.age(of: storageKey, in: record) else { continue }
            if let expires = age.expiresAt, expires <= now { return true }
            if let maxAge, age.receivedAt + maxAge <= now { return true }
        }
        return false
    }

    /// One stored record with what the file keeps beside it, or `nil` when the file does not
    /// hold `id`.
    public func record(_ id: DataID) throws(SQLiteCacheError) -> StoredRecord? {
        let sql = "SELECT deleted, record, \(writtenAt), \(usedAt), \(batch), length(id) + coalesce(length(record), 0) FROM records WHERE id = ?"
        let version = schemaVersion
        return try connection.withLock { connection throws(SQLiteCacheError) -> StoredRecord? in
            var found: StoredRecord?
            try connection.run(sql, [.text(id.rawValue)]) { row in
                var stored = StoredRecord(id: id, state: nil, bytes: row.int(5))
                if row.int(0) != 0 {
                    stored.state = .deleted
                } else if let record = row.withBlob(1, { RecordReader().decode($0, id: id) }) {
                    stored.state = .present(record)
                }
                if version >= 2 {
                    stored.writtenAt = Date(timeIntervalSince1970: row.double(2))
                    stored.usedAt = Date(timeIntervalSince1970: row.double(3))
                }
                stored.write = row.int(4)
                found = stored
            }
            if found != nil, version >= 2 {
                try connection.run("SELECT epoch FROM invalidations WHERE id = ?", [.text(id.rawValue)]) { row in
                    found?.invalidatedAtEpoch = row.int(0)
                }
            }
            return found
        }
    }

    /// The records with a field that links to `id` (directly or in a list), with those
    /// fields' storage keys, in ID order. Reads every record.
    public func referrers(of id: DataID) throws(SQLiteCacheError) -> [(id: DataID, fields: [String])] {
        try connection.withLock { connection throws(SQLiteCacheError) -> [(id: DataID, fields: [String])] in
            let reader = RecordReader()
            var found: [(id: DataID, fields: [String])] = []
            try connection.run("SELECT id, record FROM records WHERE deleted = 0") { row in
                guard let rowID = row.text(0), let record = row.withBlob(1, { reader.decode($0, id: DataID(rowID)) }) else { return }
                let fields = record.fields.filter { Self.links($0.value, to: id) }.map(\.key).sorted()
                if !fields.isEmpty { found.append((record.id, fields)) }
            }
            return found.sorted { $0.id.rawValue < $1.id.rawValue }
        }
    }

    private static func links(_ value: RecordValue, to id: DataID) -> Bool {
        switch value {
        case .scalar, .fieldErrors: return false
        case .link(let linked): return linked == id
        case .list(let items): return items.contains { links($0, to: id) }
        case .embedded(_, let fields): return fields.values.contains { links($0, to: id) }
        }
    }

    /// Writes the whole file as one JSON object, in pieces (a large file is never held in
    /// memory): `{"format", "version", "records": [...], "operations": {...},
    /// "invalidations": {...}, "meta": {...}}`. Each record is in the stored JSON form
    /// (`{"__id", "__typename", "fields"}`, a link `{"__ref": id}`, a list `{"__list": […]}`, a
    /// scalar `{"v": value}`) with `"writtenAt"`, `"usedAt"` (seconds since 1970) and
    /// `"write"` beside it; a deletion is `{"__id": id, "deleted": true}`; a row that cannot be
    /// read is `{"__id": id, "unreadable": true}`.
    public func dump(_ write: (String) -> Void) throws(SQLiteCacheError) {
        // The row callbacks are optional closures (escaping to the compiler); none outlives this call.
        try withoutActuallyEscaping(write) { write throws(SQLiteCacheError) in try dump(writingTo: write) }
    }

    private func dump(writingTo write: @escaping (String) -> Void) throws(SQLiteCacheError) {
        let sql = "SELECT id, deleted, record, \(writtenAt), \(usedAt), \(batch) FROM records ORDER BY id"
        let version = schemaVersion
        try connection.withLock { connection throws(SQLiteCacheError) in
            write("{\"format\":\(Self.json(SQLiteNormalizedCache.format)),\"version\":\(version),\"records\":[")
            let reader = RecordReader()
            var first = true
            try connection.run(sql) { row in
                var line = first ? "\n" : ",\n"
                first = false
                let id = row.text(0) ?? ""
                if row.int(1) != 0 {
                    line += "{\"__id\":\(Self.json(id)),\"deleted\":true"
                } else if let record = row.withBlob(2, { reader.decode($0, id: DataID(id)) }) {
                    var bytes = RecordCoding.encode(record)
                    bytes.removeLast()  // the closing brace: the columns go beside the fields
                    line += String(decoding: bytes, as: UTF8.self)
                } else {
                    line += "{\"__id\":\(Self.json(id)),\"unreadable\":true"
                }
                if version >= 2 { line += ",\"writtenAt\":\(row.double(3)),\"usedAt\":\(row.double(4))" }
                line += ",\"write\":\(row.int(5))}"
                write(line)
            }
            /// Each row of `sql` as one member of a JSON object, commas between them.
            func members(_ sql: String, _ member: @escaping (SQLiteConnection.Row) -> String) throws(SQLiteCacheError) {
                var first = true
                try connection.run(sql) { row in
                    write((first ? "" : ",") + member(row))
                    first = false
                }
            }
            write("\n],\"operations\":{")
            if version >= 2 {
                try members("SELECT key, epoch, fetched_at FROM operations ORDER BY key") { row in
                    "\(Self.json(row.text(0) ?? "")):{\"epoch\":\(row.int(1)),\"fetchedAt\":\(row.double(2))}"
                }
            }
            write("},\"invalidations\":{")
            if version >= 2 {
                try members("SELECT id, epoch FROM invalidations ORDER BY id") { row in "\(Self.json(row.text(0) ?? "")):\(row.int(1))" }
            }
            write("},\"meta\":{")
            try members("SELECT key, value FROM baton_meta WHERE key NOT IN ('format', 'version') ORDER BY key") { row in
                "\(Self.json(row.text(0) ?? "")):\(Self.json(row.text(1) ?? ""))"
            }
            write("}}\n")
        }
    }

    private static func json(_ string: String) -> String { JSONValue.string(string).serializedString() }
}

/// Figures over a cache file (``SQLiteCacheInspector/statistics(now:maxAge:)``).
public struct CacheStatistics: Sendable, Hashable {
    /// Records and their bytes, for one type.
    public struct TypeFigures: Sendable, Hashable {
        /// How many records of the type the file holds.
        public var records = 0
        /// The bytes their IDs and stored forms take.
        public var bytes = 0
    }

    /// Records the file holds (deletions and unreadable rows not counted).
    public var records = 0
    /// Rows that mark a record deleted.
    public var deletedRecords = 0
    /// Rows whose record cannot be decoded (a store reads them as missing).
    public var unreadableRecords = 0
    /// Records and bytes by `__typename`.
    public var byType: [String: TypeFigures] = [:]
    /// The bytes every row's ID and stored record take.
    public var storedBytes = 0
    /// The bytes of the file's pages in use (what ``CacheEvictionPolicy/maxBytes`` bounds).
    public var usedBytes = 0
    /// The size of the file (without its WAL).
    public var fileBytes = 0
    /// The oldest record write (`nil` for an empty file or a version 1 file).
    public var oldestWrite: Date?
    /// The newest record write (`nil` for an empty file or a version 1 file).
    public var newestWrite: Date?
    /// Rows that are stale: marked invalid, or a record with a field past its max age (each
    /// counted once).
    public var staleRecords = 0
    /// Rows marked invalid (`invalidateRecord`): a query that reads one is stale.
    public var invalidatedRecords = 0
    /// Records with a field past its max age at the time the figures were taken: its
    /// response's `Cache-Control: max-age` ran out, or it is older than the `maxAge` given to
    /// ``SQLiteCacheInspector/statistics(now:maxAge:)``.
    public var expiredRecords = 0
    /// Fetched operations the file knows.
    public var operations = 0
    /// How many of those a whole-store invalidation made stale.
    public var staleOperations = 0
}

/// One row of a cache file as ``SQLiteCacheInspector/record(_:)`` reads it.
public struct StoredRecord: Sendable, Hashable {
    /// The record's ID.
    public var id: DataID
    /// The record, a deletion, or `nil` when the row cannot be read.
    public var state: RecordState?
    /// The bytes its ID and stored form take.
    public var bytes: Int
    /// When it was last written (files of version 2 on).
    public var writtenAt: Date?
    /// When it was last read or written (files of version 2 on).
    public var usedAt: Date?
    /// The number of the write that stored it (0 before version 3).
    public var write = 0
    /// The store's epoch of its last invalidation, if it is marked invalid.
    public var invalidatedAtEpoch: Int?
}
