import Observation

/// Renders as a SwiftUI view does: each line is read now, and read again (and printed when it
/// changed) every time something it read changes, on the main actor.
@MainActor
@Observable
final class ViewLog {
    private(set) var lines: [String] = []
    @ObservationIgnored private var last: [String: String] = [:]

    /// Follows `render` under `name` for as long as the demo runs.
    func follow(_ name: String, _ render: @escaping @MainActor @Sendable () -> String) {
        let line = withObservationTracking {
            render()
        } onChange: {
            Task { @MainActor in self.follow(name, render) }
        }
        if last[name] != line {
            last[name] = line
            lines.append("\(name): \(line)")
        }
    }

    /// Waits until `condition` holds, re-checking whenever what it reads changes.
    func until(_ condition: @escaping @MainActor @Sendable () -> Bool) async {
        while !condition() {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                _ = withObservationTracking { condition() } onChange: { continuation.resume() }
            }
            await Task.yield()
        }
    }
}
