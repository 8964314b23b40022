import BatonAPI

/// A registered watcher.
struct Watcher {
    let descriptor: OperationDescriptor
    var last: ReadResult
    let onChange: @Sendable (ReadResult) -> Void
}

/// Retention and fetch information for a query root.
struct RootState {
    let descriptor: OperationDescriptor
    var retainCount = 0
    var fetchEpoch = 0
    var fetchTime: ContinuousClock.Instant?

    init(descriptor: OperationDescriptor) {
        self.descriptor = descriptor
    }

    mutating func fetched(epoch: Int, at time: ContinuousClock.Instant) {
        fetchEpoch = epoch
        fetchTime = time
    }
}

/// Everything the store guards with its lock.
struct StoreState {
    var source: RecordSource
    var epoch = 0
    var storeInvalidatedAt: Int?
    var invalidatedAt: [DataID: Int] = [:]

    var watchers: [Int: Watcher] = [:]
    /// Watchers by the record IDs their last read saw: publishing finds the watchers to notify
    /// without scanning them all.
    var watchersByRecord: [DataID: Set<Int>] = [:]
    var nextWatcherID = 0

    var roots: [String: RootState] = [:]
    /// Released roots still kept, oldest first.
    var releaseBuffer: [String] = []

    init(source: RecordSource) {
        self.source = source
    }

    func read(_ descriptor: OperationDescriptor) -> ReadResult {
        let source = self.source
        return Reader.read(
            selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables, lookup: { source.state(of: $0) })
    }

    mutating func addWatcher(_ watcher: Watcher) -> Int {
        let id = nextWatcherID
        nextWatcherID += 1
        watchers[id] = watcher
        for record in watcher.last.seenIDs { watchersByRecord[record, default: []].insert(id) }
        return id
    }

    mutating func removeWatcher(_ id: Int) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        unindex(id, watcher.last.seenIDs)
    }

    private mutating func unindex(_ id: Int, _ records: Set<DataID>) {
        for record in records {
            watchersByRecord[record]?.remove(id)
            if watchersByRecord[record]?.isEmpty == true { watchersByRecord[record] = nil }
        }
    }

    /// Re-reads the watchers that saw any of `changed` and calls those whose data changed.
    mutating func notifyWatchers(of changed: Set<DataID>) {
        var affected = Set<Int>()
        for id in changed {
            if let ids = watchersByRecord[id] { affected.formUnion(ids) }
        }
        for id in affected.sorted() {
            guard var watcher = watchers[id] else { continue }
            let result = read(watcher.descriptor)
            if result.seenIDs != watcher.last.seenIDs {
                unindex(id, watcher.last.seenIDs.subtracting(result.seenIDs))
                for record in result.seenIDs.subtracting(watcher.last.seenIDs) {
                    watchersByRecord[record, default: []].insert(id)
                }
            }
            let differs = result.data != watcher.last.data || result.isMissing != watcher.last.isMissing
            watcher.last = result
            watchers[id] = watcher
            if differs { watcher.onChange(result) }
        }
    }
}
