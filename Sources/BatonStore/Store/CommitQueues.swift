import BatonAPI
import Logging

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
