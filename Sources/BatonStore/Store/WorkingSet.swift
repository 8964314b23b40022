import BatonAPI

/// The records the store holds in memory, over its cache. With a persistent cache, memory is a
/// working set: a record not in memory is loaded when something needs it (reads collect what
/// they miss and load it in one batch per level of the selection tree), and once memory holds
/// more than `limit` records the least recently used ones that nothing is watching leave it
/// (they are in the cache; a record whose write is still queued, or failed, stays). With an in-memory
/// cache, memory is everything and nothing is loaded or dropped.
///
/// Used only while the store's lock is held.
final class WorkingSet {
    /// The records in memory.
    var records: RecordSource
    /// The persistent cache, or `nil` when memory is all there is.
    private let cache: (any NormalizedCache)?
    /// The most records memory keeps before dropping the least recently used.
    let limit: Int
    /// IDs looked up in the cache and not found there.
    private var absent = Set<DataID>()
    /// When the cache held no records at open (or since a `clear()`): the IDs written to it
    /// since. Any other ID is known to be absent, so a commit of new records into a new file
    /// looks nothing up (one process writes the file). `nil` when the cache's contents are not
    /// known, or this set grew past ``knownIDsLimit``.
    private var writtenSinceEmpty: Set<DataID>?
    /// The most IDs ``writtenSinceEmpty`` keeps before it is given up.
    private var knownIDsLimit: Int { max(limit * 4, 1_024) }
    /// While a batched read runs: the IDs it missed, to be loaded before it runs again.
    private var misses: Set<DataID>?
    /// When each record in memory was last used, and what was read since the last write.
    private var recency = Recency()
    /// Off while the prefetch walk looks records up: the read that follows it uses them.
    private var touches = true
    /// Records whose last write to the cache failed: memory has the only copy, so they stay.
    private var pinned = Set<DataID>()
    /// Records in commits not yet written (by how many): memory has the newest copy until then.
    private var pendingWrites: [DataID: Int] = [:]
    /// `clear()`s not yet written: until they are, what the cache holds is not to be believed.
    private var pendingClears = 0
    /// True once a `clear()` failed to reach the cache.
    private var clearFailed = false
    /// Whether records may be loaded from the cache and leave memory for it.
    private var cacheIsReadable: Bool { !clearFailed && pendingClears == 0 }
    private let onError: (any Error) -> Void

    init(records: RecordSource, cache: (any NormalizedCache)?, limit: Int, onError: @escaping (any Error) -> Void) {
        self.records = records
        self.cache = cache
        isBacked = cache != nil
        self.limit = max(limit, 1)
        self.onError = onError
    }

    /// Whether records live beyond memory (there is a persistent cache). A stored flag: asking
    /// `cache != nil` copies the existential, which the lookups of a cold read paid for each record.
    let isBacked: Bool

    /// The cache holds no records now: from here on it holds only what ``willWrite(_:)`` hands it.
    func cacheHoldsOnlyWhatIsWritten() {
        if isBacked { writtenSinceEmpty = [] }
    }

    /// Whether the cache may hold `id` (it was not looked up in vain, and it may have been written).
    private func cacheMayHold(_ id: DataID) -> Bool {
        if absent.contains(id) { return false }
        if let written = writtenSinceEmpty { return written.contains(id) }
        return true
    }

    /// A lookup over the records in memory as they are now, for a read made after the store's
    /// lock is released (a watcher's re-read): it loads nothing and touches nothing, and an ID
    /// memory lacks that the cache may hold sets `misses.any` (the read must then be made again
    /// under the lock, where records can be loaded).
    func unlockedLookup(noting misses: ReadMisses) -> Reader.Lookup {
        let records = self.records
        guard isBacked, cacheIsReadable else { return { records.state(of: $0) } }
        let (absent, written) = (self.absent, self.writtenSinceEmpty)
        return { id in
            if let state = records.state(of: id) { return state }
            if !absent.contains(id) && written.map({ $0.contains(id) }) ?? true { misses.any = true }
            return nil
        }
    }

    /// The state of `id`, loading it from the cache when memory does not have it (or, during a
    /// batched read, noting it as missed).
    func state(of id: DataID) -> RecordState? {
        if let state = records.state(of: id) {
            if isBacked, touches { touch(id, read: true) }
            return state
        }
        guard isBacked, cacheIsReadable, cacheMayHold(id) else { return nil }
        if misses != nil {
            misses!.insert(id)
            return nil
        }
        load([id])
        return records.state(of: id)
    }

    /// Dates a use of `id`: a read now, or (not a read) a load or a write.
    private func touch(_ id: DataID, read: Bool) {
        recency.touch(id, read: read, limit: limit)
    }

    /// The records read since the last write, handed over to it.
    func takeReadSinceWrite() -> Set<DataID> {
        recency.takeReadSinceWrite()
    }

    /// Loads those of `ids` that memory does not hold, in one batch. Returns whether the cache
    /// read ahead (gave records not asked for).
    @discardableResult
    func load(_ ids: some Sequence<DataID>, readingAhead: Bool = false) -> Bool {
        guard let cache, cacheIsReadable else { return false }
        // A cache that held nothing and was written nothing since has nothing to load.
        if let written = writtenSinceEmpty, written.isEmpty { return false }
        var wanted = Set<DataID>()
        do {
            // Scoped: the copy must be gone before `records` changes below (else it copies the table).
            let records = self.records
            for id in ids where !records.contains(id) && cacheMayHold(id) { wanted.insert(id) }
        }
        guard !wanted.isEmpty else { return false }
        var readAhead = false
        do {
            let found = try cache.loadRecords(forKeys: wanted, readingAhead: readingAhead)
            var asked: [DataID] = []
            do {
                // The tables are taken out for the loop and put back, as in `willWrite`: one
                // exclusivity check each instead of several per record (a cold read of the
                // GitHub response loads 800 records here).
                var (memory, uses, absent) = (records, recency.lastUse, self.absent)
                (records, recency.lastUse, self.absent) = (RecordSource(), [:], [])
                defer { (records, recency.lastUse, self.absent) = (memory, uses, absent) }
                uses.reserveCapacity(min(uses.count + found.count, limit))
                let (limit, writeClock) = (self.limit, recency.clockAtLastWrite)
                // A record read ahead by the cache (written with what was asked for) and kept: no
                // longer absent, and dated as by a load (see `Recency.touch`), the least recently
                // used of what was loaded now.
                func keep(readAhead id: DataID) {
                    if !absent.isEmpty { absent.remove(id) }
                    uses[id] = writeClock
                }
                if memory.count < found.count, memory.count + found.count <= limit {
                    // A large load into a small memory (a cold read): the loaded table becomes
                    // memory's, and memory's few records go into it, instead of each loaded
                    // record being copied into memory's table. Memory's records win over those
                    // read ahead, as below; none of them was asked for.
                    var table = consume found
                    for id in table.keys {
                        if wanted.remove(id) != nil {
                            asked.append(id)
                            continue
                        }
                        readAhead = true
                        if !memory.contains(id) { keep(readAhead: id) }
                    }
                    for (id, state) in memory.states { table[id] = state }
                    memory = RecordSource(consume table)
                } else {
                    memory.reserveCapacity(min(memory.count + found.count, limit))
                    for (id, state) in found {
                        if wanted.remove(id) != nil {
                            memory.replace(id, with: state)
                            asked.append(id)
                        } else {
                            // Kept while there is room.
                            readAhead = true
                            if memory.count < limit, memory.insertIfMissing(id, state) { keep(readAhead: id) }
                        }
                    }
                }
            }
            for id in asked { touch(id, read: touches) }
        } catch {
            // Reads go on without what could not be loaded: it is missing, as for a cold cache.
            onError(error)
        }
        absent.formUnion(wanted)
        if absent.count > limit { absent.removeAll(keepingCapacity: true) }
        return readAhead
    }

    /// Runs `read`; when it missed records, loads them and runs `read` again, until nothing is
    /// missed. After the first load, unless the cache read ahead, `prefetch` loads the rest of
    /// what the read needs level by level (it looks records up and calls its argument to load
    /// what it missed, one batch per level, and stops when that returns false: the cache read
    /// ahead, so the next run of `read` may find everything). From the second load on, the cache
    /// is asked to read ahead: the read is going down a tree of records memory lacks. A read
    /// whose records are in memory runs once; a cold one runs twice.
    func batchedRead<T>(_ read: () -> T, prefetch: ((_ loadMissed: () -> Bool) -> Void)? = nil) -> T {
        guard isBacked, cacheIsReadable, misses == nil else { return read() }
        misses = []
        loadsInRead = 0
        defer { misses = nil }
        var prefetched = false
        while true {
            let result = read()
            guard misses?.isEmpty == false else { return result }
            let readAhead = loadMissed()
            if !prefetched, !readAhead, let prefetch {
                prefetched = true
                let touching = touches
                touches = false
                prefetch { !self.loadMissed() }
                touches = touching
            }
        }
    }

    /// Loads made by the batched read running now.
    private var loadsInRead = 0

    /// During a batched read: loads the records missed so far in one batch. Returns whether the
    /// cache read ahead.
    private func loadMissed() -> Bool {
        guard let missed = misses, !missed.isEmpty else { return false }
        misses = nil
        defer { misses = [] }
        loadsInRead += 1
        return load(missed, readingAhead: loadsInRead > 1)
    }

    /// The records of a commit's batch, now in memory (each of them must be) and queued for the
    /// cache: they stay in memory until ``didWrite(_:succeeded:)``.
    func willWrite(_ commit: CacheBatch) {
        guard isBacked else { return }
        // The tables are taken out for the loop and put back: one exclusivity check each instead
        // of several per ID, and their room made once. (A first write of the GitHub response's
        // 800 records cost 2.0 M instructions here, most of the SQLite publish's extra cost over
        // an in-memory one: callgrind, issue 26.)
        var pending = pendingWrites
        var uses = recency.lastUse
        var written = writtenSinceEmpty
        var absent = self.absent
        (pendingWrites, recency.lastUse, writtenSinceEmpty, self.absent) = ([:], [:], nil, [])
        defer { (pendingWrites, recency.lastUse, writtenSinceEmpty, self.absent) = (pending, uses, written, absent) }
        let records = self.records
        let (writeClock, knownLimit) = (recency.clockAtLastWrite, knownIDsLimit)
        let count = commit.recordCount
        pending.reserveCapacity(pending.count + count)
        uses.reserveCapacity(min(uses.count + count, limit + count))
        if written != nil { written!.reserveCapacity(min(written!.count + count, knownLimit + 1)) }
        commit.forEachRecordID { id in
            if !absent.isEmpty { absent.remove(id) }
            if written != nil {
                written!.insert(id)
                if written!.count > knownLimit { written = nil }
            }
            pending[id, default: 0] += 1
            // A record in memory is dated by the write (not a read: see `touch`). Every ID here is
            // in memory (the commit made the batch from memory's states), so it is dated without
            // looking it up (a third of this loop's lookups; callgrind, `--profile persist`).
            assert(records.contains(id), "a written record is in memory")
            uses[id] = writeClock
        }
    }

    /// A commit's records were written (when `succeeded`) or not: those not written stay in
    /// memory for good, the only copy.
    func didWrite(_ commit: CacheBatch, succeeded: Bool) {
        guard isBacked else { return }
        commit.forEachRecordID { id in
            if let count = pendingWrites[id] { pendingWrites[id] = count > 1 ? count - 1 : nil }
            if succeeded { if !pinned.isEmpty { pinned.remove(id) } } else { pinned.insert(id) }
        }
    }

    /// Everything was removed from memory (`clear()`); the cache is emptied behind: until
    /// ``didClear(succeeded:)`` nothing is loaded from it and nothing leaves memory.
    func willClear() {
        absent.removeAll()
        // Once the clear is written the cache holds only what is written after it (nothing is
        // loaded until then).
        cacheHoldsOnlyWhatIsWritten()
        recency.lastUse.removeAll()
        recency.readSinceWrite.removeAll()
        if isBacked { pendingClears += 1 }
    }

    /// The cache's `clear()` ran; `succeeded` tells whether it was emptied.
    func didClear(succeeded: Bool) {
        guard isBacked else { return }
        pendingClears -= 1
        if succeeded {
            // The cache is empty and memory holds what came after: the two agree again.
            pinned.removeAll()
            clearFailed = false
        } else {
            clearFailed = true
            // Memory is now the only truth: nothing can leave it.
            pinned = Set(records.ids)
        }
    }

    /// Whether `id` must stay in memory: its newest state is not (yet) in the cache, or the
    /// cache cannot be read back (a `clear()` of it failed or is still to be written).
    private func mustStay(_ id: DataID) -> Bool {
        pendingWrites[id] != nil || pinned.contains(id) || !cacheIsReadable
    }

    /// Another writer of the cache stored these records: memory lets go of its copies (except
    /// those whose newer state it must keep until written: the cache merges those writes over the
    /// other writer's), and they are looked up again when needed.
    func othersChanged(_ ids: some Sequence<DataID>) {
        guard isBacked else { return }
        // The cache no longer holds only what this store wrote.
        writtenSinceEmpty = nil
        for id in ids {
            absent.remove(id)
            guard !mustStay(id), records.state(of: id) != nil else { continue }
            records.remove(id)
            recency.lastUse[id] = nil
        }
    }

    /// Another writer cleared the cache: memory keeps only what it must (records whose writes
    /// are still to reach the cache).
    func othersCleared() {
        guard isBacked else { return }
        writtenSinceEmpty = nil
        absent.removeAll()
        for id in Array(records.ids) where !mustStay(id) {
            records.remove(id)
            recency.lastUse[id] = nil
        }
    }

    /// Runs `body` without dating what it reads as read (the store's own walks: what eviction
    /// must keep is not a use by the app).
    func withoutTouching<T>(_ body: () -> T) -> T {
        let before = touches
        touches = false
        defer { touches = before }
        return body()
    }

    /// How many records were read since the last write (their reading times wait for it).
    var readsWaitingForWrite: Int { recency.readSinceWrite.count }

    /// Drops a record from memory only (it stays in the cache).
    func forget(_ id: DataID) {
        guard !mustStay(id) else { return }
        records.remove(id)
        recency.lastUse[id] = nil
    }

    /// When memory holds more than `limit` records, drops the least recently used down to three
    /// quarters of it, keeping the root, pinned records and those `inUse` says are in use.
    func trim(inUse: (DataID) -> Bool) {
        guard isBacked, cacheIsReadable, records.count > limit else { return }
        let target = limit - limit / 4
        var candidates: [(id: DataID, use: UInt64)] = []
        candidates.reserveCapacity(records.count)
        for id in records.ids where id != .rootID && !mustStay(id) && !inUse(id) {
            candidates.append((id, recency.lastUse[id] ?? 0))
        }
        candidates.sort { $0.use < $1.use }
        var excess = records.count - target
        for candidate in candidates {
            guard excess > 0 else { break }
            records.remove(candidate.id)
            recency.lastUse[candidate.id] = nil
            excess -= 1
        }
    }
}

/// Whether a read over ``WorkingSet/unlockedLookup(noting:)`` needed a record memory lacked.
/// Used by the one thread that runs the read.
final class ReadMisses {
    var any = false
}

/// When each record in memory was last used, by a counter, and the records read since the last
/// write. One value, so that dating a read is one exclusive access to the working set's state
/// instead of one per table (a cold read dates about a thousand records).
struct Recency {
    /// When each record in memory was last used, by `clock`.
    var lastUse: [DataID: UInt64] = [:]
    private(set) var clock: UInt64 = 0
    /// Records read since the last write (handed to the cache for least-recently-used eviction):
    /// each once, when its last use before was at or before `clockAtLastWrite`.
    var readSinceWrite: [DataID] = []
    /// `clock` when the last write took the records read before it. Loading or writing a record
    /// dates it so, which is not a read.
    private(set) var clockAtLastWrite: UInt64 = 0

    /// Dates a use of `id`: a read now, or (not a read) a load or a write. A long run of reads
    /// without a write keeps only the latest of them, down to half of `limit`.
    mutating func touch(_ id: DataID, read: Bool, limit: Int) {
        guard read else {
            lastUse[id] = clockAtLastWrite
            return
        }
        clock &+= 1
        // One lookup: the last use before tells whether this is the first read since the write.
        if (lastUse.updateValue(clock, forKey: id) ?? 0) <= clockAtLastWrite {
            readSinceWrite.append(id)
            if readSinceWrite.count > limit { readSinceWrite.removeFirst(readSinceWrite.count - limit / 2) }
        }
    }

    /// The records read since the last write, handed over to it: the write dates what comes after.
    mutating func takeReadSinceWrite() -> Set<DataID> {
        defer {
            readSinceWrite.removeAll(keepingCapacity: true)
            clockAtLastWrite = clock
        }
        return Set(readSinceWrite)
    }
}
