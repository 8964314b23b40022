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
    /// one fails with ``BatonError/responseTooLarge(operationName:limit:)`` as soon as it passes
    /// the limit, or before any of it is read when its `Content-Length` announces more. This also
    /// bounds what a small compressed body may inflate to. For an incremental (`@defer`,
    /// `@stream`) response it bounds all its parts together; a subscription's stream is bounded
    /// per event by `maxPartBytes` only. Default: 64 MiB.
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
    /// transport's keep-alive), retries and their delays too; else
    /// ``BatonError/timedOut(operationName:after:)`` with this duration. Unlike URLSession's own
    /// timeout, a body that trickles in byte by byte does not reset it. An upload's sending
    /// counts too: raise it for large files. `nil`: no limit. Default: 60 seconds.
    public var operationTimeout: Duration?
    /// The most HTTP redirects followed for one request; one more is
    /// ``BatonError/tooManyRedirects(operationName:limit:)``. Whatever the count, both HTTP
    /// clients Baton ships follow ``HTTPRequestOptions/redirect(of:body:status:to:)``: a redirect
    /// to another origin never carries `Authorization`, `Cookie`, `Proxy-Authorization` or a
    /// header named in `SensitiveData.headerNames`, and a request with a body (a `POST`) follows
    /// only a 307 or 308 to its own origin, with its method and body
    /// (else ``BatonError/redirectRefused(operationName:status:location:reason:)``). Default: 10.
    public var maxRedirects: Int
    /// The most bytes of a streaming response (`@defer`, a subscription over HTTP) that may
    /// wait, received but not yet parsed. AsyncHTTPClient (`BatonAsyncHTTPClient`) reads the
    /// socket only as fast as Baton parses and never reaches it. `URLSession` on Linux cannot be
    /// held back (FoundationNetworking cannot pause a transfer), so there a server that sends
    /// faster than the operation's consumer takes ends it with
    /// ``BatonError/consumerFellBehind(operationName:limit:)`` instead of filling memory; on
    /// Linux, prefer the AsyncHTTPClient adapter for subscriptions that burst. Default: 32 MiB.
    public var maxUnreadBytes: Int
    /// The most bytes of a subscription's events that may wait for its consumer (each event
    /// counted by the bytes it was read from): once they reach it, Baton reads no further event
    /// until the consumer takes some, as when `bufferLimit` events wait (see
    /// `BatonClient.subscribe(subscription:bufferLimit:)`), so a slow consumer of large events
    /// holds this much, not `bufferLimit` × ``maxPartBytes``. A consumer that keeps up, or falls
    /// behind for a while, still gets every event, in order; an event larger than this still
    /// goes through, alone. Default: 32 MiB.
    public var maxBufferedEventBytes: Int

    /// The defaults, or others given here.
    public init(
        maxResponseBytes: Int = 64 << 20,
        maxPartBytes: Int = 16 << 20,
        maxErrorPathLength: Int = 1_024,
        operationTimeout: Duration? = .seconds(60),
        maxRedirects: Int = 10,
        maxUnreadBytes: Int = 32 << 20,
        maxBufferedEventBytes: Int = 32 << 20
    ) {
        self.maxUnreadBytes = maxUnreadBytes
        self.maxBufferedEventBytes = maxBufferedEventBytes
        self.maxRedirects = maxRedirects
        self.maxResponseBytes = maxResponseBytes
        self.maxPartBytes = maxPartBytes
        self.maxErrorPathLength = maxErrorPathLength
        self.operationTimeout = operationTimeout
    }

    /// The defaults.
    public static let `default` = ResponseLimits()
}
