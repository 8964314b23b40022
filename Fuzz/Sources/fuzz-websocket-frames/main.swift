// libFuzzer target: raw WebSocket frames as a server sends them after the upgrade, through the
// frame decoder the connection runs and Baton's rules for a message (UTF-8, size, protocol).
@_spi(Fuzzing) import BatonWebSocket

/// The input: its first byte picks the protocol (even: graphql-transport-ws, odd: graphql-ws)
/// and the chunk size (the byte's value / 2, at least 1); the rest is the bytes. They are read
/// in those chunks and in one: a typed error is fine, a crash is not, and both reads must
/// decode the same messages and end the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    // The oracle is the entry's own, which the fuzz smoke test in `swift test` runs too.
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let failure = _WebSocketFrameFuzzEntry.check(input) { fatalError(failure) }
    return 0
}
