import Baton
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import WSClient
@_spi(WSInternal) import WSCore

/// The WebSocket upgrade request, as Baton sends it.
///
/// swift-websocket's `WebSocketClient` builds the request itself: it sends `Origin: ws://<host>`
/// without the port (which servers that check Origin, such as strawberry, gorilla/websocket and
/// Tornado, take for a cross-origin page on any non-default port) and adds a configured Origin
/// beside its own (two Origin headers get 400), and a refused upgrade loses its status. Baton
/// therefore runs the handshake itself on swift-websocket's `ClientConnection`, then hands the
/// upgraded channel to the same frame handler `WebSocketClient` uses.
struct WebSocketUpgradeRequest: Sendable {
    /// The host to connect to (no brackets around an IPv6 address).
    let host: String
    let port: Int
    let usesTLS: Bool
    /// The request target: path and query.
    let target: String
    /// The request's headers: `Host`, `Origin` (unless omitted) and the configured ones.
    let headers: HTTPHeaders

    enum Failure: Error, CustomStringConvertible {
        case invalidURL(String)
        var description: String {
            switch self {
            case .invalidURL(let url): "not a ws:// or wss:// URL with a host: \(url)"
            }
        }
    }

    init(url: String, origin: WebSocketTransportConfiguration.Origin, headerFields: HTTPFields) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw Failure.invalidURL(url) }
        switch scheme {
        case "ws", "http": usesTLS = false
        case "wss", "https": usesTLS = true
        default: throw Failure.invalidURL(url)
        }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.host = bareHost
        port = components.port ?? (usesTLS ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")

        let hostForHeader = bareHost.contains(":") ? "[\(bareHost)]" : bareHost
        // As WebSocketClient and browsers do: the port only when the URL names one.
        let hostHeader = components.port.map { "\(hostForHeader):\($0)" } ?? hostForHeader
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        // One Origin at most: a configured one replaces Baton's own.
        let configuredOrigin = headerFields[.origin]
        switch (configuredOrigin, origin) {
        case (let value?, _):
            headers.add(name: "Origin", value: value)
        case (nil, .server):
            headers.add(name: "Origin", value: (usesTLS ? "https://" : "http://") + hostHeader)
        case (nil, .value(let value)):
            headers.add(name: "Origin", value: value)
        case (nil, .omitted):
            break
        }
        for field in headerFields where field.name != .origin && field.name.canonicalName != "host" {
            headers.add(name: field.name.rawName, value: field.value)
        }
        self.headers = headers
    }
}

/// A refused upgrade: the server answered the handshake with this status instead of 101.
struct WebSocketUpgradeRefused: Error, Sendable {
    let status: Int
    let body: String?
}

/// The connection and upgrade did not complete within the configured time.
struct WebSocketUpgradeTimedOut: Error, Sendable {}

/// Records the first protocol error swift-nio's frame decoder reports (a frame over the size
/// limit, a fragmented or long control frame). NIO answers it with a close frame and closes the
/// channel, and the frame handler then only sees the connection end; the connection reads the
/// error from here to fail for good rather than reconnect.
final class FrameErrorObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    let seen: Locked<NIOWebSocketError?>
    /// Counts the data messages the socket delivered (a frame that ends a text or binary
    /// message), on the event loop, whatever the task that reads them is doing.
    let arrivedMessages: Locked<Int>?

    init(seen: Locked<NIOWebSocketError?>, arrivedMessages: Locked<Int>? = nil) {
        self.seen = seen
        self.arrivedMessages = arrivedMessages
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The frame is only looked at, in an expression of its own: no copy of it is held while
        // the handlers after this one (and the task that reads it) use it.
        if let arrivedMessages, Self.endsDataMessage(unwrapInboundIn(data)) {
            arrivedMessages.withLock { $0 += 1 }
        }
        context.fireChannelRead(data)
    }

    private static func endsDataMessage(_ frame: WebSocketFrame) -> Bool {
        frame.fin && (frame.opcode == .text || frame.opcode == .binary || frame.opcode == .continuation)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOWebSocketError {
            seen.withLock { if $0 == nil { $0 = error } }
        }
        context.fireErrorCaught(error)
    }
}

/// The context swift-websocket's frame handler hands to the data handler.
struct WebSocketUpgradeContext: WebSocketContext {
    let logger: Logger
}

/// Runs one WebSocket connection: the upgrade request, then the frame handler.
struct WebSocketUpgradeClient: Sendable {
    let request: WebSocketUpgradeRequest
    let maxFrameSize: Int
    let closeTimeout: Duration
    let upgradeTimeout: Duration
    /// Where the frame decoder's protocol error, if any, is recorded.
    let frameError: Locked<NIOWebSocketError?>
    /// Where the data messages the socket delivered are counted (see `FrameErrorObserver`).
    var arrivedMessages: Locked<Int>? = nil
    let logger: Logger
    let handler: WebSocketDataHandler<WebSocketUpgradeContext>

    /// Connects, upgrades and runs `handler`; returns the server's close frame, if it sent one.
    /// Throws ``WebSocketUpgradeRefused`` when the server answers the upgrade with another status.
    func run() async throws -> WebSocketCloseFrame? {
        let sslContext = try request.usesTLS ? NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        let channel = WebSocketUpgradeChannel(
            request: request, maxFrameSize: maxFrameSize, closeTimeout: closeTimeout, upgradeTimeout: upgradeTimeout,
            frameError: frameError, arrivedMessages: arrivedMessages, sslContext: sslContext, handler: handler)
        let connection = ClientConnection(
            channel, address: .hostname(request.host, port: request.port), eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger)
        return try await connection.run()
    }
}

/// The channel setup of one connection: an HTTP/1.1 upgrade with Baton's request head, then
/// swift-websocket's frame handler; a refused upgrade's status and (short) body are read.
struct WebSocketUpgradeChannel: ClientConnectionChannel {
    enum UpgradeResult: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused(any Channel, EventLoopFuture<WebSocketUpgradeRefused>)
    }

    typealias Value = EventLoopFuture<UpgradeResult>

    let request: WebSocketUpgradeRequest
    let maxFrameSize: Int
    let closeTimeout: Duration
    let upgradeTimeout: Duration
    let frameError: Locked<NIOWebSocketError?>
    let arrivedMessages: Locked<Int>?
    let sslContext: NIOSSLContext?
    let handler: WebSocketDataHandler<WebSocketUpgradeContext>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // A server that accepts the connection and never answers the upgrade cannot hold it:
            // past the deadline the upgrade fails with WebSocketUpgradeTimedOut and the channel closes.
            let nanoseconds = upgradeTimeout.components.seconds * 1_000_000_000 + upgradeTimeout.components.attoseconds / 1_000_000_000
            let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(max(0, nanoseconds))) {
                channel.pipeline.fireErrorCaught(WebSocketUpgradeTimedOut())
                channel.close(promise: nil)
            }
            let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeResult>(
                maxFrameSize: maxFrameSize,
                upgradePipelineHandler: { [frameError, arrivedMessages] channel, _ in
                    deadline.cancel()
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(FrameErrorObserver(seen: frameError, arrivedMessages: arrivedMessages))
                        return .upgraded(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                    }
                }
            )
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: request.target, headers: request.headers)
            let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration(
                upgradeRequestHead: head,
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    deadline.cancel()
                    // The response head (and body) follow down the pipeline once this returns.
                    return channel.eventLoop.makeCompletedFuture {
                        let reader = RefusedUpgradeReader(promise: channel.eventLoop.makePromise())
                        try channel.pipeline.syncOperations.addHandler(reader)
                        return .refused(channel, reader.promise.futureResult)
                    }
                }
            )
            var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration)
            configuration.leftOverBytesStrategy = .forwardBytes
            if let sslContext {
                let serverName = request.host.contains(":") || request.host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : request.host
                let tls = try NIOSSLClientHandler(context: sslContext, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandler(tls, position: .first)
            }
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
        }
    }

    func handle(value: Value, logger: Logger) async throws -> WebSocketCloseFrame? {
        switch try await value.get() {
        case .upgraded(let channel):
            return try await WebSocketHandler.handle(
                type: .client,
                configuration: .init(
                    extensions: [], autoPing: .disabled, closeTimeout: closeTimeout,
                    // Invalid UTF-8 in a text message is rejected (1007), as in every transport.
                    validateUTF8: true, maxFrameSize: maxFrameSize),
                asyncChannel: channel,
                context: WebSocketUpgradeContext(logger: logger),
                handler: handler
            )
        case .refused(let channel, let response):
            let refused = try await response.get()
            try? await channel.close()
            logger.debug("WebSocket upgrade refused with status \(refused.status)")
            throw refused
        }
    }
}

/// Reads the response to a refused upgrade: its status and up to ``bodyLimit`` bytes of body.
final class RefusedUpgradeReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    static let bodyLimit = 1024

    let promise: EventLoopPromise<WebSocketUpgradeRefused>
    private var status: Int?
    private var body = ByteBuffer()
    private var truncated = false
    private var done = false

    init(promise: EventLoopPromise<WebSocketUpgradeRefused>) {
        self.promise = promise
    }

    /// A server that never finishes its answer cannot hold the connection: what came within
    /// five seconds is reported.
    func handlerAdded(context: ChannelHandlerContext) {
        let reader = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .seconds(5)) { reader.value.complete() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(var part):
            let room = Self.bodyLimit - body.readableBytes
            if part.readableBytes > room {
                truncated = true
                if room > 0, let slice = part.readSlice(length: room) { body.writeImmutableBuffer(slice) }
                complete()
            } else {
                body.writeBuffer(&part)
            }
        case .end:
            complete()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        complete()
    }

    private func complete() {
        guard !done else { return }
        done = true
        var text = body.readableBytes == 0 ? nil : body.readString(length: body.readableBytes)
        if truncated, let kept = text { text = kept + "…" }
        promise.succeed(WebSocketUpgradeRefused(status: status ?? 0, body: text))
    }
}
