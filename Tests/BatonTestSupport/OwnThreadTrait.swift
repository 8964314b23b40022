import Foundation
import Synchronization
import Testing

/// Runs each test case of a test or suite on a thread of its own (a task executor preference),
/// not on Swift's shared cooperative pool.
///
/// For tests that compute for a long time without suspending (thousands of store operations, a
/// large file, a random model): on the pool, each one holds one of its two threads (on a 2-core
/// machine) until it ends, and at the suite's start, when every test begins at once, they held
/// both threads for about 20 seconds, so that no other test's task ran, and every time-out that
/// waits on the network (WebSocket reconnects, subscriptions) fired (issue 19). On threads of
/// their own they share the cores with everything else as the kernel schedules them; at most two
/// run at once (``AsyncSlots/ownThreads``), so that the pool's threads keep a fair share.
///
/// The test's own code and every nonisolated async function it calls run on its thread; actors
/// and unstructured tasks it starts run where they would anyway.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's scope covers its tests; each test case gets the thread.
        guard testCase != nil else { return try await function() }
        await AsyncSlots.ownThreads.acquire()
        defer { Task { await AsyncSlots.ownThreads.release() } }
        let executor = ThreadTaskExecutor(name: test.name)
        defer { executor.shutDown() }
        try await Self.$holdsSlot.withValue(true) {
            try await withTaskExecutorPreference(executor) { try await function() }
        }
    }

    /// Whether the current task runs a test case that holds one of ``AsyncSlots/ownThreads``:
    /// ``runProcess(_:_:in:environment:)`` gives the slot back while it waits for a child process
    /// (the suite runs one at a time, and a test waiting its turn computes nothing).
    @TaskLocal public static var holdsSlot = false
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case runs on a thread of its own: see ``OwnThreadTrait``.
    public static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor with one thread that runs its jobs in order.
public final class ThreadTaskExecutor: TaskExecutor {
    private let jobs = Mutex<(queue: [UnownedJob], shutDown: Bool, exited: Bool)>(([], false, false))
    private let available = DispatchSemaphore(value: 0)

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = jobs.withLock { state -> Bool in
            guard !state.exited else { return false }
            state.queue.append(job)
            return true
        }
        // A job that comes after the thread ended (nothing in the test waits for it) runs on the pool.
        guard queued else { return globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        available.signal()
    }

    /// Lets the thread end once the jobs enqueued so far have run.
    public func shutDown() {
        jobs.withLock { $0.shutDown = true }
        available.signal()
    }

    private func run() {
        while true {
            available.wait()
            let next = jobs.withLock { state -> UnownedJob?? in
                if !state.queue.isEmpty { return state.queue.removeFirst() }
                guard state.shutDown else { return nil }
                state.exited = true
                return .some(nil)
            }
            switch next {
            case .some(let job?): job.runSynchronously(on: asUnownedTaskExecutor())
            case .some(nil): return
            case nil: continue
            }
        }
    }
}
