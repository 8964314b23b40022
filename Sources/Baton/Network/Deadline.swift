import Foundation

/// Runs `body` in a task of its own and returns what it returns, or throws `timeoutError()` once
/// `limit` has passed, whichever comes first. On time-out or when the caller's task is cancelled
/// the body's task is cancelled and not waited for, so an HTTP client that is slow to notice
/// cannot hold the caller past the deadline.
func withDeadline<T: Sendable>(
    _ limit: Duration?, timeoutError: @escaping @Sendable () -> any Error,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard let limit else { return try await body() }
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.start(continuation)
            let work = Task {
                do {
                    race.finish(.success(try await body()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            let timer = Task {
                do {
                    try await Task.sleep(for: limit)
                    race.finish(.failure(timeoutError()))
                } catch {}  // cancelled: the work finished first
            }
            race.hold(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The one-time outcome of a ``withDeadline(_:timeoutError:_:)`` race.
private final class DeadlineRace<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var outcome: Result<T, any Error>?
    private var work: Task<Void, Never>?
    private var timer: Task<Void, Never>?

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = lock.withLock { () -> Result<T, any Error>? in
            if let outcome { return outcome }
            self.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func hold(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let finished = lock.withLock { () -> Bool in
            self.work = work
            self.timer = timer
            return outcome != nil
        }
        if finished {
            work.cancel()
            timer.cancel()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = lock.withLock { () -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) in
            guard outcome == nil else { return (nil, nil, nil) }
            outcome = result
            defer {
                self.continuation = nil
                self.work = nil
                self.timer = nil
            }
            return (self.continuation, self.work, self.timer)
        }
        work?.cancel()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
