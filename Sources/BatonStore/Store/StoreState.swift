import BatonAPI
import Foundation

/// A registered watcher.
struct Watcher {
    let descriptor: OperationDescriptor
    var last: ReadResult
    /// Set when the subscription is cancelled: pending notifications are then dropped.
    let cancelled: OnceFlag
    let onChange: @Sendable (ReadResult) -> Void
}

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

/// An optimistic update: its recipe, and the changes it made when last computed.
struct OptimisticLayer {
    let id: Int
    let recipe: @Sendable (@escaping Reader.Lookup) -> StoreChanges
    var changes: StoreChanges
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
    /// Pending optimistic updates by ID (IDs grow, so their order is the order applied), and
    /// their changes merged (on top of `source`).
    private(set) var layers: [Int: OptimisticLayer] = [:]
    private(set) var layerOrder: [Int] = []
    var overlay = RecordSource()
    var nextLayerID = 0
    /// For each record, how many layers read it and which layers (in order) wrote it: rebasing
    /// looks up only the layers concerned.
    private var layerReaders: [DataID: Int] = [:]
    private var layerWriters: [DataID: [Int]] = [:]
    var epoch = 0
    var storeInvalidatedAt: Int?
    var invalidatedAt: [DataID: Int] = [:]

    var watchers: [Int: Watcher] = [:]
    /// Watchers by the record IDs their last read saw: publishing finds the watchers to notify
    /// without scanning them all.
    var watchersByRecord: [DataID: Set<Int>] = [:]
    /// Watchers by the root record's fields they read (the root itself is not in `watchersByRecord`).
    var watchersByRootField: [String: Set<Int>] = [:]
    var nextWatcherID = 0

    var roots: [String: RootState] = [:]
    /// Each fetched operation's last write, by root key (kept in the cache).
    var fetches: [String: FetchState] = [:]
    /// Fetches dropped with their roots since the last commit, for it to remove from the cache.
    var droppedFetches = Set<String>()
    /// Released roots still kept, oldest first.
    var releaseBuffer: [String] = []
    /// A collection was asked for while optimistic updates were applied: it runs once the last
    /// one is gone (Relay holds garbage collection while optimistic updates are applied).
    var garbageCollectionPending = false

    init(memory: WorkingSet) {
        self.memory = memory
    }

    /// What readers see: the base records with the optimistic overlay on top. A record not in
    /// memory is loaded from the cache.
    var lookup: Reader.Lookup {
        let base = baseLookup
        if overlay.count == 0 { return base }
        let overlay = self.overlay
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

    func read(_ descriptor: OperationDescriptor) -> ReadResult {
        read(descriptor, lookup: lookup)
    }

    /// Reads the base records alone, without the optimistic overlay.
    func readBase(_ descriptor: OperationDescriptor) -> ReadResult {
        read(descriptor, lookup: baseLookup)
    }

    /// Reads through `lookup`; over a persistent cache, what is not in memory is loaded in one
    /// batch per level of the selection tree first.
    private func read(_ descriptor: OperationDescriptor, lookup: @escaping Reader.Lookup) -> ReadResult {
        memory.batchedRead {
            Reader.read(
                selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
                variables: descriptor.variables, lookup: lookup)
        } prefetch: { loadMissed in
            RecordPrefetcher.walk(
                selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
                variables: descriptor.variables, lookup: lookup, loadMissed: loadMissed)
        }
    }

    mutating func addLayer(_ layer: OptimisticLayer) {
        layers[layer.id] = layer
        layerOrder.append(layer.id)
        index(layer)
        overlay.apply(layer.changes.records)
    }

    /// Removes a layer from the list and the indexes (not from the overlay: see ``rebaseOverlay(changedBase:removed:)``).
    mutating func removeLayer(_ id: Int) -> OptimisticLayer? {
        guard let layer = layers.removeValue(forKey: id) else { return nil }
        if layerOrder.first == id { layerOrder.removeFirst() } else { layerOrder.removeAll { $0 == id } }
        unindex(layer)
        return layer
    }

    private mutating func index(_ layer: OptimisticLayer) {
        for id in layer.changes.readIDs { layerReaders[id, default: 0] += 1 }
        for id in layer.changes.records.ids { layerWriters[id, default: []].append(layer.id) }
    }

    private mutating func unindex(_ layer: OptimisticLayer) {
        for id in layer.changes.readIDs {
            let count = (layerReaders[id] ?? 1) - 1
            layerReaders[id] = count > 0 ? count : nil
        }
        for id in layer.changes.records.ids {
            layerWriters[id]?.removeAll { $0 == layer.id }
            if layerWriters[id]?.isEmpty == true { layerWriters[id] = nil }
        }
    }

    /// Brings the overlay up to date after the base changed (`changedBase`) and/or a layer was
    /// removed. A layer that read a record that changed is computed again; the others keep their
    /// changes. When no layer has to be computed again, only the removed layer's records are
    /// folded anew from the layers that wrote them, so the cost does not grow with the number of
    /// pending updates. Returns the IDs whose overlay entries may have changed, and the root
    /// fields among them.
    mutating func rebaseOverlay(changedBase: Set<DataID>, removed: OptimisticLayer?) -> (ids: Set<DataID>, rootFields: Set<String>) {
        let removedIDs = removed.map { Set($0.changes.records.ids) } ?? []
        let needsRecompute =
            changedBase.contains { layerReaders[$0] != nil } || removedIDs.contains { layerReaders[$0] != nil }
        let before = overlay
        var touched: Set<DataID>
        if needsRecompute {
            overlay = RecordSource()
            var changedSoFar = changedBase.union(removedIDs)
            for layerID in layerOrder {
                guard var layer = layers[layerID] else { continue }
                if !layer.changes.readIDs.isDisjoint(with: changedSoFar) {
                    let base = baseLookup
                    let below = overlay
                    let lookup: Reader.Lookup = { RecordState.layered(below.state(of: $0), over: base($0)) }
                    unindex(layer)
                    changedSoFar.formUnion(layer.changes.records.ids)
                    layer.changes = layer.recipe(lookup)
                    changedSoFar.formUnion(layer.changes.records.ids)
                    layers[layerID] = layer
                    index(layer)
                }
                overlay.apply(layer.changes.records)
            }
            touched = Set(before.ids).union(overlay.ids)
        } else {
            for id in removedIDs {
                var state: RecordState?
                for layerID in layerWriters[id] ?? [] {
                    if let edit = layers[layerID]?.changes.records.state(of: id) { state = RecordState.layered(edit, over: state) }
                }
                if let state { overlay.replace(id, with: state) } else { overlay.remove(id) }
            }
            touched = removedIDs
        }
        var rootFields = Set<String>()
        if touched.contains(.rootID) {
            for source in [before, overlay] {
                if let root = source[.rootID] { rootFields.formUnion(root.fields.keys) }
            }
        }
        return (touched, rootFields)
    }

    /// Lets memory go down to the working set's bound (a no-op without a persistent cache),
    /// keeping what watchers saw.
    func trimMemory() {
        let watched = watchersByRecord
        memory.trim { watched[$0] != nil }
    }

    mutating func addWatcher(_ watcher: Watcher) -> Int {
        let id = nextWatcherID
        nextWatcherID += 1
        watchers[id] = watcher
        index(id, records: watcher.last.seenIDs, rootFields: watcher.last.seenRootFields)
        return id
    }

    mutating func removeWatcher(_ id: Int) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        unindex(id, records: watcher.last.seenIDs, rootFields: watcher.last.seenRootFields)
    }

    private mutating func index(_ id: Int, records: Set<DataID>, rootFields: Set<String>) {
        for record in records where record != .rootID { watchersByRecord[record, default: []].insert(id) }
        for field in rootFields { watchersByRootField[field, default: []].insert(id) }
    }

    private mutating func unindex(_ id: Int, records: Set<DataID>, rootFields: Set<String>) {
        for record in records where record != .rootID {
            watchersByRecord[record]?.remove(id)
            if watchersByRecord[record]?.isEmpty == true { watchersByRecord[record] = nil }
        }
        for field in rootFields {
            watchersByRootField[field]?.remove(id)
            if watchersByRootField[field]?.isEmpty == true { watchersByRootField[field] = nil }
        }
    }

    /// Re-reads the watchers that saw any of `changed` records or `changedRootFields` (all
    /// watchers of the root when `nil`) and returns the notifications of those whose data
    /// changed, for the store to deliver once its lock is released. The watcher `silencing`
    /// (the one whose own fetch this commit publishes) takes the new read without a notification.
    mutating func notifyWatchers(
        of changed: Set<DataID>, changedRootFields: Set<String>?, silencing: Int? = nil
    ) -> [WatcherNotification] {
        if watchers.isEmpty { return [] }
        var affected = Set<Int>()
        for id in changed where id != .rootID {
            if let ids = watchersByRecord[id] { affected.formUnion(ids) }
        }
        if let changedRootFields {
            for field in changedRootFields {
                if let ids = watchersByRootField[field] { affected.formUnion(ids) }
            }
        } else {
            affected.formUnion(watchers.keys)
        }
        var notifications: [WatcherNotification] = []
        for id in affected.sorted() {
            guard var watcher = watchers[id] else { continue }
            let result = read(watcher.descriptor)
            if result.seenIDs != watcher.last.seenIDs || result.seenRootFields != watcher.last.seenRootFields {
                unindex(id, records: watcher.last.seenIDs, rootFields: watcher.last.seenRootFields)
                index(id, records: result.seenIDs, rootFields: result.seenRootFields)
            }
            let differs = result.data != watcher.last.data || result.isMissing != watcher.last.isMissing
            watcher.last = result
            watchers[id] = watcher
            if differs && id != silencing {
                notifications.append(WatcherNotification(subscription: watcher.cancelled, result: result, onChange: watcher.onChange))
            }
        }
        return notifications
    }
}
