import BatonAPI
import Logging

/// One write to the persistent cache, as a commit made it.
enum CacheWrite {
    /// For each ID its new state, or `nil` to forget it (garbage collection).
    case records([DataID: RecordState?])
    /// Everything goes.
    case clear
}

/// Writes the store's commits to its persistent cache in the order they were committed, outside
/// the store's lock. A commit enqueues its write while it holds the store's lock (so the queue's
/// order is the commit order) and then drains the queue; whoever drains writes every pending
/// write in order, one at a time, so when `drain()` returns the caller's own write is on disk.
final class PersistenceWriter: Sendable {
    let cache: any NormalizedCache
    private let pending = Locked<[CacheWrite]>([])
    /// Held while writing, so that two drains never interleave their writes.
    private let writing = Locked(())
    private let onError: @Sendable (any Error) -> Void

    init(cache: any NormalizedCache, onError: @escaping @Sendable (any Error) -> Void) {
        self.cache = cache
        self.onError = onError
    }

    /// Adds a write at the end of the queue. Call while holding the store's lock.
    func enqueue(_ write: CacheWrite) {
        pending.withLock { $0.append(write) }
    }

    /// Writes everything pending, in order. Call without holding the store's lock.
    func drain() {
        writing.withLock { _ in
            while true {
                let batch = pending.withLock { queue -> [CacheWrite] in
                    defer { queue.removeAll(keepingCapacity: true) }
                    return queue
                }
                if batch.isEmpty { return }
                for write in batch {
                    do {
                        switch write {
                        case .records(let changes): if !changes.isEmpty { try cache.write(changes) }
                        case .clear: try cache.clear()
                        }
                    } catch {
                        onError(error)
                    }
                }
            }
        }
    }
}

/// A watcher's new read, to be handed to it after the store's lock is released.
struct WatcherNotification {
    let subscription: OnceFlag
    let result: ReadResult
    let onChange: @Sendable (ReadResult) -> Void
}

/// Calls watchers in commit order, never while the store is locked, so a callback may read or
/// write the store. A commit enqueues its notifications under the store's lock and then drains;
/// a drain already under way (on another thread, or further up this one's stack when a callback
/// published) delivers them instead, after the ones before them.
final class NotificationQueue: Sendable {
    private struct Queue {
        var items: [WatcherNotification] = []
        var draining = false
    }

    private let queue = Locked(Queue())

    /// Adds notifications at the end. Call while holding the store's lock.
    func enqueue(_ notifications: [WatcherNotification]) {
        guard !notifications.isEmpty else { return }
        queue.withLock { $0.items.append(contentsOf: notifications) }
    }

    /// Delivers everything pending, in order, unless a drain is already under way.
    func drain() {
        var batch = queue.withLock { queue -> [WatcherNotification] in
            guard !queue.draining, !queue.items.isEmpty else { return [] }
            queue.draining = true
            defer { queue.items.removeAll(keepingCapacity: true) }
            return queue.items
        }
        while !batch.isEmpty {
            // A cancelled subscription hears nothing more, even of changes made before it ended.
            for notification in batch where !notification.subscription.isSet { notification.onChange(notification.result) }
            batch = queue.withLock { queue -> [WatcherNotification] in
                if queue.items.isEmpty {
                    queue.draining = false
                    return []
                }
                defer { queue.items.removeAll(keepingCapacity: true) }
                return queue.items
            }
        }
    }
}

let storeLogger = Logger(label: "baton.store")
