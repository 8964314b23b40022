import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streaming `multipart/form-data` parser (RFC 7578 over RFC 2046): feed it the body chunk by
/// chunk; it reports each part's headers, its content in pieces as they arrive (never the whole
/// part at once), and its end. Delimiters are found with `memchr` and `memcmp`, so large files
/// pass quickly even in debug builds.
struct MultipartFormDataParser {
    enum Event {
        /// A part starts; header names are lowercased.
        case begin(headers: [String: String])
        /// A piece of the current part's content.
        case content(UnsafeRawBufferPointer)
        case end
    }

    struct Malformed: Error {
        let message: String
    }

    private enum State {
        case preamble
        case afterDelimiter
        case headers
        case content
        case finished
    }

    /// `CRLF--boundary`; the body's first delimiter has no CRLF before it, so the buffer starts with one.
    private let delimiter: [UInt8]
    private var buffer: [UInt8] = [0x0D, 0x0A]
    private var state = State.preamble
    /// The largest header block accepted.
    private let maximumHeaderSize = 16 * 1024

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Whether the closing delimiter has been read.
    var isFinished: Bool { if case .finished = state { true } else { false } }

    mutating func append(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        buffer.append(contentsOf: bytes)
        try process(handle)
    }

    private mutating func process(_ handle: (Event) throws -> Void) throws {
        while true {
            switch state {
            case .finished:
                buffer.removeAll()
                return
            case .preamble:
                guard let found = find(delimiter) else {
                    // Keep what could be the start of a delimiter.
                    buffer.removeFirst(max(0, buffer.count - delimiter.count))
                    return
                }
                buffer.removeFirst(found + delimiter.count)
                state = .afterDelimiter
            case .afterDelimiter:
                guard buffer.count >= 2 else { return }
                if buffer[0] == UInt8(ascii: "-"), buffer[1] == UInt8(ascii: "-") {
                    state = .finished
                    continue
                }
                guard let lineEnd = find([0x0D, 0x0A]) else {
                    if buffer.count > 256 { throw Malformed(message: "A multipart delimiter line does not end.") }
                    return
                }
                buffer.removeFirst(lineEnd + 2)
                state = .headers
            case .headers:
                var headers: [String: String] = [:]
                if buffer.starts(with: [0x0D, 0x0A]) {
                    buffer.removeFirst(2)
                } else {
                    guard let end = find([0x0D, 0x0A, 0x0D, 0x0A]) else {
                        if buffer.count > maximumHeaderSize { throw Malformed(message: "A multipart part's headers are too large.") }
                        return
                    }
                    let text = String(decoding: buffer[0..<end], as: UTF8.self)
                    for line in text.components(separatedBy: "\r\n") {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    buffer.removeFirst(end + 4)
                }
                try handle(.begin(headers: headers))
                state = .content
            case .content:
                if let end = find(delimiter) {
                    try buffer.withUnsafeBytes { try handle(.content(UnsafeRawBufferPointer(rebasing: $0[0..<end]))) }
                    try handle(.end)
                    buffer.removeFirst(end + delimiter.count)
                    state = .afterDelimiter
                } else {
                    // All but a possible partial delimiter at the end is content.
                    let safe = buffer.count - (delimiter.count - 1)
                    guard safe > 0 else { return }
                    try buffer.withUnsafeBytes { try handle(.content(UnsafeRawBufferPointer(rebasing: $0[0..<safe]))) }
                    buffer.removeFirst(safe)
                    return
                }
            }
        }
    }

    /// The offset of `pattern` in the buffer.
    private func find(_ pattern: [UInt8]) -> Int? {
        buffer.withUnsafeBytes { (haystack: UnsafeRawBufferPointer) -> Int? in
            pattern.withUnsafeBytes { (needle: UnsafeRawBufferPointer) -> Int? in
                guard let base = haystack.baseAddress, let needleBase = needle.baseAddress, haystack.count >= needle.count else {
                    return nil
                }
                let last = haystack.count - needle.count
                var offset = 0
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else { return nil }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, needleBase, needle.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
