// libFuzzer target: decoding of the server's WebSocket text frames, in both protocols.
import BatonAPI
@_spi(Fuzzing) import BatonWebSocket

/// Decodes the input as a text frame of each protocol, as the connection does: a typed
/// `WebSocketTransportError` is fine, a crash is not. The `pong` answering a `ping` must be
/// JSON that the client's own encoder wrote: an object whose `type` is `pong`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    // The oracle is the entry's own, which the fuzz smoke test in `swift test` runs too.
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let failure = _WebSocketMessageFuzzEntry.check(input) { fatalError(failure) }
    return 0
}
