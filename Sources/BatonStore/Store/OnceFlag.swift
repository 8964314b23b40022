/// A flag that can be set once: `setFirstTime()` is true for the first caller only. Tokens use
/// it so that releasing or cancelling twice does nothing.
package final class OnceFlag: Sendable {
    private let flag = Locked(false)

    package init() {}

    package func setFirstTime() -> Bool {
        flag.withLock { value in
            defer { value = true }
            return !value
        }
    }

    /// Whether it was set.
    package var isSet: Bool { flag.withLock { $0 } }
}
