import Baton
import BatonAPI
import Dispatch
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

/// Whether the caller runs on the main actor, checked without trapping: the main actor runs its
/// jobs on the main dispatch queue, which carries a mark. (Under `swift test` on Linux that queue
/// is drained by a thread other than the process's first, so `Thread.isMainThread` says false
/// even on the main actor; the queue is what the main actor is.)
enum MainActorCheck {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Void = DispatchQueue.main.setSpecific(key: key, value: true)

    static var isCurrent: Bool {
        _ = marked
        return DispatchQueue.getSpecific(key: key) == true
    }
}

/// Follows what `read` reads, as a view would, counting the changes and those that did not
/// happen on the main actor (checked where the change is made: observation's `onChange` runs
/// synchronously in the mutation).
@MainActor
final class ChangeProbe {
    let changes = Locked(0)
    let offMainActor = Locked(0)
    private let read: @MainActor @Sendable () -> Void

    init(_ read: @escaping @MainActor @Sendable () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        _ = MainActorCheck.isCurrent  // marks the main queue before any change
        withObservationTracking { read() } onChange: { [changes, offMainActor] in
            changes.withLock { $0 += 1 }
            if !MainActorCheck.isCurrent { offMainActor.withLock { $0 += 1 } }
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
