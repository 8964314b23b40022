import BatonAPI
import Foundation

/// A whole response body as it came over the wire, exactly, with the JSON tree parsed from it.
/// The HTTP transport attaches one to each whole (not incremental) response it reads; the
/// client keeps it with what it made of the response (``KeptResponses``), so that the next
/// response to the same request, when its bytes are exactly these, is not parsed again.
final class ParsedResponseBody: Sendable {
    /// The body's bytes, exactly as received.
    let bytes: Data
    /// The body parsed from ``bytes``.
    let object: JSONObject

    init(bytes: Data, object: JSONObject) {
        self.bytes = bytes
        self.object = object
    }

    /// The body the client kept from the last response to the request being sent, while it
    /// sends it: a transport that reads a body whose bytes are exactly this one's takes its tree
    /// (and this object, by identity) instead of parsing the bytes again. Parsing is a function
    /// of the bytes alone, so taking the tree is the same as parsing them; the checks that
    /// follow the parse (status, `data`/`errors`, error paths) still run.
    @TaskLocal static var expected: ParsedResponseBody?

    /// `bytes` parsed, or the expected body when its bytes are exactly `bytes` (compared in full,
    /// byte for byte).
    static func parse(_ bytes: Data) throws(JSONParseError) -> (value: JSONValue, parsed: ParsedResponseBody?) {
        if let expected = Self.expected, expected.bytes.count == bytes.count, expected.bytes == bytes {
            return (.object(expected.object), expected)
        }
        let value = try JSONValue(parsing: bytes)
        guard case .object(let object) = value else { return (value, nil) }
        return (value, ParsedResponseBody(bytes: bytes, object: object))
    }
}
