import BatonAPI

/// A registered watcher.
struct Watcher {
    let descriptor: OperationDescriptor
    var last: ReadResult
    /// Set when the subscription is cancelled: pending notifications are then dropped.
    let cancelled: OnceFlag
    let onChange: @Sendable (ReadResult) -> Void
}

/// The store's watchers (relay-runtime's `RelayStoreSubscriptions`), indexed by the records and
/// root fields their last read saw: a commit finds the watchers to re-read without scanning
/// them all, and re-reads only those.
struct StoreSubscriptions {
    private(set) var watchers: [Int: Watcher] = [:]
    /// Watchers by the record IDs their last read saw.
    private(set) var byRecord: [DataID: Set<Int>] = [:]
    /// Watchers by the root record's fields they read (the root itself is not in `byRecord`).
    private var byRootField: [String: Set<Int>] = [:]
    private var nextID = 0

    var count: Int { watchers.count }

    mutating func add(_ watcher: Watcher) -> Int {
        let id = nextID
        nextID += 1
        watchers[id] = watcher
        index(id, records: watcher.last.seenIDs, rootFields: watcher.last.seenRootFields)
        return id
    }

    mutating func remove(_ id: Int) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        unindex(id, records: watcher.last.seenIDs, rootFields: watcher.last.seenRootFields)
    }

    private mutating func index(_ id: Int, records: Set<DataID>, rootFields: Set<String>) {
        for record in records where record != .rootID { byRecord[record, default: []].insert(id) }
        for field in rootFields { byRootField[field, default: []].insert(id) }
    }

    private mutating func unindex(_ id: Int, records: Set<DataID>, rootFields: Set<String>) {
        for record in records where record != .rootID {
            byRecord[record]?.remove(id)
            if byRecord[record]?.isEmpty == true { byRecord[record] = nil }
        }
        for field in rootFields {
            byRootField[field]?.remove(id)
            if byRootField[field]?.isEmpty == true { byRootField[field] = nil }
        }
    }

    /// Re-reads (with `read`) the watchers that saw any of `changed` records or
    /// `changedRootFields` (all watchers of the root when `nil`) and returns the notifications of
    /// those whose data changed, for the store to deliver once its lock is released. The watcher
    /// `silencing` (the one whose own fetch this commit publishes) takes the new read without a
    /// notification.
    mutating func notify(
        of changed: Set<DataID>, changedRootFields: Set<String>?, silencing: Int?, read: (OperationDescriptor) -> ReadResult
    ) -> [WatcherNotification] {
        if watchers.isEmpty { return [] }
        var affected = Set<Int>()
        for id in changed where id != .rootID {
            if let ids = byRecord[id] { affected.formUnion(ids) }
        }
        if let changedRootFields {
            for field in changedRootFields {
                if let ids = byRootField[field] { affected.formUnion(ids) }
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
