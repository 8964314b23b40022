import Foundation

/// Runs blocking work (waiting for a child process, reading a pipe) on a thread of its own and
/// resumes the caller when it is done.
///
/// Not `DispatchQueue.global()`: on Linux, Swift's concurrency runs its tasks on libdispatch's
/// global queues, whose worker pool grows past the core count only by a small factor (and only
/// once a monitor sees threads blocked). On a 2-core machine a few tests waiting on a Python peer
/// or `swiftc` there stall every other test's tasks, and URLSession's callbacks with them: the
/// load-only time-outs of issue 19.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let slot = WorkSlot(work)
    return try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            let result: Result<T, any Error>
            do {
                // Released before the caller resumes: what the work captured (a store over a
                // file, say) is gone when the caller goes on.
                let work = slot.take()
                result = Result { try work() }
            }
            continuation.resume(with: result)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// ``onOwnThread(_:)`` for work that cannot fail.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    let slot = WorkSlot(work)
    return await withCheckedContinuation { continuation in
        let thread = Thread {
            let result: T
            do {
                let work = slot.take()
                result = work()
            }
            continuation.resume(returning: result)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// What a finished child process printed, and how it ended.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var reason: Process.TerminationReason
    public var stdout: String
    public var stderr: String
}

/// Runs a program to its end on a thread of its own (see ``onOwnThread(_:)``), one at a time:
/// the suite's child processes (`swiftc -typecheck`, the generator) each take seconds of CPU, and
/// run all at once at the suite's start they took both cores for long enough that other tests'
/// few-second time-outs fired (issue 19).
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
) async throws -> ProcessOutput {
    let givesBackSlot = OwnThreadTrait.holdsSlot
    if givesBackSlot { await AsyncSlots.ownThreads.release() }
    await AsyncSlots.childProcesses.acquire()
    let output: Result<ProcessOutput, any Error>
    do {
        output = .success(try await run(executable, arguments, in: directory, environment: environment))
    } catch {
        output = .failure(error)
    }
    await AsyncSlots.childProcesses.release()
    if givesBackSlot { await AsyncSlots.ownThreads.acquire() }
    return try output.get()
}

private func run(
    _ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String]?
) async throws -> ProcessOutput {
    try await onOwnThread { () throws -> ProcessOutput in
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is drained on another thread, so that neither pipe fills while the
        // other is read.
        let errors = Locked(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            errorsRead.signal()
        }.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return ProcessOutput(
            status: process.terminationStatus, reason: process.terminationReason, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
    }
}

/// A counting semaphore for tasks: `acquire()` waits (without blocking a thread) for one of
/// `limit` slots.
public actor AsyncSlots {
    /// Child processes of the suite: one at a time.
    public static let childProcesses = AsyncSlots(limit: 1)
    /// Test cases that run on threads of their own (``OwnThreadTrait``): two at a time.
    public static let ownThreads = AsyncSlots(limit: 2)

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) { available = limit }

    public func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    public func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Hands a closure to the one thread that runs it, so that nothing else holds it afterwards.
final class WorkSlot<Work: Sendable>: Sendable {
    private let work: Locked<Work?>
    init(_ work: Work) { self.work = Locked(work) }
    func take() -> Work { work.withLock { value in defer { value = nil }; return value! } }
}

/// A value behind a lock, for test support.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
