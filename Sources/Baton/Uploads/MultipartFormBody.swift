import Foundation

/// A `multipart/form-data` body (RFC 7578) whose file parts are read from disk as the body is
/// sent, so its size does not bound memory.
///
/// Layout: each part is `--boundary CRLF`, its headers (`Content-Disposition: form-data;
/// name="…"[; filename="…"]`, then `Content-Type: …` for files), a blank line, the content and
/// `CRLF`; the body ends with `--boundary-- CRLF`.
public struct MultipartFormBody: Sendable {
    /// One part of the body.
    public struct Part: Sendable {
        /// The form field's name.
        public let name: String
        /// The file name sent for a file part; `nil` for a plain field.
        public let filename: String?
        /// The part's `Content-Type`; `nil` for a plain field.
        public let contentType: String?
        /// The part's bytes, in memory or in a file read as the body is sent.
        public let content: GraphQLFile.Content
    }

    /// The boundary between parts (without the leading `--`).
    public let boundary: String
    /// The parts, in the order they are sent.
    public private(set) var parts: [Part] = []

    /// A body with a random boundary, or a fixed one (for tests).
    public init(boundary: String = "baton-" + UUID().uuidString.lowercased()) {
        self.boundary = boundary
    }

    /// The request's `Content-Type`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a field whose value is text (`operations`, `map`).
    public mutating func append(name: String, text: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .data(Data(text.utf8))))
    }

    /// Adds a file part.
    public mutating func append(name: String, filename: String, contentType: String, content: GraphQLFile.Content) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, content: content))
    }

    /// The body's length: the framing plus each part's content (files by their size on disk).
    public func length() throws -> Int64 {
        var total = Int64(closing.count)
        for part in parts {
            total += Int64(head(of: part).count + 2)
            switch part.content {
            case .data(let data): total += Int64(data.count)
            case .file(let url):
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                total += (attributes[.size] as? NSNumber)?.int64Value ?? 0
            }
        }
        return total
    }

    /// The body to send: in memory when no part is a file, otherwise a stream that reads each
    /// file in chunks as the HTTP client asks for them.
    public func requestBody() throws -> HTTPRequestBody {
        let inMemory = parts.allSatisfy { if case .data = $0.content { true } else { false } }
        if inMemory { return .data(serialized()) }
        let length = try length()
        let segments = self.segments()
        return .stream(length: length) {
            let reader = SegmentReader(segments: segments)
            return AsyncThrowingStream(unfolding: { try reader.next() })
        }
    }

    /// The whole body in memory (files are read): for small bodies and tests.
    public func serialized() -> Data {
        var data = Data()
        for segment in segments() {
            switch segment {
            case .data(let bytes): data.append(bytes)
            case .file(let url): data.append((try? Data(contentsOf: url)) ?? Data())
            }
        }
        return data
    }

    private var closing: Data { Data("--\(boundary)--\r\n".utf8) }

    private func head(of part: Part) -> Data {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
        if let filename = part.filename { text += "; filename=\"\(Self.quoted(filename))\"" }
        text += "\r\n"
        if let contentType = part.contentType { text += "Content-Type: \(contentType)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// The body as consecutive pieces: framing and in-memory content, and files to read.
    private func segments() -> [GraphQLFile.Content] {
        var segments: [GraphQLFile.Content] = []
        for part in parts {
            var head = head(of: part)
            switch part.content {
            case .data(let data):
                head.append(data)
                head.append(contentsOf: [0x0D, 0x0A])
                segments.append(.data(head))
            case .file(let url):
                segments.append(.data(head))
                segments.append(.file(url))
                segments.append(.data(Data([0x0D, 0x0A])))
            }
        }
        segments.append(.data(closing))
        return segments
    }

    /// A name or file name inside a quoted header parameter: quotes and line breaks escaped as
    /// browsers do (RFC 7578 §4.2 leaves it to percent-encoding).
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

/// Reads a body's segments in order, files in chunks.
private final class SegmentReader: @unchecked Sendable {
    private var remaining: ArraySlice<GraphQLFile.Content>
    private var file: FileChunkReader?
    private let lock = NSLock()

    init(segments: [GraphQLFile.Content]) {
        remaining = segments[...]
    }

    func next() throws -> Data? {
        try lock.withLock {
            while true {
                if let file {
                    if let chunk = try file.next() { return chunk }
                    self.file = nil
                }
                guard let segment = remaining.popFirst() else { return nil }
                switch segment {
                case .data(let data):
                    if !data.isEmpty { return data }
                case .file(let url):
                    file = FileChunkReader(url: url)
                }
            }
        }
    }
}
