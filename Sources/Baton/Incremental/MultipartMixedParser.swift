import Foundation

/// Splits a `multipart/mixed` body into its parts as chunks arrive (RFC 2046 §5.1): each part
/// starts after a `--boundary` line, has headers up to a blank line, and ends at the next
/// `CRLF--boundary`; `--boundary--` ends the body. Feed chunks with ``append(_:)``; each call
/// returns the parts completed so far.
struct MultipartMixedParser {
    private enum State {
        /// Before the first delimiter.
        case preamble
        /// Right after a delimiter: `--` ends the body, a line end starts a part.
        case afterDelimiter
        /// After a delimiter line, reading the part's headers.
        case headers
        /// Reading a part's content.
        case content
        /// After the closing delimiter.
        case finished
    }

    private let delimiter: [UInt8]
    /// Whether text before the first delimiter that has a part's shape (headers, a blank line,
    /// content) is read as a part rather than dropped as a preamble (see ``init(boundary:preambleMayBeAPart:)``).
    private let preambleMayBeAPart: Bool
    private var buffer: [UInt8] = []
    private var state = State.preamble
    /// How far into `buffer` the current search has already looked.
    private var searchStart = 0

    /// Whether the closing delimiter has been read.
    var isFinished: Bool { if case .finished = state { true } else { false } }
    /// Whether bytes of an unfinished part are waiting for more input.
    var hasPartialPart: Bool {
        switch state {
        case .headers, .afterDelimiter: return !buffer.isEmpty
        case .content: return true
        case .preamble: return buffer.contains { !($0 == 0x0D || $0 == 0x0A || $0 == 0x20) }
        case .finished: return false
        }
    }

    /// - Parameter preambleMayBeAPart: read a preamble that has a part's shape as the first part.
    ///   RFC 2046 drops everything before the first delimiter, but strawberry's multipart
    ///   subscriptions start the body with a part and no delimiter (its first heartbeat);
    ///   Apollo's clients split on the boundary and read that part too.
    init(boundary: String, preambleMayBeAPart: Bool = false) {
        delimiter = Array("--\(boundary)".utf8)
        self.preambleMayBeAPart = preambleMayBeAPart
    }

    /// The `boundary` parameter of a `multipart/mixed` content type (quotes removed); `-` when
    /// missing, as graphql-js and Apollo servers default to.
    static func boundary(ofContentType contentType: String) -> String {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return "-"
    }

    /// Adds bytes; returns the contents of the parts they complete, in order.
    mutating func append(_ chunk: Data) -> [Data] {
        buffer.append(contentsOf: chunk)
        var parts: [Data] = []
        while let part = nextPart() {
            parts.append(part)
        }
        return parts
    }

    /// Consumes the buffer as far as it can; returns a part when one is complete.
    private mutating func nextPart() -> Data? {
        while true {
            switch state {
            case .finished:
                buffer.removeAll()
                return nil
            case .preamble:
                guard let found = find(delimiter, from: searchStart) else {
                    searchStart = max(0, buffer.count - delimiter.count)
                    return nil
                }
                let preamble = preambleMayBeAPart ? Self.preamblePart(buffer[0..<found]) : nil
                consume(upTo: found + delimiter.count)
                state = .afterDelimiter
                if let preamble { return preamble }
            case .afterDelimiter:
                guard let afterLine = endOfDelimiterLine(at: 0) else { return nil }
                if afterLine == -1 {
                    state = .finished
                    continue
                }
                consume(upTo: afterLine)
                state = .headers
            case .headers:
                // A closing delimiter right after a delimiter line (no part between them, and no
                // line end before it, as strawberry ends its multipart subscriptions).
                let closing = delimiter + [UInt8(ascii: "-"), UInt8(ascii: "-")]
                if buffer.count >= closing.count, buffer.starts(with: closing) {
                    state = .finished
                    continue
                }
                if buffer.count < closing.count, closing.starts(with: buffer) { return nil }
                // A part with no headers starts with the blank line at once.
                if buffer.starts(with: [0x0D, 0x0A]) {
                    consume(upTo: 2)
                    state = .content
                    continue
                }
                guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], from: searchStart) else {
                    searchStart = max(0, buffer.count - 3)
                    return nil
                }
                consume(upTo: end + 4)
                state = .content
            case .content:
                // The part ends at the next delimiter, before what follows it is known.
                let closing = [0x0D, 0x0A] + delimiter
                guard let end = find(closing, from: searchStart) else {
                    searchStart = max(0, buffer.count - closing.count)
                    return nil
                }
                let content = Data(buffer[0..<end])
                consume(upTo: end + closing.count)
                state = .afterDelimiter
                return content
            }
        }
    }

    /// The content of a preamble shaped like a part (optional line ends, header lines, a blank
    /// line, content up to the line end before the delimiter), or nil.
    private static func preamblePart(_ bytes: ArraySlice<UInt8>) -> Data? {
        var start = bytes.startIndex
        while start < bytes.endIndex, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        let text = bytes[start...]
        guard !text.isEmpty else { return nil }
        let blankLine: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        var index = text.startIndex
        while index + blankLine.count <= text.endIndex {
            if text[index..<(index + blankLine.count)].elementsEqual(blankLine) {
                var end = text.endIndex
                if end - 2 >= index + blankLine.count, text[end - 2] == 0x0D, text[end - 1] == 0x0A { end -= 2 }
                return Data(text[(index + blankLine.count)..<end])
            }
            index += 1
        }
        return nil
    }

    /// After a delimiter at `index`: the index past its line end, `-1` for the closing
    /// delimiter (`--`), or nil when more bytes are needed.
    private func endOfDelimiterLine(at index: Int) -> Int? {
        guard buffer.count >= index + 2 else { return nil }
        if buffer[index] == UInt8(ascii: "-"), buffer[index + 1] == UInt8(ascii: "-") { return -1 }
        // Transport padding (spaces) may follow the delimiter before the line ends.
        var position = index
        while position + 1 < buffer.count {
            if buffer[position] == 0x0D, buffer[position + 1] == 0x0A { return position + 2 }
            position += 1
        }
        return nil
    }

    private mutating func consume(upTo index: Int) {
        buffer.removeFirst(index)
        searchStart = 0
    }

    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        var index = max(0, start)
        let last = buffer.count - pattern.count
        while index <= last {
            if buffer[index] == pattern[0] {
                var matched = true
                for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
