import BatonAPI
import Logging

/// A watcher's new read, to be handed to it after the store's lock is released.
struct WatcherNotification {
    let subscription: OnceFlag
    let result: ReadResult
    let onChange: @Sendable (ReadResult) -> Void
}

/// Notifies watchers in commit order, never while the store is locked, so that a callback may
/// read or write the store (relay-runtime's publish queue runs its subscriptions so, after the
/// commit). A commit only records what it changed (``enqueue(_:)``, under the store's lock) and
/// then drains: one drainer at a time takes every change recorded so far, has the watchers they
/// concern re-read once for the whole batch (``drain(_:)``'s `reread`, which takes the lock only
/// as it needs it), and delivers the notifications; a drain already under way (on another
/// thread, or further up this one's stack when a callback published) delivers the later ones,
/// after the ones before them. Committers never wait for watchers to re-read, and a burst of
/// commits costs each affected watcher one read.
final class NotificationQueue: Sendable {
    private struct Queue {
        var changes: [PendingChange] = []
        var draining = false
    }

    private let queue = Locked(Queue())

    /// Records a commit's change, at the end. Call while holding the store's lock, so that the
    /// changes stay in commit order.
    func enqueue(_ change: PendingChange) {
        queue.withLock { $0.changes.append(change) }
    }

    /// The changes recorded and not yet taken, oldest first; they are the caller's now. Call
    /// while holding the store's lock.
    func takeChanges() -> [PendingChange] {
        queue.withLock { queue in
            defer { queue.changes.removeAll(keepingCapacity: true) }
            return queue.changes
        }
    }

    /// Unless a drain is already under way: calls `reread` (which takes the pending changes
    /// with ``takeChanges()`` and returns the notifications of the watchers they changed) and
    /// delivers what it returns, in order, until no change is left.
    func drain(_ reread: () -> [WatcherNotification]) {
        let claimed = queue.withLock { queue -> Bool in
            guard !queue.draining, !queue.changes.isEmpty else { return false }
            queue.draining = true
            return true
        }
        guard claimed else { return }
        while true {
            // A cancelled subscription hears nothing more, even of changes made before it ended.
            for notification in reread() where !notification.subscription.isSet { notification.onChange(notification.result) }
            let done = queue.withLock { queue -> Bool in
                guard queue.changes.isEmpty else { return false }
                queue.draining = false
                return true
            }
            if done { return }
        }
    }
}

let storeLogger = Logger(label: "baton.store")
