import Baton

/// The events of one WebSocket operation that its consumer has not taken yet, and their bytes.
/// The connection counts each event it hands over, the consumer's side each one it takes; when
/// ``WebSocketTransportConfiguration/maxBufferedEvents`` (or
/// ``WebSocketTransportConfiguration/maxBufferedEventBytes``) wait, the connection stops reading the
/// socket until the consumer catches up (so memory stays bounded and a consumer that keeps up is
/// never cut off, however Baton's own tasks are scheduled), and ends the operation with
/// ``WebSocketTransportError/consumerFellBehind(operationName:bufferedEvents:waited:)`` when
/// it does not within ``WebSocketTransportConfiguration/slowConsumerTimeout``.
final class OperationBacklog: Sendable {
    private struct State {
        var pending = 0
        var pendingBytes = 0
        var ended = false
    }

    private let state = Locked(State())

    /// Events handed over and not yet taken.
    var pending: Int { state.withLock { $0.pending } }
    /// The bytes of the events handed over and not yet taken.
    var pendingBytes: Int { state.withLock { $0.pendingBytes } }

    /// The connection handed an event of `bytes` over.
    func delivered(bytes: Int) {
        state.withLock { state in
            state.pending += 1
            state.pendingBytes += max(0, bytes)
        }
    }

    /// The consumer took an event of `bytes`.
    func taken(bytes: Int) {
        state.withLock { state in
            state.pending = max(0, state.pending - 1)
            state.pendingBytes = max(0, state.pendingBytes - max(0, bytes))
        }
    }

    /// The operation ended or its consumer went: nothing waits on it any more.
    func end() {
        state.withLock { $0.ended = true }
    }

    /// Waits until fewer than `limit` events and fewer than `byteLimit` bytes wait (or the
    /// operation ended), at most `timeout`; false when they still wait by then.
    func drained(below limit: Int, bytes byteLimit: Int, within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let done = state.withLock { $0.ended || $0.pending == 0 || ($0.pending < limit && $0.pendingBytes < byteLimit) }
            if done { return true }
            if ContinuousClock.now >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
