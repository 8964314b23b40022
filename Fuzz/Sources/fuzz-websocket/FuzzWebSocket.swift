// libFuzzer target: decoding of the server's WebSocket text frames, in both protocols.
import BatonAPI
@_spi(Fuzzing) import BatonWebSocket

/// Decodes the input as a text frame of each protocol, as the connection does: a typed
/// `WebSocketTransportError` is fine, a crash is not. The `pong` answering a `ping` must be
/// JSON that the client's own encoder wrote: an object whose `type` is `pong`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    for webSocketProtocol in GraphQLWebSocketProtocol.allCases {
        switch _WebSocketMessageFuzzEntry.decode(text, protocol: webSocketProtocol) {
        case .success(let answer):
            if answer.hasPrefix("{") {
                let pong = try? JSONValue(parsing: answer)
                precondition(pong?["type"]?.stringValue == "pong", "the pong does not parse: \(answer)")
            }
        case .failure(let error):
            precondition(!error.description.isEmpty)
        }
    }
    return 0
}
