import BatonAPI
import BatonStore
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

    /// How the client reads the whole response to the operation it is sending, while it sends
    /// it: the store's executor reading `data` straight from the body's bytes, in the same walk
    /// as the parse (see `Store.prepare(responseBody:for:)`). A transport that reads a whole body
    /// takes the body it gives (its `data` in the store's shape) and hands the payload it
    /// prepared to the client's receive with the response, which then does not execute it again.
    @TaskLocal static var reader: BodyReader?

    /// `bytes` parsed, or the expected body when its bytes are exactly `bytes` (compared in full,
    /// byte for byte), or, for the response to `operationName`, read by the client's ``reader``
    /// for that operation (with its payload). A request sent by an interceptor while the client
    /// sends its operation (another operation: a token's refresh) is parsed alone.
    static func parse(
        _ bytes: Data, operationName: String
    ) throws(JSONParseError) -> (value: JSONValue, parsed: ParsedResponseBody?, prepared: PreparedResponse?) {
        if let expected = Self.expected, expected.bytes.count == bytes.count, expected.bytes == bytes {
            return (.object(expected.object), expected, nil)
        }
        if let reader = Self.reader, reader.operationName == operationName, let read = reader.read(bytes) {
            return (.object(read.body), ParsedResponseBody(bytes: bytes, object: read.body), read)
        }
        let value = try JSONValue(parsing: bytes)
        guard case .object(let object) = value else { return (value, nil, nil) }
        return (value, ParsedResponseBody(bytes: bytes, object: object), nil)
    }
}

/// The client's reading of a whole response body for one operation (``ParsedResponseBody/reader``).
struct BodyReader: Sendable {
    let store: Store
    /// The name of the operation whose response this reads.
    let operationName: String
    /// The operation's descriptor, made when a body is read (most sends read one).
    let descriptor: @Sendable () -> OperationDescriptor

    /// A reader of `operation`'s response into `store`.
    init<Operation: GraphQLOperation>(store: Store, operation: Operation) {
        self.store = store
        operationName = Operation.operationName
        descriptor = { OperationDescriptor(operation: operation) }
    }

    /// The body read and its `data` prepared; `nil` for a body that is not a JSON object (the
    /// parser then says what is wrong with it, as it would without a reader).
    func read(_ bytes: Data) -> PreparedResponse? {
        guard bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") else { return nil }
        let descriptor = descriptor()
        return try? bytes.withUnsafeBytes { try store.prepare(responseBody: $0, for: descriptor) }
    }
}
