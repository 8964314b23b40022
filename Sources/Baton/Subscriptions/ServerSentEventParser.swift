@_spi(BatonStorage) import BatonAPI
import Foundation

/// One event of a `text/event-stream` body.
struct ServerSentEvent: Equatable, Sendable {
    /// The `event` field; `message` when the event named none.
    var type: String
    /// The `data` lines joined by line feeds.
    var data: String
    /// The last event ID in force when the event was dispatched (`id` fields are sticky).
    var lastEventID: String
}

/// Interprets an event stream as the HTML standard's "Server-sent events" section says
/// (§9.2.6, event stream interpretation), byte chunk by byte chunk: lines end with CRLF, LF or
/// CR (a CRLF split across two chunks is one line end); a leading byte order mark is dropped;
/// `:` starts a comment; `field: value` loses one space after the colon; a blank line dispatches
/// the event; `id` (without NUL) and `retry` (ASCII digits only) are remembered; unknown fields
/// are ignored; an unfinished event at the end of the stream is dropped.
///
/// Deliberate differences:
/// - An event whose data buffer is empty but that named its type (`event: complete` with no
///   `data` line) is dispatched with empty data rather than dropped, since GraphQL over SSE ends
///   a stream with such an event and browsers' reason for dropping it does not apply here.
/// - Invalid UTF-8 in a line that is not a comment is an error (``Failure/invalidUTF8(offset:)``),
///   not replaced with U+FFFD: Baton rejects it in every transport, as it does in JSON.
/// - A line, or an event's data, longer than `maxPartBytes` is an error
///   (``Failure/tooLarge(limit:)``) as soon as it passes the limit; comment lines are not kept,
///   whatever their length. Linear in its input.
struct ServerSentEventParser {
    /// Why the stream cannot be read on.
    enum Failure: Error, Equatable, Sendable {
        /// A line or an event's data passed the limit.
        case tooLarge(limit: Int)
        /// A line is not valid UTF-8; `offset` is where it starts in the stream.
        case invalidUTF8(offset: Int)
    }

    private let maxPartBytes: Int
    private var line: [UInt8] = []
    /// The current line is a comment: its bytes are skipped, not kept.
    private var lineIsComment = false
    private var lastWasCR = false
    private var atStart = true
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false
    /// Bytes read so far, and where the current line started (for error offsets).
    private var offset = 0
    private var lineStart = 0
    /// The last event ID (the `id` field), sent back as `Last-Event-ID` when reconnecting.
    private(set) var lastEventID = ""
    /// The reconnection time the server asked for (`retry`), in milliseconds.
    private(set) var retryMilliseconds: Int?

    /// A parser that keeps at most `maxPartBytes` of a line or an event's data.
    init(maxPartBytes: Int = ResponseLimits.default.maxPartBytes) {
        self.maxPartBytes = max(1, maxPartBytes)
    }

    /// Adds bytes; returns the events they complete, in order.
    mutating func append(_ chunk: Data) throws(Failure) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try append(chunk, into: &events)
        return events
    }

    /// Adds bytes; appends the events they complete to `events`, in order, so that the events
    /// completed before a failure are kept when it throws.
    mutating func append(_ chunk: Data, into events: inout [ServerSentEvent]) throws(Failure) {
        let bytes = [UInt8](chunk)
        var index = 0
        let count = bytes.count
        while index < count {
            if lastWasCR {
                lastWasCR = false
                if bytes[index] == 0x0A {
                    index += 1
                    offset += 1
                    lineStart = offset
                    continue
                }
            }
            // The run of bytes up to the next line end (or the chunk's end) is added at once.
            var end = index
            while end < count, bytes[end] != 0x0D, bytes[end] != 0x0A { end += 1 }
            if end > index {
                if !lineIsComment, bytes[index] == UInt8(ascii: ":"), line.isEmpty || (atStart && line == [0xEF, 0xBB, 0xBF]) {
                    lineIsComment = true
                }
                if !lineIsComment {
                    if line.count + (end - index) > maxPartBytes { throw .tooLarge(limit: maxPartBytes) }
                    line.append(contentsOf: bytes[index..<end])
                }
            }
            offset += end - index
            guard end < count else { break }
            lastWasCR = bytes[end] == 0x0D
            offset += 1
            if let event = try endLine() { events.append(event) }
            lineStart = offset
            index = end + 1
        }
    }

    private mutating func endLine() throws(Failure) -> ServerSentEvent? {
        defer {
            line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
            lineIsComment = false
        }
        var bytes = line[...]
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if lineIsComment { return nil }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let valid = bytes.withUnsafeBytes { String(validUTF8: $0) != nil }
        guard valid else { throw .invalidUTF8(offset: lineStart) }
        let field: String
        var rest: ArraySlice<UInt8>
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            rest = bytes[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            rest = []
        }
        switch field {
        case "event":
            eventType = String(decoding: rest, as: UTF8.self)
        case "data":
            if data.count + rest.count + 1 > maxPartBytes { throw .tooLarge(limit: maxPartBytes) }
            data.append(contentsOf: rest)
            data.append(0x0A)
            hasData = true
        case "id":
            if !rest.contains(0) { lastEventID = String(decoding: rest, as: UTF8.self) }
        case "retry":
            if !rest.isEmpty, rest.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                // Digits past what an Int holds are ignored, as a value that cannot be a delay.
                retryMilliseconds = Int(String(decoding: rest, as: UTF8.self)) ?? retryMilliseconds
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data.removeAll(keepingCapacity: data.capacity <= 1 << 16)
            hasData = false
        }
        guard hasData || !eventType.isEmpty else { return nil }
        var payload = data[...]
        if payload.last == 0x0A { payload = payload.dropLast() }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: String(decoding: payload, as: UTF8.self), lastEventID: lastEventID)
    }
}
