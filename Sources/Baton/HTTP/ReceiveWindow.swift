import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How far a streamed response may run ahead of its consumer in ``URLSessionHTTPClient``:
/// bytes the session has delivered that the consumer has not yet taken. While they are at
/// `highWater` or more, ``waitForRoom()`` blocks its caller, which is the session's own reader
/// (see ``BackPressuredDelegateQueue``): libcurl then stops reading the socket, the kernel's
/// receive window fills, and the server is held back by TCP itself. Memory stays within
/// `highWater` plus the chunks in flight, whatever the server sends.
///
/// Released for good when the response ends or its consumer goes, so a reader never waits
/// for a consumer that will not come.
final class ReceiveWindow: Sendable {
    private struct State {
        var buffered = 0
        var released = false
        var waiting = false
    }

    /// The most bytes delivered but not taken before the reader waits.
    let highWater: Int
    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    init(highWater: Int) {
        self.highWater = max(1, highWater)
    }

    /// Blocks while the consumer is `highWater` bytes or more behind (and the window is not
    /// released).
    func waitForRoom() {
        while state.withLock({ state -> Bool in
            guard !state.released, state.buffered >= highWater else { return false }
            state.waiting = true
            return true
        }) {
            wakeUp.wait()
        }
    }

    /// The session delivered `count` bytes into the stream.
    func delivered(_ count: Int) {
        state.withLock { $0.buffered += count }
    }

    /// The consumer took `count` bytes from the stream.
    func taken(_ count: Int) {
        let wake = state.withLock { state -> Bool in
            state.buffered = max(0, state.buffered - count)
            guard state.waiting, state.buffered < highWater else { return false }
            state.waiting = false
            return true
        }
        if wake { wakeUp.signal() }
    }

    /// The response ended or its consumer went: no wait blocks again.
    func release() {
        let wake = state.withLock { state -> Bool in
            state.released = true
            defer { state.waiting = false }
            return state.waiting
        }
        if wake { wakeUp.signal() }
    }
}

/// The delegate queue of a streamed response's own `URLSession`. FoundationNetworking hands
/// every received chunk to the delegate by adding an operation to this queue from the thread
/// that runs libcurl, so waiting here, before the operation is added, while the consumer is
/// behind (``ReceiveWindow``) holds libcurl back from the socket: the one way to back-pressure
/// URLSession on Linux, where pausing a running task restarts its transfer. Only a streamed
/// response's own session waits, so no other request is held up. On Apple platforms the queue
/// never waits (URLSession's own networking reads there; not measured).
// `@unchecked Sendable` restates OperationQueue's own; this subclass adds one immutable,
// Sendable property.
final class BackPressuredDelegateQueue: OperationQueue, @unchecked Sendable {
    private let window: ReceiveWindow

    init(window: ReceiveWindow) {
        self.window = window
        super.init()
        // One at a time, in order: the body's chunks must reach the stream as they came.
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ operation: Operation) {
        // Not waiting, for now: FoundationNetworking runs every session's libcurl work on queues
        // that share one serial target, so a reader waiting here held up every URLSession in the
        // process, `dataTask(with:)` included (it syncs on that queue), and with them the
        // cooperative pool's threads that called it: the whole suite deadlocked (issue 30,
        // item 1, not done for URLSession on Linux). The window still counts what waits.
        super.addOperation(operation)
    }
}
