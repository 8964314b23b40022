// libFuzzer target: raw WebSocket frames as a server sends them after the upgrade, through the
// frame decoder the connection runs and Baton's rules for a message (UTF-8, size, protocol).
@_spi(Fuzzing) import BatonWebSocket

/// The input: its first byte picks the protocol (even: graphql-transport-ws, odd: graphql-ws)
/// and the chunk size (the byte's value / 2, at least 1); the rest is the bytes. They are read
/// in those chunks and in one: a typed error is fine, a crash is not, and both reads must
/// decode the same messages and end the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let webSocketProtocol: GraphQLWebSocketProtocol = first % 2 == 0 ? .graphqlTransportWS : .graphqlWS
    let body = Array(bytes.dropFirst())
    let chunked = _WebSocketFrameFuzzEntry.read(body, chunkSizes: [max(1, Int(first / 2))], protocol: webSocketProtocol)
    let whole = _WebSocketFrameFuzzEntry.read(body, chunkSizes: [], protocol: webSocketProtocol)
    precondition(
        chunked.messages == whole.messages && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" },
        "chunked: \(chunked.messages.count) message(s), \(String(describing: chunked.error)); whole: \(whole.messages.count), \(String(describing: whole.error))")
    return 0
}
