import BatonAPI
import BatonStore
import CSQLite
import Foundation

/// What a trim removed: how many records, and the bytes of pages in use before and after.
public struct CacheTrimResult: Sendable, Hashable {
    /// Records removed from the file.
    public var removedRecords: Int
    /// Bytes of pages in use before the trim.
    public var bytesBefore: Int
    /// Bytes of pages in use after it.
    public var bytesAfter: Int
}

extension SQLiteNormalizedCache {
    /// Whether the eviction policy has work to do: checked when the cache opens and every
    /// ``CacheEvictionPolicy/checkInterval`` writes (a size bound costs three `PRAGMA`s, a record
    /// bound a count, an age bound always runs). The store's writer then calls
    /// ``evict(keeping:usedBefore:)`` on its own thread.
    public var needsEviction: Bool {
        guard eviction.isActive else { return false }
        let policy = eviction
        return
            (try? guarded.withLock { state throws(SQLiteCacheError) -> Bool in
                guard state.evictionCheckDue else { return false }
                state.evictionCheckDue = false
                state.writesSinceEvictionCheck = 0
                if policy.maxAge != nil { return true }
                if let maxBytes = policy.maxBytes, try Self.usedBytes(state.connection) > maxBytes { return true }
                if let maxRecords = policy.maxRecords {
                    var count = 0
                    try state.connection.run("SELECT count(*) FROM records") { row in count = row.int(0) }
                    if count > maxRecords { return true }
                }
                return false
            }) ?? false
    }

    /// Applies the eviction policy now, keeping nothing in particular (the root record always
    /// stays). A store applies it by itself, keeping what its retained queries and watchers read.
    public func evict() throws {
        try evict(keeping: [], usedBefore: .distantFuture)
    }

    /// Removes records written longer ago than `maxAge` (and fetch times as old), then the least
    /// recently used records while the file holds more than `maxRecords` records or `maxBytes`
    /// bytes of pages in use, down to nine tenths of the bound. Never a record in `keeping`, the
    /// root record, or a record used (written or read) at or after `usedBefore`. Runs on a
    /// connection of its own, in transactions of a few thousand rows, so the store's loads and
    /// other writers go on meanwhile.
    public func evict(keeping: Set<DataID>, usedBefore: Date) throws {
        let policy = eviction
        guard policy.isActive else { return }
        try withEvictor { connection throws(SQLiteCacheError) in
            let started = min(usedBefore, Date()).timeIntervalSince1970
            if let maxAge = policy.maxAge {
                let cutoff = Date().timeIntervalSince1970 - maxAge.seconds
                var old: [Int] = []
                try connection.run("SELECT rowid, id FROM records WHERE written_at < ? AND used_at < ?", [.real(cutoff), .real(started)]) { row in
                    if Self.mayEvict(row, id: 1, keeping: keeping) { old.append(row.int(0)) }
                }
                _ = try Self.delete(rows: old, usedBefore: started, connection)
                try connection.transaction { () throws(SQLiteCacheError) in
                    try connection.run("DELETE FROM operations WHERE fetched_at < ?", [.real(cutoff)])
                }
            }
            if let maxRecords = policy.maxRecords {
                var count = 0
                try connection.run("SELECT count(*) FROM records") { row in count = row.int(0) }
                if count > maxRecords {
                    let order = try Self.leastRecentlyUsed(connection, keeping: keeping, usedBefore: started)
                    let excess = count - maxRecords * 9 / 10
                    _ = try Self.delete(rows: order.prefix(excess).map(\.rowid), usedBefore: started, connection)
                }
            }
            if let maxBytes = policy.maxBytes, try Self.usedBytes(connection) > maxBytes {
                _ = try Self.trim(connection, toBytes: maxBytes * 9 / 10, keeping: keeping, usedBefore: started)
            }
        }
    }

    /// Removes the least recently used records until the file's pages in use take at most
    /// `maxBytes` (or only what `keeping` and the root record need is left), on a connection
    /// of its own, in short transactions. The file keeps its size (freed pages are reused);
    /// ``compact()`` gives them back to the disk. The `baton-cache trim` command runs this.
    @discardableResult
    public func trim(toBytes maxBytes: Int, keeping: Set<DataID> = []) throws -> CacheTrimResult {
        try withEvictor { connection throws(SQLiteCacheError) -> CacheTrimResult in
            try Self.trim(connection, toBytes: maxBytes, keeping: keeping, usedBefore: Date().timeIntervalSince1970)
        }
    }

    /// Gives the file's free pages back to the disk (`VACUUM`, then a checkpoint that empties
    /// the WAL): the file shrinks to what its records take. It rewrites the whole file, and
    /// other writers wait for it.
    public func compact() throws {
        try withEvictor { connection throws(SQLiteCacheError) in
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Runs `body` on the eviction connection, opened on first use.
    func withEvictor<T>(_ body: (SQLiteConnection) throws(SQLiteCacheError) -> T) throws(SQLiteCacheError) -> T {
        let path = fileURL.path
        return try evictor.withLock { evictor throws(SQLiteCacheError) -> T in
            if evictor == nil {
                let connection = try SQLiteConnection(path: path)
                try connection.execute("PRAGMA temp_store = MEMORY")
                try connection.execute("PRAGMA journal_size_limit = \(32 << 20)")
                try connection.execute("PRAGMA synchronous = NORMAL")
                evictor = connection
            }
            return try body(evictor!)
        }
    }

    static func trim(
        _ connection: SQLiteConnection, toBytes maxBytes: Int, keeping: Set<DataID>, usedBefore: Double
    ) throws(SQLiteCacheError) -> CacheTrimResult {
        let before = try usedBytes(connection)
        var removed = 0
        // A few rounds: what a record takes in pages is estimated from its bytes.
        for _ in 0..<6 {
            let used = try usedBytes(connection)
            guard used > maxBytes else { break }
            let order = try leastRecentlyUsed(connection, keeping: keeping, usedBefore: usedBefore)
            guard !order.isEmpty else { break }
            let total = max(1, order.reduce(0) { $0 + $1.bytes })
            // Bytes of pages per byte of record, over what may go (the kept records count as stored too).
            let ratio = Double(used) / Double(total)
            var excess = Double(used - maxBytes)
            var victims: [Int] = []
            for row in order {
                guard excess > 0 else { break }
                victims.append(row.rowid)
                excess -= Double(row.bytes) * ratio
            }
            removed += try delete(rows: victims, usedBefore: usedBefore, connection)
        }
        return CacheTrimResult(removedRecords: removed, bytesBefore: before, bytesAfter: try usedBytes(connection))
    }

    /// Whether the row's record may leave the file: not the root, not kept.
    private static func mayEvict(_ row: SQLiteConnection.Row, id column: Int32, keeping: Set<DataID>) -> Bool {
        if row.textEquals(column, DataID.rootID.rawValue) { return false }
        guard !keeping.isEmpty, let id = row.text(column) else { return true }
        return !keeping.contains(DataID(id))
    }

    /// The records that may go, least recently used first: row, and bytes stored.
    private static func leastRecentlyUsed(
        _ connection: SQLiteConnection, keeping: Set<DataID>, usedBefore: Double
    ) throws(SQLiteCacheError) -> [(rowid: Int, bytes: Int)] {
        var order: [(rowid: Int, bytes: Int)] = []
        try connection.run(
            "SELECT rowid, id, length(id) + coalesce(length(record), 0) FROM records WHERE used_at < ? ORDER BY used_at, written_at, rowid",
            [.real(usedBefore)]
        ) { row in
            if mayEvict(row, id: 1, keeping: keeping) { order.append((row.int(0), row.int(2))) }
        }
        return order
    }

    /// Rows per transaction of a deletion: others' writes wait for one at most.
    static let rowsPerEvictionTransaction = 2_048

    /// Deletes `rows` in short transactions, skipping any row used since `usedBefore` (a
    /// record rewritten keeps its row). Returns how many were deleted.
    private static func delete(rows: [Int], usedBefore: Double, _ connection: SQLiteConnection) throws(SQLiteCacheError) -> Int {
        var deleted = 0
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + rowsPerEvictionTransaction)
            try connection.transaction { () throws(SQLiteCacheError) in
                try forEachChunk(of: end - start, sizes: lookupChunks) { first, count throws(SQLiteCacheError) in
                    try connection.run(deleteRowsSQL[count]!) { statement, index in
                        if index == Int32(count + 1) { return sqlite3_bind_double(statement, index, usedBefore) }
                        return sqlite3_bind_int64(statement, index, Int64(rows[start + first + Int(index) - 1]))
                    }
                    deleted += connection.changes
                }
            }
            start = end
        }
        return deleted
    }

    private static let deleteRowsSQL: [Int: String] = Dictionary(
        uniqueKeysWithValues: lookupChunks.map { rows in
            (
                rows,
                "DELETE FROM records WHERE rowid IN (" + Array(repeating: "?", count: rows).joined(separator: ", ")
                    + ") AND used_at < ?"
            )
        })
}
