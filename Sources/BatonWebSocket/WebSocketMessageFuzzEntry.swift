import BatonAPI

/// Not API: the entry point of the `fuzz-websocket` libFuzzer target (`Fuzz/`, a package of its
/// own, which imports it with `@_spi(Fuzzing) import BatonWebSocket`) and of its replay test.
@_spi(Fuzzing) public enum _WebSocketMessageFuzzEntry {
    /// Decodes `text` as a text frame from a server speaking `protocol`, as the connection does.
    /// Returns the frame the connection answers a `ping` with (its `pong`), a description of any
    /// other message, or the typed error the connection closes with.
    public static func decode(_ text: String, protocol: GraphQLWebSocketProtocol) -> Result<String, WebSocketTransportError> {
        do throws(WebSocketTransportError) {
            let message = try `protocol`.decode(text)
            if case .ping(let payload) = message, let pong = `protocol`.encode(.pong(payload: payload)) {
                return .success(pong)
            }
            return .success(String(describing: message))
        } catch {
            return .failure(error)
        }
    }

    /// The `fuzz-websocket` target's oracle, which its smoke test runs too: the input as a text
    /// message, in both protocols, decodes to a typed error that describes itself, or to nothing
    /// or an answer (a `ping`'s `pong`, which must parse). Returns what went wrong, or `nil`.
    public static func check(_ input: [UInt8]) -> String? {
        let text = String(decoding: input, as: UTF8.self)
        for webSocketProtocol in GraphQLWebSocketProtocol.allCases {
            switch decode(text, protocol: webSocketProtocol) {
            case .success(let answer):
                if answer.hasPrefix("{"), (try? JSONValue(parsing: answer))?["type"]?.stringValue != "pong" {
                    return "the pong does not parse: \(answer)"
                }
            case .failure(let error):
                if error.description.isEmpty { return "an error without a description" }
            }
        }
        return nil
    }
}
