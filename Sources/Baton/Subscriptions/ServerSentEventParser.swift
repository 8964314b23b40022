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
/// One deliberate difference: an event whose data buffer is empty but that named its type
/// (`event: complete` with no `data` line) is dispatched with empty data rather than dropped,
/// since GraphQL over SSE ends a stream with such an event and browsers' reason for dropping it
/// does not apply here.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var atStart = true
    private var eventType = ""
    private var data = ""
    private var hasData = false
    /// The last event ID (the `id` field), sent back as `Last-Event-ID` when reconnecting.
    private(set) var lastEventID = ""
    /// The reconnection time the server asked for (`retry`), in milliseconds.
    private(set) var retryMilliseconds: Int?

    /// Adds bytes; returns the events they complete, in order.
    mutating func append(_ chunk: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                lastWasCR = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let field: String
        let text: String
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            text = String(decoding: rest, as: UTF8.self)
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            text = ""
        }
        switch field {
        case "event":
            eventType = text
        case "data":
            data += text
            data += "\n"
            hasData = true
        case "id":
            if !text.utf8.contains(0) { lastEventID = text }
        case "retry":
            if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                retryMilliseconds = Int(text)
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData || !eventType.isEmpty else { return nil }
        var payload = data
        if payload.hasSuffix("\n") { payload.removeLast() }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: payload, lastEventID: lastEventID)
    }
}
