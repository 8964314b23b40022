import Foundation

/// The wall clock the store dates server responses with and measures ages against. Tests give
/// a clock they move by hand (`ManualFreshnessClock` in BatonTesting) instead of sleeping.
public protocol FreshnessClock: Sendable {
    /// The time now.
    var now: Date { get }
    /// Returns once `now` has reached `date` (at once when it has); throws `CancellationError`
    /// when the task is cancelled first.
    func sleep(until date: Date) async throws
}

/// The system's wall clock.
public struct SystemFreshnessClock: FreshnessClock {
    /// The system clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }

    /// Sleeps on the continuous clock for as long as remains until `date`.
    public func sleep(until date: Date) async throws {
        let remaining = date.timeIntervalSinceNow
        if remaining > 0 { try await Task.sleep(for: .milliseconds(Int64((remaining * 1000).rounded(.up)))) }
    }
}
