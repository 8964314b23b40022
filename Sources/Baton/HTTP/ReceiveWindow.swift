import Foundation

/// What a streamed response in ``URLSessionHTTPClient`` holds that its consumer has not taken:
/// bytes the session delivered into the stream, less those the consumer took.
///
/// FoundationNetworking cannot pause a transfer (its protocol traps on it) and runs every
/// session's libcurl work on queues with one shared serial target, so holding its reader back
/// holds up every request in the process: a streamed response cannot be back-pressured there.
/// The window bounds it instead: once the consumer is `limit` bytes behind, the session's
/// delegate fails the response with ``HTTPClientLimitError/consumerFellBehind(limit:)``, so
/// memory stays within the limit plus a chunk, whatever the server sends.
final class ReceiveWindow: Sendable {
    /// The most bytes delivered but not taken.
    let limit: Int
    private let unread = Locked(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The session delivered `count` bytes into the stream; false once the consumer is more than
    /// `limit` bytes behind.
    func delivered(_ count: Int) -> Bool {
        unread.withLock { unread in
            unread += count
            return unread <= limit
        }
    }

    /// The consumer took `count` bytes from the stream.
    func taken(_ count: Int) {
        unread.withLock { $0 = max(0, $0 - count) }
    }
}
