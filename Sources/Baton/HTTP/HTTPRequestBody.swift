import Foundation

/// The body of an HTTP request: bytes in memory, a file on disk, or a stream of chunks made on
/// demand (a multipart upload reads its files as it goes, so memory stays bounded).
public enum HTTPRequestBody: Sendable {
    case data(Data)
    /// The contents of a local file, read as it is sent.
    case file(URL)
    /// Chunks made by `makeChunks` each time the body is sent (a retry sends it again), with
    /// the total length when known.
    case stream(length: Int64?, makeChunks: @Sendable () -> AsyncThrowingStream<Data, any Error>)

    /// The body's length in bytes, when known without reading it.
    public var knownLength: Int64? {
        switch self {
        case .data(let data): return Int64(data.count)
        case .file(let url):
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber
            return size?.int64Value
        case .stream(let length, _): return length
        }
    }

    /// The body as chunks, read as the consumer asks for them.
    public func chunks() -> AsyncThrowingStream<Data, any Error> {
        switch self {
        case .data(let data):
            return AsyncThrowingStream { continuation in
                continuation.yield(data)
                continuation.finish()
            }
        case .file(let url): return FileChunks.read(url)
        case .stream(_, let makeChunks): return makeChunks()
        }
    }

    /// The whole body in memory (for small bodies and tests).
    public func collect() async throws -> Data {
        switch self {
        case .data(let data): return data
        case .file(let url): return try Data(contentsOf: url)
        case .stream(_, let makeChunks):
            var data = Data()
            for try await chunk in makeChunks() { data.append(chunk) }
            return data
        }
    }

    /// Writes the body to `url` chunk by chunk (a file body is copied the same way).
    public func write(to url: URL) async throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        switch self {
        case .data(let data):
            try handle.write(contentsOf: data)
        case .file(let source):
            for try await chunk in FileChunks.read(source) { try handle.write(contentsOf: chunk) }
        case .stream(_, let makeChunks):
            for try await chunk in makeChunks() { try handle.write(contentsOf: chunk) }
        }
    }
}

/// Reads a file in fixed-size chunks, one chunk per request of the consumer (so a slow
/// network never makes the file pile up in memory).
enum FileChunks {
    static let chunkSize = 256 * 1024

    static func read(_ url: URL) -> AsyncThrowingStream<Data, any Error> {
        let reader = FileChunkReader(url: url)
        return AsyncThrowingStream(unfolding: { try reader.next() })
    }
}

/// A file opened on first read and closed at its end.
final class FileChunkReader: @unchecked Sendable {
    private let url: URL
    private let lock = NSLock()
    private var handle: FileHandle?
    private var finished = false

    init(url: URL) {
        self.url = url
    }

    func next() throws -> Data? {
        try lock.withLock {
            if finished { return nil }
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            if let chunk = try handle?.read(upToCount: FileChunks.chunkSize), !chunk.isEmpty { return chunk }
            finished = true
            try? handle?.close()
            handle = nil
            return nil
        }
    }

    deinit { try? handle?.close() }
}
