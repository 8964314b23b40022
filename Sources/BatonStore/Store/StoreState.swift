import BatonAPI
import Foundation

/// Retention of a query root.
struct RootState {
    let descriptor: OperationDescriptor
    var retainCount = 0

    init(descriptor: OperationDescriptor) {
        self.descriptor = descriptor
    }
}

/// When an operation's server response was last written: the epoch, and the time both on the
/// monotonic clock (for this process) and the wall clock (what the cache keeps).
struct FetchState {
    var epoch: Int
    var time: ContinuousClock.Instant
    var date: Date

    /// A fetch read back from the cache: its monotonic time is placed as far in the past as its
    /// wall-clock time is.
    init(_ fetch: OperationFetch, now: ContinuousClock.Instant, date: Date) {
        epoch = fetch.epoch
        self.date = fetch.date
        let age = max(0, date.timeIntervalSince(fetch.date))
        time = now - .milliseconds(Int64(min(age, 1e9) * 1000))
    }

    init(epoch: Int, time: ContinuousClock.Instant, date: Date) {
        self.epoch = epoch
        self.time = time
        self.date = date
    }

    var persisted: OperationFetch { OperationFetch(epoch: epoch, date: date) }
}

/// Everything the store guards with its lock.
struct StoreState {
    /// The records in memory, over the cache.
    let memory: WorkingSet
    /// The records in memory (without loading any).
    var source: RecordSource {
        get { memory.records }
        _modify { yield &memory.records }
        set { memory.records = newValue }
    }
    /// The pending optimistic updates, layered over the base records.
    var optimistic = OptimisticSource()
    var epoch = 0
    var storeInvalidatedAt: Int?
    var invalidatedAt: [DataID: Int] = [:]

    /// The watchers, indexed by what they read.
    var subscriptions = StoreSubscriptions()
    /// Counts the commits that changed something while watchers were registered (see
    /// ``noteChange(of:changedRootFields:silencing:in:)``).
    var changeVersion = 0
    /// The change version up to which every watcher has re-read what concerned it.
    var rereadThrough = 0

    var roots: [String: RootState] = [:]
    /// Each fetched operation's last write, by root key (kept in the cache).
    var fetches: [String: FetchState] = [:]
    /// Fetches dropped with their roots since the last commit, for it to remove from the cache.
    var droppedFetches = Set<String>()
    /// The epoch at which each dropped fetch was dropped, until the cache no longer holds it (or
    /// holds a newer one): a look at a shared cache before the removal is written must not
    /// bring the fetch back (it would read as fresh what the store forgot).
    var droppedFetchEpochs: [String: Int] = [:]
    /// Released roots still kept, oldest first.
    var releaseBuffer: [String] = []
    /// A collection was asked for while optimistic updates were applied: it runs once the last
    /// one is gone (Relay holds garbage collection while optimistic updates are applied).
    var garbageCollectionPending = false
    /// How long data stays fresh.
    let freshness: CacheFreshness
    /// Whether records may carry field ages (a persistent cache's may; in memory, once a
    /// commit dated some): reads look for them only then.
    var mayHoldAges: Bool

    init(memory: WorkingSet, freshness: CacheFreshness = .default, mayHoldAges: Bool = false) {
        self.memory = memory
        self.freshness = freshness
        self.mayHoldAges = mayHoldAges
    }

    /// What a read of `descriptor` needs to tell when its data goes stale (`nil`: nothing ever does).
    func ageReading(for descriptor: OperationDescriptor) -> AgeReading? {
        let rules = freshness.rules(for: descriptor.cacheDirectives)
        guard rules != nil || mayHoldAges else { return nil }
        return AgeReading(datesFields: true, rules: rules)
    }

    /// What readers see: the base records with the optimistic overlay on top. A record not in
    /// memory is loaded from the cache.
    var lookup: Reader.Lookup { layered(over: baseLookup) }

    /// The optimistic overlay over `base`.
    private func layered(over base: @escaping Reader.Lookup) -> Reader.Lookup {
        if optimistic.overlay.count == 0 { return base }
        let overlay = optimistic.overlay
        return { RecordState.layered(overlay.state(of: $0), over: base($0)) }
    }

    /// The base records alone, as the server's writes see them.
    var baseLookup: Reader.Lookup {
        let memory = self.memory
        guard memory.isBacked else {
            // Nothing to load: the records as they are, without going through the working set.
            let records = memory.records
            return { records.state(of: $0) }
        }
        return { memory.state(of: $0) }
    }

    func read(_ descriptor: OperationDescriptor, collectsMissingPaths: Bool = false) -> ReadResult {
        Self.read(descriptor, memory: memory, lookup: lookup, ages: ageReading(for: descriptor), collectsMissingPaths: collectsMissingPaths)
    }

    /// Reads the base records alone, without the optimistic overlay.
    func readBase(_ descriptor: OperationDescriptor) -> ReadResult {
        Self.read(descriptor, memory: memory, lookup: baseLookup, ages: ageReading(for: descriptor))
    }

    /// Reads through `lookup`; over a persistent cache, what is not in memory is loaded in one
    /// batch per level of the selection tree first.
    private static func read(
        _ descriptor: OperationDescriptor, memory: WorkingSet, lookup: @escaping Reader.Lookup, ages: AgeReading?,
        collectsMissingPaths: Bool = false
    ) -> ReadResult {
        memory.batchedRead {
            Reader.read(
                selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
                variables: descriptor.variables, ages: ages, collectsMissingPaths: collectsMissingPaths, cacheKeys: descriptor.cacheKeys,
                lookup: lookup)
        } prefetch: { loadMissed in
            RecordPrefetcher.walk(
                selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
                variables: descriptor.variables, lookup: lookup, loadMissed: loadMissed)
        }
    }

    /// Lets memory go down to the working set's bound (a no-op without a persistent cache),
    /// keeping what watchers saw.
    func trimMemory() {
        let watched = subscriptions.byRecord
        memory.trim { watched[$0] != nil }
    }

    /// Records what a commit changed for the watchers that saw it, who re-read once the lock is
    /// released (see ``NotificationQueue``); nothing when no watcher is registered. The watcher
    /// `silencing` (the one whose own fetch this commit publishes) re-reads now and takes the new
    /// read without a notification.
    mutating func noteChange(
        of changed: Set<DataID>, changedRootFields: Set<String>?, silencing: Int? = nil, in queue: NotificationQueue
    ) {
        guard !subscriptions.isEmpty else { return }
        if changed.isEmpty, let fields = changedRootFields, fields.isEmpty { return }
        changeVersion += 1
        queue.enqueue(PendingChange(version: changeVersion, records: changed, rootFields: changedRootFields))
        if let silencing, let descriptor = subscriptions.descriptor(of: silencing) {
            let result = read(descriptor)
            _ = subscriptions.take(result, for: silencing, at: changeVersion, silently: true)
        }
    }

    /// One watcher's re-read, planned under the lock and run after it.
    struct PlannedRead {
        let id: Int
        let descriptor: OperationDescriptor
        let ages: AgeReading?
    }

    /// Re-reads of watchers, planned under the lock and made after it: over `lookup`, the
    /// records in memory and the optimistic overlay as they were at change `version` (values:
    /// the commits made meanwhile do not change them).
    struct PlannedRereads {
        let reads: [PlannedRead]
        let lookup: Reader.Lookup
        let version: Int
        /// Set when a read needed a record memory lacked and the cache may hold.
        let misses: ReadMisses
    }

    /// Takes the changes `queue` holds and plans the re-reads of the watchers they concern, each
    /// once, at the current change version (``run(_:lookup:)`` makes them; ``take(_:of:)`` takes
    /// their results).
    mutating func planRereads(from queue: NotificationQueue) -> PlannedRereads {
        let ids = subscriptions.affected(by: queue.takeChanges())
        let reads = ids.compactMap { id in
            subscriptions.descriptor(of: id).map { PlannedRead(id: id, descriptor: $0, ages: ageReading(for: $0)) }
        }
        let misses = ReadMisses()
        if reads.isEmpty { rereadThrough = changeVersion }
        return PlannedRereads(reads: reads, lookup: layered(over: memory.unlockedLookup(noting: misses)), version: changeVersion, misses: misses)
    }

    /// Takes the results of `planned`'s reads and returns the notifications of the watchers
    /// whose data changed. When a read needed a record memory lacked (a persistent cache's
    /// working set let it go), the planned watchers read again here, where records are loaded,
    /// at the current version.
    mutating func take(_ results: [(id: Int, result: ReadResult)], of planned: PlannedRereads) -> [WatcherNotification] {
        let (reads, version) =
            planned.misses.any
            ? (planned.reads.map { (id: $0.id, result: self.read($0.descriptor)) }, changeVersion) : (results, planned.version)
        var notifications: [WatcherNotification] = []
        for (id, result) in reads {
            if let notification = subscriptions.take(result, for: id, at: version) { notifications.append(notification) }
        }
        rereadThrough = max(rereadThrough, planned.version)
        return notifications
    }

    /// Makes a read that ``planRereads(from:)`` planned, without the lock.
    static func run(_ read: PlannedRead, lookup: @escaping Reader.Lookup) -> ReadResult {
        Reader.read(
            selections: read.descriptor.selections, rootID: read.descriptor.rootID, rootType: read.descriptor.rootType,
            variables: read.descriptor.variables, ages: read.ages, cacheKeys: read.descriptor.cacheKeys, lookup: lookup)
    }

    /// What every watcher reads: what its last read saw and, while changes wait for watchers to
    /// re-read, what it would see now (kept by garbage collection and the cache's eviction).
    func watchedIDs() -> Set<DataID> {
        var ids = Set<DataID>()
        let settled = rereadThrough == changeVersion
        for watcher in subscriptions.watchers.values {
            ids.formUnion(watcher.last.seenIDs)
            if !settled && watcher.readVersion < changeVersion { ids.formUnion(read(watcher.descriptor).seenIDs) }
        }
        return ids
    }
}

extension StoreState {
    /// Takes in the bookkeeping another writer of the cache left: the newest epoch (so this
    /// store's next commit comes after every commit it has seen), and the fetch times and
    /// invalidation marks as the cache holds them, except this store's own entries made after
    /// the newest epoch written (its commits not yet written, which the cache will get).
    mutating func adoptMetadata(_ metadata: CacheMetadata, now: ContinuousClock.Instant, date: Date) {
        let written = metadata.epoch
        var adopted: [String: FetchState] = [:]
        adopted.reserveCapacity(metadata.fetches.count)
        for (key, fetch) in metadata.fetches {
            // Dropped here, and the removal not written yet: it stays dropped.
            if let dropped = droppedFetchEpochs[key], fetch.epoch <= dropped { continue }
            // The same write as this store's own: keep its monotonic time.
            if let mine = fetches[key], mine.epoch >= fetch.epoch {
                adopted[key] = mine
            } else {
                adopted[key] = FetchState(fetch, now: now, date: date)
            }
        }
        for (key, mine) in fetches where adopted[key] == nil && mine.epoch > written { adopted[key] = mine }
        fetches = adopted
        // A removal the cache shows (or a newer fetch there) needs no guarding any more.
        droppedFetchEpochs = droppedFetchEpochs.filter { key, dropped in metadata.fetches[key].map { $0.epoch <= dropped } ?? false }
        var marks = metadata.invalidatedAt
        for (id, mine) in invalidatedAt where mine > written && mine > (marks[id] ?? Int.min) { marks[id] = mine }
        invalidatedAt = marks
        if let mine = storeInvalidatedAt, mine > written, mine > (metadata.storeInvalidatedAt ?? Int.min) {
            // Not yet written: stays.
        } else {
            storeInvalidatedAt = metadata.storeInvalidatedAt
        }
        epoch = max(epoch, written)
    }

    /// What the persistent cache's eviction must leave: the root, the records every retained or
    /// buffered query root reads (over the base records, loading what memory lacks, as garbage
    /// collection finds them), and what every watcher saw.
    func recordsToKeep() -> Set<DataID> {
        var keep: Set<DataID> = [.rootID]
        memory.withoutTouching {
            for root in roots.values where root.retainCount > 0 || releaseBuffer.contains(root.descriptor.rootKey) {
                keep.formUnion(readBase(root.descriptor).seenIDs)
            }
        }
        memory.withoutTouching { keep.formUnion(watchedIDs()) }
        return keep
    }
}
