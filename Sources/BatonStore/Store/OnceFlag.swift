/// A flag that can be set once: `setFirstTime()` is true for the first caller only. Tokens use
/// it so that releasing or cancelling twice does nothing.
package final class OnceFlag: Sendable {
    private let isSet = Locked(false)

    package init() {}

    package func setFirstTime() -> Bool {
        isSet.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
