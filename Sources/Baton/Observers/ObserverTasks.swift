/// The tasks an observer runs (its watch consumers): replaced when the observer changes what it
/// follows, and cancelled when the observer is released, which ends its watches.
final class ObserverTasks: Sendable {
    private let tasks = Locked<[String: Task<Void, Never>]>([:])

    /// Runs `task` under `name`, cancelling the one it replaces.
    func replace(_ name: String, with task: Task<Void, Never>?) {
        let old = tasks.withLock { tasks in
            defer { tasks[name] = task }
            return tasks[name]
        }
        old?.cancel()
    }

    deinit {
        for task in tasks.withLock({ $0.values }) { task.cancel() }
    }
}
