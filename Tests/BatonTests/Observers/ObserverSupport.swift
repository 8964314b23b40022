import Baton
import BatonAPI
import Foundation
import Observation

/// Waits until `condition` holds, re-checking each time what it reads changes (no polling):
/// what a view does when an observer's state changes.
@MainActor
func until(_ condition: @escaping @MainActor @Sendable () -> Bool) async {
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = withObservationTracking { condition() } onChange: { continuation.resume() }
        }
    }
}

/// Follows what `read` reads, as a view would, counting the changes and those that did not
/// happen on the main thread (checked where the change is made: observation's `onChange` runs
/// synchronously in the mutation).
@MainActor
final class ChangeProbe {
    let changes = Locked(0)
    let offMainThread = Locked(0)
    private let read: @MainActor @Sendable () -> Void

    init(_ read: @escaping @MainActor @Sendable () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking { read() } onChange: { [changes, offMainThread] in
            changes.withLock { $0 += 1 }
            if !Thread.isMainThread { offMainThread.withLock { $0 += 1 } }
            Task { @MainActor in self.track() }
        }
    }
}

extension QueryObserver.State {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    var result: GraphQLResult<Query.Data>? {
        if case .success(let result) = self { return result }
        return nil
    }
}

/// Holds an object weakly: whether it was released.
@MainActor
final class WeakReference<Object: AnyObject> {
    weak var object: Object?
}
