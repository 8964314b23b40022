/// The bounds a client keeps against a server it does not control: how much it reads, how long
/// it waits. Every limit has a safe default; each one that is reached ends the operation with a
/// typed ``BatonError`` that names it, never a trap and never unbounded memory.
///
/// The WebSocket transport's own bounds (upgrade deadline, frame and message sizes, reconnection)
/// are in `WebSocketTransportConfiguration`.
///
/// ```swift
/// var limits = ResponseLimits()
/// limits.maxResponseBytes = 256 << 20   // a client that downloads large exports
/// let client = BatonClient(url: url, limits: limits)
/// ```
public struct ResponseLimits: Sendable, Hashable {
    /// The largest response body read, after any content decoding (gzip and the like): a larger
    /// one fails as soon as it passes the limit. Default: 64 MiB.
    public var maxResponseBytes: Int
    /// The largest part of a `multipart/mixed` response (`@defer`, `@stream`, a multipart
    /// subscription) or event of a Server-Sent Events stream, including a line within it.
    /// Default: 16 MiB.
    public var maxPartBytes: Int
    /// The most elements a GraphQL error's `path` may have; a longer one is a malformed
    /// response. Default: 1,024.
    public var maxErrorPathLength: Int
    /// How long one operation may take from its request to its last byte, an incremental
    /// response's every part included (subscriptions excepted: they are bounded by their
    /// transport's keep-alive). `nil`: no limit. Default: 60 seconds.
    public var operationTimeout: Duration?

    /// The defaults, or others given here.
    public init(
        maxResponseBytes: Int = 64 << 20,
        maxPartBytes: Int = 16 << 20,
        maxErrorPathLength: Int = 1_024,
        operationTimeout: Duration? = .seconds(60)
    ) {
        self.maxResponseBytes = maxResponseBytes
        self.maxPartBytes = maxPartBytes
        self.maxErrorPathLength = maxErrorPathLength
        self.operationTimeout = operationTimeout
    }

    /// The defaults.
    public static let `default` = ResponseLimits()
}
