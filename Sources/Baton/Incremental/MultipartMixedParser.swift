import Foundation

/// Splits a `multipart/mixed` body into its parts as chunks arrive (RFC 2046 §5.1): each part
/// starts after a `--boundary` line, has headers up to a blank line, and ends at the next
/// `CRLF--boundary`; `--boundary--` ends the body. Feed chunks with ``append(_:)``; each call
/// returns the parts completed so far.
///
/// Linear in its input: every byte is looked at a bounded number of times however the body is
/// cut into chunks (a search resumes where the last one stopped; consumed bytes are dropped in
/// amortized constant time). Bounded in memory: a part (its headers, its content, or the padding
/// of a delimiter line) longer than `maxPartBytes` throws ``PartTooLarge`` as soon as it passes
/// the limit, and a preamble that is dropped is not kept.
struct MultipartMixedParser {
    /// A part, its headers or a delimiter line passed the parser's `maxPartBytes`.
    struct PartTooLarge: Error, Sendable, Equatable {
        /// The limit that was passed.
        let limit: Int
    }

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
    /// `CRLF--boundary`: where a part's content ends.
    private let contentEnd: [UInt8]
    /// `--boundary--`.
    private let closingDelimiter: [UInt8]
    /// Whether text before the first delimiter that has a part's shape (headers, a blank line,
    /// content) is read as a part rather than dropped as a preamble (see ``init(boundary:preambleMayBeAPart:maxPartBytes:)``).
    private let preambleMayBeAPart: Bool
    private let maxPartBytes: Int
    /// Bytes received and not yet consumed start at `start`; bytes before it are dropped lazily.
    private var buffer: [UInt8] = []
    private var start = 0
    private var state = State.preamble
    /// Where the current search resumes (an index into `buffer`, at least `start`).
    private var searchStart = 0

    /// Whether the closing delimiter has been read.
    var isFinished: Bool { if case .finished = state { true } else { false } }
    /// Whether bytes of an unfinished part are waiting for more input.
    var hasPartialPart: Bool {
        switch state {
        case .headers, .afterDelimiter: return start < buffer.count
        case .content: return true
        case .preamble: return buffer[start...].contains { !($0 == 0x0D || $0 == 0x0A || $0 == 0x20) }
        case .finished: return false
        }
    }

    /// - Parameters:
    ///   - preambleMayBeAPart: read a preamble that has a part's shape as the first part.
    ///     RFC 2046 drops everything before the first delimiter, but strawberry's multipart
    ///     subscriptions start the body with a part and no delimiter (its first heartbeat);
    ///     Apollo's clients split on the boundary and read that part too.
    ///   - maxPartBytes: the longest part content, header block or delimiter line accepted.
    init(boundary: String, preambleMayBeAPart: Bool = false, maxPartBytes: Int = ResponseLimits.default.maxPartBytes) {
        delimiter = Array("--\(boundary)".utf8)
        contentEnd = [0x0D, 0x0A] + delimiter
        closingDelimiter = delimiter + [UInt8(ascii: "-"), UInt8(ascii: "-")]
        self.preambleMayBeAPart = preambleMayBeAPart
        self.maxPartBytes = max(1, maxPartBytes)
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

    /// Adds bytes; returns the contents of the parts they complete, in order. Throws
    /// ``PartTooLarge`` when a part grows past the limit (the parser is then unusable).
    mutating func append(_ chunk: Data) throws(PartTooLarge) -> [Data] {
        var parts: [Data] = []
        try append(chunk, into: &parts)
        return parts
    }

    /// Adds bytes; appends the contents of the parts they complete to `parts`, in order, so that
    /// the parts completed before a part that is too large are kept when it throws.
    mutating func append(_ chunk: Data, into parts: inout [Data]) throws(PartTooLarge) {
        if case .finished = state { return }
        buffer.append(contentsOf: chunk)
        while let part = try nextPart() {
            parts.append(part)
        }
        compactIfWorthIt()
    }

    /// The unconsumed bytes.
    private var pending: Int { buffer.count - start }

    /// Consumes the buffer as far as it can; returns a part when one is complete.
    private mutating func nextPart() throws(PartTooLarge) -> Data? {
        while true {
            switch state {
            case .finished:
                buffer.removeAll()
                start = 0
                searchStart = 0
                return nil
            case .preamble:
                guard let found = find(delimiter, from: searchStart) else {
                    searchStart = max(start, buffer.count - delimiter.count + 1)
                    if preambleMayBeAPart {
                        if pending - (delimiter.count - 1) > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                    } else {
                        // A dropped preamble is not kept: only a tail that may start the delimiter.
                        consume(upTo: searchStart)
                    }
                    return nil
                }
                if preambleMayBeAPart, found - start > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                let preamble = preambleMayBeAPart ? Self.preamblePart(buffer[start..<found]) : nil
                consume(upTo: found + delimiter.count)
                state = .afterDelimiter
                if let preamble { return preamble }
            case .afterDelimiter:
                if paddingConsumed == 0 {
                    guard pending >= 2 else { return nil }
                    if buffer[start] == UInt8(ascii: "-"), buffer[start + 1] == UInt8(ascii: "-") {
                        state = .finished
                        continue
                    }
                }
                // Transport padding (spaces) may follow the delimiter before the line ends; the
                // scan resumes where it stopped, and padding already passed is dropped.
                guard let lineEnd = find([0x0D, 0x0A], from: searchStart) else {
                    // The padding is at least this long (the last byte may start the line end).
                    if paddingConsumed + pending - 1 > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                    let keep = buffer.count - 1  // a CR that may start the line end
                    if keep - start > 2 {
                        paddingConsumed += keep - start
                        consume(upTo: keep)
                    }
                    searchStart = max(start, buffer.count - 1)
                    return nil
                }
                // The same limit whether the line came in one chunk or many.
                if paddingConsumed + (lineEnd - start) > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                paddingConsumed = 0
                consume(upTo: lineEnd + 2)
                state = .headers
            case .headers:
                // A closing delimiter right after a delimiter line (no part between them, and no
                // line end before it, as strawberry ends its multipart subscriptions).
                if pending >= closingDelimiter.count, buffer[start..<(start + closingDelimiter.count)].elementsEqual(closingDelimiter) {
                    state = .finished
                    continue
                }
                if pending < closingDelimiter.count, closingDelimiter.starts(with: buffer[start...]) { return nil }
                // A part with no headers starts with the blank line at once.
                if pending >= 2, buffer[start] == 0x0D, buffer[start + 1] == 0x0A {
                    consume(upTo: start + 2)
                    state = .content
                    continue
                }
                if pending < 2 { return nil }
                guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], from: searchStart) else {
                    // The headers are at least `pending - 3` long (the blank line may have begun).
                    if pending - 3 > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                    searchStart = max(start, buffer.count - 3)
                    return nil
                }
                if end - start > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                consume(upTo: end + 4)
                state = .content
            case .content:
                // The part ends at the next delimiter, before what follows it is known.
                guard let end = find(contentEnd, from: searchStart) else {
                    // The content is at least this long (the delimiter may have begun).
                    if pending - (contentEnd.count - 1) > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                    searchStart = max(start, buffer.count - contentEnd.count + 1)
                    return nil
                }
                if end - start > maxPartBytes { throw PartTooLarge(limit: maxPartBytes) }
                let content = Data(buffer[start..<end])
                consume(upTo: end + contentEnd.count)
                state = .afterDelimiter
                return content
            }
        }
    }

    /// Padding bytes of the current delimiter line already dropped.
    private var paddingConsumed = 0

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

    /// Drops the bytes before `index` (lazily: the read position moves).
    private mutating func consume(upTo index: Int) {
        start = index
        searchStart = index
    }

    /// Drops consumed bytes once they are most of the buffer: each byte is moved at most a
    /// bounded number of times, so the cost stays linear.
    private mutating func compactIfWorthIt() {
        guard start > 0, start >= 4096, start * 2 >= buffer.count else {
            if start == buffer.count, start > 0 {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
                searchStart -= start
                start = 0
            }
            return
        }
        buffer.removeFirst(start)
        searchStart -= start
        start = 0
    }

    /// The first index at or after `from` (and `start`) where `pattern` begins.
    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard pending >= pattern.count else { return nil }
        var index = max(start, from)
        let last = buffer.count - pattern.count
        let first = pattern[0]
        while index <= last {
            if buffer[index] == first {
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
