import BatonStore
import Foundation

/// A wall clock that moves only when a test moves it: give it to a `Store` (`clock:`) to age
/// cached data without sleeping. Tasks sleeping on it (a watch waiting for its data to go stale)
/// wake when ``advance(by:)`` or ``set(_:)`` passes their time.
///
/// ```swift
/// let clock = ManualFreshnessClock()
/// let store = Store(freshness: CacheFreshness(defaultMaxAge: .seconds(60)), clock: clock)
/// // … fetch …
/// clock.advance(by: .seconds(61))   // the data is stale now
/// ```
public final class ManualFreshnessClock: FreshnessClock, Sendable {
    private struct Sleeper {
        let until: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        /// Sleeps begun whose continuation is not registered yet.
        var starting = Set<Int>()
        /// Sleeps cancelled before their continuation was registered.
        var cancelled = Set<Int>()
        var nextID = 0
    }

    private let state: Locked<State>

    /// A clock reading `now` (by default a fixed date, so runs are alike).
    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Locked(State(now: now))
    }

    /// The time the clock reads.
    public var now: Date { state.withLock { $0.now } }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward by `duration` and wakes the sleepers whose time has come.
    public func advance(by duration: Duration) {
        let interval = duration.seconds
        move { $0.addingTimeInterval(interval) }
    }

    /// Sets the clock to `date` (forward or back) and wakes the sleepers whose time has come.
    public func set(_ date: Date) {
        move { _ in date }
    }

    private func move(_ change: (Date) -> Date) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = change(state.now)
            let now = state.now
            let due = state.sleepers.filter { $0.value.until <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.sorted { $0.key < $1.key }.map(\.value)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once the clock reads `date` or later; throws `CancellationError` when the task
    /// is cancelled first.
    public func sleep(until date: Date) async throws {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            state.starting.insert(state.nextID)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    state.starting.remove(id)
                    if state.cancelled.remove(id) != nil { return .some(CancellationError()) }
                    if state.now >= date { return .some(nil) }
                    state.sleepers[id] = Sleeper(until: date, continuation: continuation)
                    return nil
                }
                switch resumeNow {
                case .some(let error?): continuation.resume(throwing: error)
                case .some(nil): continuation.resume()
                case nil: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    // Not registered yet: the sleep ends as soon as it is. (Already woken: nothing to do.)
                    if state.starting.contains(id) { state.cancelled.insert(id) }
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
