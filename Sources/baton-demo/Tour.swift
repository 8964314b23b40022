import Foundation

/// Runs the demo's steps, prints each as a readable block and counts what failed.
final class Tour: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var passed = 0
    private(set) var failures = 0

    func step(_ title: String, _ body: () async throws -> [String]) async {
        print(title)
        do {
            for line in try await body() { print("   \(line)") }
            print("   ✓\n")
            passed += 1
        } catch {
            print("   ✗ \(error)\n")
            failures += 1
        }
    }

    func check(_ condition: Bool, _ expectation: @autoclosure () -> String) throws {
        if !condition { throw Failure(description: "expected \(expectation())") }
    }

    func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw Failure(description: "expected \(what), got nothing") }
        return value
    }

    var summary: String {
        failures == 0 ? "All \(passed) steps passed." : "\(failures) of \(passed + failures) steps failed."
    }
}

/// Where the app keeps its auth token, read by the preflight step.
final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var token: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Lines printed by a watcher while the demo goes on.
final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    func append(_ line: String) { lock.withLock { stored.append(line) } }

    /// Waits until `count` lines were printed (10 s at most).
    func wait(for count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while lines.count < count {
            guard ContinuousClock.now < deadline else { throw Tour.Failure(description: "expected \(count) lines, got \(lines)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
