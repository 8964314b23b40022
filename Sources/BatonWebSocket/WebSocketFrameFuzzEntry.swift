import Baton
import BatonAPI
import NIOCore
import NIOEmbedded
import NIOWebSocket

/// Not API: the entry point of the `fuzz-websocket-frames` libFuzzer target (`Fuzz/`) and of its
/// replay and smoke tests. Raw bytes as a server sends them once the upgrade is done go through
/// the frame decoder the connection's pipeline runs (NIOWebSocket's, with `maxFrameSize`, and
/// Baton's `FrameErrorObserver`), NIO's aggregation of fragmented messages (within
/// `maxMessageSize`; swift-websocket aggregates with its own code in the connection), then
/// Baton's rules for a message: a text message must be valid UTF-8 (as HTTP JSON must), a binary
/// one is refused, and text is decoded as the protocol says. No socket, no task.
@_spi(Fuzzing) public enum _WebSocketFrameFuzzEntry {
    /// The limits the target reads with, small so that inputs reach them.
    public static let maxFrameSize = 4_096
    /// The largest message (all its frames) the target accepts.
    public static let maxMessageSize = 16_384

    /// Reads `bytes` in chunks of `chunkSizes` bytes (cycled; empty: one chunk) as a server's
    /// frames in `protocol`. Returns each message decoded (described), and the typed error the
    /// connection would end with, if any; a close frame ends the read.
    public static func read(
        _ bytes: [UInt8], chunkSizes: [Int], protocol: GraphQLWebSocketProtocol
    ) -> (messages: [String], error: WebSocketTransportError?) {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        let seen = Locked<NIOWebSocketError?>(nil)
        let collector = FrameCollector()
        do {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)))
            try channel.pipeline.syncOperations.addHandler(FrameErrorObserver(seen: seen))
            try channel.pipeline.syncOperations.addHandler(
                NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024, maxAccumulatedFrameSize: maxMessageSize))
            try channel.pipeline.syncOperations.addHandler(collector)
        } catch {
            return ([], .connectionFailed(underlying: error))
        }
        var messages: [String] = []
        var start = 0
        var next = 0
        while start < bytes.count {
            let size = chunkSizes.isEmpty ? bytes.count : max(1, chunkSizes[next % chunkSizes.count])
            next += 1
            let end = size >= bytes.count - start ? bytes.count : start + size
            _ = try? channel.writeInbound(ByteBuffer(bytes: bytes[start..<end]))
            // The frames before the first failure, in stream order, whatever the chunks.
            let frames = collector.frames
            collector.frames.removeAll()
            if case .end(let ended) = handle(frames, `protocol`, into: &messages) { return (messages, ended) }
            if let failure = collector.failure { return (messages, violation(failure)) }
            start = end
        }
        return (messages, nil)
    }

    /// The pipeline's end: frames until the first error, then nothing.
    private final class FrameCollector: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        var frames: [WebSocketFrame] = []
        var failure: (any Error)?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard failure == nil else { return }
            frames.append(unwrapInboundIn(data))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if failure == nil { failure = error }
        }
    }

    private enum Drained {
        case more
        case end(WebSocketTransportError?)
    }

    /// Handles the whole messages the pipeline produced.
    private static func handle(
        _ frames: [WebSocketFrame], _ webSocketProtocol: GraphQLWebSocketProtocol, into messages: inout [String]
    ) -> Drained {
        for frame in frames {
            switch frame.opcode {
            case .text:
                let bytes = Array(frame.unmaskedData.readableBytesView)
                // Decoding repairs invalid UTF-8: valid when it changed nothing.
                let text = String(decoding: bytes, as: UTF8.self)
                guard text.utf8.elementsEqual(bytes) else {
                    return .end(.protocolViolation(reason: "a text message that is not valid UTF-8"))
                }
                do throws(WebSocketTransportError) {
                    messages.append(String(describing: try webSocketProtocol.decode(text)))
                } catch {
                    return .end(error)
                }
            case .binary:
                return .end(.invalidMessage(reason: "a binary message"))
            case .connectionClose:
                return .end(nil)
            default:
                continue  // ping, pong: NIO's layer answers them
            }
        }
        return .more
    }

    /// A failure of the frame decoder or the aggregator as the connection reports it.
    private static func violation(_ error: any Error) -> WebSocketTransportError {
        if let frameError = error as? NIOWebSocketError {
            switch frameError {
            case .invalidFrameLength: return .protocolViolation(reason: "a frame larger than maxFrameSize (\(maxFrameSize) bytes)")
            case .fragmentedControlFrame: return .protocolViolation(reason: "a fragmented control frame")
            case .multiByteControlFrameLength: return .protocolViolation(reason: "a control frame longer than 125 bytes")
            }
        }
        return .protocolViolation(reason: String(describing: error))
    }

    /// The `fuzz-websocket-frames` target's oracle, which its smoke test runs too. The input's
    /// first byte picks the protocol (even: graphql-transport-ws) and the chunk size (its value
    /// / 2, at least 1); the rest is what a server sends after the upgrade, read in those chunks
    /// and in one: the same messages and the same error or none. Returns what differs, or `nil`.
    public static func check(_ input: [UInt8]) -> String? {
        guard let first = input.first else { return nil }
        let webSocketProtocol: GraphQLWebSocketProtocol = first % 2 == 0 ? .graphqlTransportWS : .graphqlWS
        let body = Array(input.dropFirst())
        let chunked = read(body, chunkSizes: [max(1, Int(first / 2))], protocol: webSocketProtocol)
        let whole = read(body, chunkSizes: [], protocol: webSocketProtocol)
        let same = chunked.messages == whole.messages && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }
        return same
            ? nil
            : "chunked: \(chunked.messages.count) message(s), \(String(describing: chunked.error)); "
                + "whole: \(whole.messages.count), \(String(describing: whole.error))"
    }
}
