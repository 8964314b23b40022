import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of Baton's URLSession sessions on Linux: it runs each delegate call at
    /// once, on the thread that hands it over, instead of queueing it.
    ///
    /// FoundationNetworking reads the socket on the one serial work queue every session in the
    /// process shares, and hands each chunk it read (up to 16 KB) to the session's delegate by
    /// adding an operation to the delegate queue, without waiting for it. When the delegate
    /// queue's thread gets fewer turns than the work queue's (a busy process), the chunks pile up
    /// there, unseen by the limits the delegate enforces (`maxResponseBytes`, `maxUnreadBytes`),
    /// and after a failure they are still all held until the queue reaches them: peaks of ~200 MB
    /// against limits of 12 MiB were measured so.
    ///
    /// Run at once, on the work queue and in its order, every chunk is counted as libcurl reads
    /// it, a failure drops the chunks after it at once, and nothing piles up. This is safe because
    /// ``StreamingSessionDelegate`` never waits: each call takes its lock briefly and hands the
    /// chunk on (to the body stream, whose own window bounds it), and it makes the calls that
    /// wait for the work queue (`cancel`, invalidation) on ``URLSessionCalls``' lanes, never here.
    /// FoundationNetworking's own completion handlers (the response's disposition, a redirect's
    /// decision) go back to the work queue asynchronously.
    ///
    /// `@unchecked Sendable` is `OperationQueue`'s own conformance, restated as Swift requires of
    /// a subclass; this class adds no state.
    final class ImmediateDelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }

        override func addOperation(_ operation: Operation) {
            operation.start()
        }
    }
#endif
