/// Sends each value to every stream of subscribers open at the time.
final class EventBroadcaster<Value: Sendable>: Sendable {
    private typealias Subscriber = AsyncThrowingStream<any Sendable, any Error>.Continuation

    private struct State: Sendable {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Sends `value` to the current subscribers.
    func send(_ value: Value) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            subscriber.yield(value)
        }
    }

    /// The values sent from now on, until the stream is dropped.
    func events() -> AsyncThrowingStream<any Sendable, any Error> {
        let (stream, continuation) = AsyncThrowingStream<any Sendable, any Error>.makeStream()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
