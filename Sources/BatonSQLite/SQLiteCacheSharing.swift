import BatonAPI
import BatonStore
import Foundation

extension SQLiteNormalizedCache {
    /// What other connections to the file (another process, another store in this one)
    /// committed since the last call: the records they stored, whether they cleared the file,
    /// and the bookkeeping as it stands; `nil` when nothing changed. A call that finds nothing
    /// costs one `PRAGMA data_version`, which SQLite answers from the WAL index without reading
    /// the file. Records whose stored copy a merged write made differ from the store's memory
    /// are reported too.
    public func changesByOthers() throws -> CacheChangesByOthers? {
        try guarded.withLock { state throws(SQLiteCacheError) -> CacheChangesByOthers? in
            let connection = state.connection
            let quickVersion = try connection.dataVersion()
            guard quickVersion != state.lookVersion || !state.reportAtNextLook.isEmpty else { return nil }
            var changes = CacheChangesByOthers()
            // One snapshot for the rows, the counters and the bookkeeping.
            try connection.execute("BEGIN")
            do throws(SQLiteCacheError) {
                var lastBatch = state.watermark
                var clearCount = state.clearCount
                try connection.run("SELECT key, value FROM baton_meta WHERE key IN ('last_batch', 'clear_count')") { row in
                    let value = row.text(1).flatMap { Int($0) } ?? 0
                    if row.text(0) == "last_batch" { lastBatch = value } else { clearCount = value }
                }
                let version = try connection.dataVersion()
                var ids: [DataID] = []
                if version != state.lookVersion {
                    let own = state.ownBatches
                    try connection.run("SELECT id, batch FROM records WHERE batch > ?", [.int(state.watermark)]) { row in
                        if !own.contains(row.int(1)), let id = row.text(0) { ids.append(DataID(id)) }
                    }
                }
                changes.metadata = try Self.metadata(connection)
                try connection.execute("COMMIT")
                state.lookVersion = version
                changes.cleared = clearCount != state.clearCount
                state.clearCount = clearCount
                state.watermark = max(state.watermark, lastBatch)
                state.writeScanMark = max(state.writeScanMark, state.watermark)
                state.ownBatches = state.ownBatches.filter { $0 > state.watermark }
                Self.needMerge(ids, &state)
                changes.recordIDs = Set(ids)
                changes.recordIDs.formUnion(state.reportAtNextLook)
                state.reportAtNextLook.removeAll()
                if changes.cleared {
                    // What is stored now was written after the clear: nothing older to merge over.
                    state.needsMerge.removeAll()
                    state.mergeAll = false
                    Self.needMerge(ids, &state)
                    state.coLoaded.removeAll()
                }
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            return changes
        }
    }
}
