import BatonAPI
import Foundation

/// Where the store's records live beyond its memory (Apollo's `NormalizedCache`): the store
/// keeps a bounded working set of records in memory and loads the others on demand, in batches,
/// and writes every commit here in commit order from a writer thread of its own, behind the
/// callers (consecutive commits may arrive as one batch when the writer is behind). An
/// implementation serves one store, whose loads (under the store's lock) may run while a write
/// is under way: it must be safe to call from two threads at once. Other stores (in other
/// processes) may share its storage: it then tells its store what they committed
/// (``changesByOthers()``) and merges a commit's edits over their newer copies.
public protocol NormalizedCache: Sendable {
    /// Whether what is written survives the process. When it does, the store's memory is a
    /// working set over the cache: records it has not read are loaded when needed, records not in
    /// use leave memory, and garbage collection frees memory only, never the cache.
    var isPersistent: Bool { get }
    /// The states of those `ids` the cache holds; IDs it does not hold are left out. It may add
    /// records it was not asked for (read ahead: records written with those asked for), which
    /// the store keeps while its working set has room.
    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState]
    /// ``loadRecords(forKeys:)`` for a read that has gone more than one level down into records
    /// memory lacked: `readingAhead` asks the cache to add what it stores with those records (a
    /// tree read from disk goes on reading it). By default, the same as `loadRecords(forKeys:)`.
    func loadRecords(forKeys ids: Set<DataID>, readingAhead: Bool) throws -> [DataID: RecordState]
    /// The store's bookkeeping (fetch times, invalidation marks), read once when the store opens.
    func loadMetadata() throws -> CacheMetadata
    /// Writes one commit. Must be atomic: after a crash the cache holds all of a commit or none of it.
    func write(_ batch: CacheBatch) throws
    /// Writes consecutive commits, in order, each whole (the store's writer hands over what
    /// waited while the last write ran). By default, one ``write(_:)`` each; a cache may write
    /// them in one transaction, all or none.
    func write(_ batches: [CacheBatch]) throws
    /// Removes every record and all bookkeeping.
    func clear() throws
    /// What other writers of the same cache (another process, another store over the same file)
    /// committed since the last call: the records they wrote and the bookkeeping as it stands
    /// now, or `nil` when nothing changed. The store asks before each read and commit, lets go
    /// of its copies of those records and loads them again when needed. By default `nil`: a
    /// cache nothing else writes.
    func changesByOthers() throws -> CacheChangesByOthers?
    /// Whether the cache's eviction policy has work to do (a bound is passed, or the cache has
    /// just opened with a policy): the store then calls ``evict(keeping:usedBefore:)`` on its
    /// writer's thread, never on a caller's. By default `false`.
    var needsEviction: Bool { get }
    /// Applies the eviction policy, never removing the records in `keeping` (what retained
    /// queries and watchers read) nor any record used at or after `usedBefore` (written or read
    /// since the store computed `keeping`). By default, nothing.
    func evict(keeping: Set<DataID>, usedBefore: Date) throws
}

extension NormalizedCache {
    /// Writes each batch with ``write(_:)``, in order, stopping at the first failure.
    public func write(_ batches: [CacheBatch]) throws {
        for batch in batches { try write(batch) }
    }

    /// `nil`: nothing else writes the cache.
    public func changesByOthers() throws -> CacheChangesByOthers? { nil }

    /// `false`: no eviction policy.
    public var needsEviction: Bool { false }

    /// Nothing to evict.
    public func evict(keeping: Set<DataID>, usedBefore: Date) throws {}

    /// Loads `ids` as ``loadRecords(forKeys:)`` does: no read-ahead of its own.
    public func loadRecords(forKeys ids: Set<DataID>, readingAhead: Bool) throws -> [DataID: RecordState] {
        try loadRecords(forKeys: ids)
    }
}

/// One commit as the cache stores it.
public struct CacheBatch: Sendable, Hashable {
    /// For each ID its new state (a record or a deletion), or `nil` to remove it from the cache.
    public var records: [DataID: RecordState?] {
        get {
            guard let wholeTable else { return listedRecords }
            var records = [DataID: RecordState?](minimumCapacity: wholeTable.count)
            for (id, state) in wholeTable { records[id] = state }
            return records
        }
        set {
            listedRecords = newValue
            wholeTable = nil
        }
        // In place: a change of one entry (`records[id] = state`) copies nothing.
        _modify {
            if wholeTable != nil {
                listedRecords = records
                wholeTable = nil
            }
            yield &listedRecords
        }
    }
    /// ``records`` as they were set.
    private var listedRecords: [DataID: RecordState?]
    /// ``records`` as the store's own table, shared rather than copied, when the commit writes
    /// every record of it (a first response into an empty store). Building the batch had cost
    /// the caller of such a publish a lookup, a copy and an insertion per record, and the new
    /// table's pages (callgrind and `perf record -e page-faults` on `--profile persist`: about
    /// 0.4 M instructions and 80 page faults per publish of the GitHub response).
    package var wholeTable: [DataID: RecordState]?
    /// Operations whose server response this commit wrote, by root key (see ``OperationDescriptor/rootKey``);
    /// `nil` removes an operation's fetch (its root was dropped).
    public var fetches: [String: OperationFetch?]
    /// Records this commit invalidated, at ``epoch``.
    public var invalidatedRecords: Set<DataID>
    /// Whether this commit invalidated the whole store, at ``epoch``.
    public var invalidatesStore: Bool
    /// The store's commit count after this commit.
    public var epoch: Int
    /// Records read since the last write, for least-recently-used eviction.
    public var readIDs: Set<DataID>
    /// The commit's own edits, when known: the fields it set on each record, and its deletions
    /// (``records`` holds each changed record whole, as the store's memory has it). A cache
    /// that other writers share applies these over a copy another writer stored since, rather
    /// than writing ``records`` whole over it; `nil`: ``records`` are the edits. Read them with
    /// ``edit(of:)``, which also knows the short form (``recordsNotEdited``).
    public var changes: RecordSource?
    /// When set, the edits are in a short form: ``changes`` holds those of the records the store
    /// held before the commit, these are the records of ``records`` that the commit did not edit
    /// (an invalidation's), and every other record of ``records`` is the commit's edit as it is
    /// (new to the store, so the edit is the record). A commit that takes its change set over as
    /// the store's table (a first response into a store) sends this form: the whole edits would
    /// be that table, and sharing it with the batch would make the store copy every record.
    public var recordsNotEdited: Set<DataID>?

    /// A batch; every part is empty by default.
    public init(
        records: [DataID: RecordState?] = [:], fetches: [String: OperationFetch?] = [:], invalidatedRecords: Set<DataID> = [],
        invalidatesStore: Bool = false, epoch: Int = 0, readIDs: Set<DataID> = [], changes: RecordSource? = nil
    ) {
        self.changes = changes
        listedRecords = records
        wholeTable = nil
        self.fetches = fetches
        self.invalidatedRecords = invalidatedRecords
        self.invalidatesStore = invalidatesStore
        self.epoch = epoch
        self.readIDs = readIDs
    }

    /// What this commit itself wrote to `id` (see ``changes``): `nil` when it did not edit it.
    public func edit(of id: DataID) -> RecordState? {
        guard let recordsNotEdited else {
            guard let changes else { return recordState(of: id) ?? nil }
            return changes.state(of: id)
        }
        if recordsNotEdited.contains(id) { return nil }
        return changes?.state(of: id) ?? recordState(of: id) ?? nil
    }

    /// Every edit of this commit, in the long form of ``changes``: `nil` when they are not known
    /// (``records`` are the edits).
    public func allEdits() -> RecordSource? {
        guard let recordsNotEdited else { return changes }
        var edits = RecordSource()
        edits.reserveCapacity(recordCount)
        forEachRecord { id, state in
            guard !recordsNotEdited.contains(id) else { return }
            if let edit = changes?.state(of: id) ?? state { edits.replace(id, with: edit) }
        }
        return edits
    }

    /// Whether the batch changes anything but reading times.
    public var changesData: Bool {
        recordCount != 0 || !fetches.isEmpty || !invalidatedRecords.isEmpty || invalidatesStore
    }

    /// The number of IDs in ``records``, without making them.
    package var recordCount: Int { wholeTable?.count ?? listedRecords.count }

    /// The entry of ``records`` for `id` (`nil`: the batch does not write it), without making
    /// them.
    package func recordState(of id: DataID) -> RecordState?? {
        if let wholeTable { return wholeTable[id].map { .some($0) } }
        return listedRecords[id]
    }

    /// Calls `body` with each entry of ``records``, without making them.
    package func forEachRecord<Failure: Error>(_ body: (DataID, RecordState?) throws(Failure) -> Void) throws(Failure) {
        if let wholeTable {
            for (id, state) in wholeTable { try body(id, state) }
        } else {
            for (id, state) in listedRecords { try body(id, state) }
        }
    }

    /// Calls `body` with each ID of ``records``, without making them (and without a copy of
    /// each state, as ``forEachRecord(_:)`` makes).
    package func forEachRecordID(_ body: (DataID) -> Void) {
        if let wholeTable {
            for id in wholeTable.keys { body(id) }
        } else {
            for id in listedRecords.keys { body(id) }
        }
    }

    /// Whether both write the same: ``records`` compare by their entries, however they are held.
    public static func == (lhs: CacheBatch, rhs: CacheBatch) -> Bool {
        lhs.records == rhs.records && lhs.fetches == rhs.fetches && lhs.invalidatedRecords == rhs.invalidatedRecords
            && lhs.invalidatesStore == rhs.invalidatesStore && lhs.epoch == rhs.epoch && lhs.readIDs == rhs.readIDs
            && lhs.changes == rhs.changes && lhs.recordsNotEdited == rhs.recordsNotEdited
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(records)
        hasher.combine(fetches)
        hasher.combine(invalidatedRecords)
        hasher.combine(invalidatesStore)
        hasher.combine(epoch)
        hasher.combine(readIDs)
        hasher.combine(changes)
        hasher.combine(recordsNotEdited)
    }
}

/// What other writers of a shared cache committed since a store last asked (see
/// ``NormalizedCache/changesByOthers()``).
public struct CacheChangesByOthers: Sendable, Hashable {
    /// Records another writer stored (or whose stored copy differs from the store's memory);
    /// the store drops its copies and loads them again when needed.
    public var recordIDs: Set<DataID>
    /// Whether another writer cleared the cache: the store drops every record it holds.
    public var cleared: Bool
    /// The bookkeeping as the cache holds it now (fetch times, invalidation marks, the newest
    /// epoch written by any store).
    public var metadata: CacheMetadata

    /// Changes as given.
    public init(recordIDs: Set<DataID> = [], cleared: Bool = false, metadata: CacheMetadata = CacheMetadata()) {
        self.recordIDs = recordIDs
        self.cleared = cleared
        self.metadata = metadata
    }
}

/// When an operation's server response was written: the store's epoch then, and the wall-clock time.
public struct OperationFetch: Sendable, Hashable {
    /// The store's epoch when the response was written.
    public var epoch: Int
    /// The wall-clock time it was written.
    public var date: Date

    /// A fetch written at `epoch`, at `date`.
    public init(epoch: Int, date: Date) {
        self.epoch = epoch
        self.date = date
    }
}

/// What decides staleness, as a cache keeps it across restarts.
public struct CacheMetadata: Sendable, Hashable {
    /// The store's commit count when it last wrote.
    public var epoch: Int
    /// The epoch of the last whole-store invalidation.
    public var storeInvalidatedAt: Int?
    /// The epoch of each record's last invalidation.
    public var invalidatedAt: [DataID: Int]
    /// Each fetched operation's last write, by root key.
    public var fetches: [String: OperationFetch]
    /// The cache is known to hold no records (a new or cleared file): the store then loads only
    /// records it wrote itself, and a record it has not written is not looked for. `false` when
    /// the cache does not know.
    public var holdsNoRecords: Bool

    /// Bookkeeping as given (empty by default: a new cache).
    public init(
        epoch: Int = 0, storeInvalidatedAt: Int? = nil, invalidatedAt: [DataID: Int] = [:], fetches: [String: OperationFetch] = [:],
        holdsNoRecords: Bool = false
    ) {
        self.epoch = epoch
        self.storeInvalidatedAt = storeInvalidatedAt
        self.invalidatedAt = invalidatedAt
        self.fetches = fetches
        self.holdsNoRecords = holdsNoRecords
    }
}

/// The default cache: nothing survives the process, and the store's memory holds everything.
public struct InMemoryNormalizedCache: NormalizedCache {
    /// The in-memory cache.
    public init() {}

    /// False: the store's memory is everything.
    public var isPersistent: Bool { false }
    /// Nothing: the store never asks.
    public func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { [:] }
    /// Empty bookkeeping.
    public func loadMetadata() throws -> CacheMetadata { CacheMetadata() }
    /// Nothing to write.
    public func write(_ batch: CacheBatch) throws {}
    /// Nothing to clear.
    public func clear() throws {}
}
