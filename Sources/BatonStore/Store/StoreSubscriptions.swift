import BatonAPI

/// A registered watcher.
struct Watcher {
    let descriptor: OperationDescriptor
    var last: ReadResult
    /// The store's change version `last` was read at: it shows every change up to that one.
    var readVersion: Int
    /// Set when the subscription is cancelled: pending notifications are then dropped.
    let cancelled: OnceFlag
    let onChange: @Sendable (ReadResult) -> Void
}

/// What one commit changed, kept for the watchers until they have re-read: the records, and the
/// root record's fields (`nil`: all of them).
struct PendingChange {
    let version: Int
    let records: Set<DataID>
    let rootFields: Set<String>?
}

/// The store's watchers (relay-runtime's `RelayStoreSubscriptions`), indexed by the records and
/// root fields their last read saw: the changes a batch of commits made find the watchers to
/// re-read without scanning them all, and only those re-read.
struct StoreSubscriptions {
    private(set) var watchers: [Int: Watcher] = [:]
    /// Watchers by the record IDs their last read saw.
    private(set) var byRecord: [DataID: Set<Int>] = [:]
    /// Watchers by the root record's fields they read (the root itself is not in `byRecord`).
    private var byRootField: [String: Set<Int>] = [:]
    private var nextID = 0

    var count: Int { watchers.count }
    var isEmpty: Bool { watchers.isEmpty }

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

    /// The watchers, in the order they subscribed, whose last read saw a record or root field
    /// that one of `changes` made after that read.
    func affected(by changes: [PendingChange]) -> [Int] {
        if watchers.isEmpty { return [] }
        var affected = Set<Int>()
        for change in changes {
            var candidates = Set<Int>()
            for id in change.records where id != .rootID {
                if let ids = byRecord[id] { candidates.formUnion(ids) }
            }
            if let fields = change.rootFields {
                for field in fields {
                    if let ids = byRootField[field] { candidates.formUnion(ids) }
                }
            } else {
                candidates.formUnion(watchers.keys)
            }
            for id in candidates where !affected.contains(id) {
                if let watcher = watchers[id], watcher.readVersion < change.version { affected.insert(id) }
            }
        }
        return affected.sorted()
    }

    /// The descriptor watcher `id` reads, while it is registered.
    func descriptor(of id: Int) -> OperationDescriptor? { watchers[id]?.descriptor }

    /// Takes `result`, read at change version `version`, as watcher `id`'s last read (re-indexed
    /// by what it saw), and returns its notification when its data changed, unless `silently`.
    /// A watcher that is gone, or that has read at this version or a later one since, keeps what
    /// it has.
    mutating func take(_ result: ReadResult, for id: Int, at version: Int, silently: Bool = false) -> WatcherNotification? {
        guard var watcher = watchers[id], watcher.readVersion < version else { return nil }
        if result.seenIDs != watcher.last.seenIDs || result.seenRootFields != watcher.last.seenRootFields {
            unindex(id, records: watcher.last.seenIDs, rootFields: watcher.last.seenRootFields)
            index(id, records: result.seenIDs, rootFields: result.seenRootFields)
        }
        let differs = result.data != watcher.last.data || result.isMissing != watcher.last.isMissing
        watcher.last = result
        watcher.readVersion = version
        watchers[id] = watcher
        guard differs && !silently else { return nil }
        return WatcherNotification(subscription: watcher.cancelled, result: result, onChange: watcher.onChange)
    }
}
