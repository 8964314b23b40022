import AsyncHTTPClient
import Baton
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Tracing

/// A Baton `HTTPClient` over swift-server's AsyncHTTPClient, for server-side Swift.
///
/// Request bodies stream as they are: a file or a multipart upload is read in chunks while it is
/// sent, with its length announced. Response bodies stream too, for `@defer`/`@stream`.
///
/// ```swift
/// let client = BatonClient(url: url, httpClient: AsyncHTTPClientAdapter())
/// ```
public struct AsyncHTTPClientAdapter: Baton.HTTPClient {
    private let client: AsyncHTTPClient.HTTPClient
    private let defaultTimeout: Duration

    /// An adapter over `client` (the process-wide shared client by default, which needs no shutdown).
    public init(client: AsyncHTTPClient.HTTPClient = .shared, timeout: Duration = .seconds(60)) {
        self.client = client
        defaultTimeout = timeout
    }

    /// True when the AsyncHTTPClient has a tracer (its configuration's, by default the one
    /// bootstrapped when it was made): it then makes an HTTP span under Baton's operation span
    /// and injects that span's context itself.
    public var propagatesTraceContext: Bool {
        guard let tracer = client.tracer else { return false }
        return !(tracer is NoOpTracer)
    }

    /// Sends the request (streaming its body) and collects the whole response body.
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        let (response, chunks) = try await stream(request, body: body, timeout: timeout)
        var data = Data()
        for try await chunk in chunks { data.append(chunk) }
        return (response, data)
    }

    /// Sends the request and yields the response body in chunks as they arrive.
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        switch body {
        case nil:
            break
        case .data(let data)?:
            outgoing.body = .bytes(ByteBuffer(data: data))
        case .file(let fileURL)?:
            let length = HTTPRequestBody.file(fileURL).knownLength
            outgoing.body = .stream(
                ByteBufferChunks(HTTPRequestBody.file(fileURL).chunks()), length: length.map { .known($0) } ?? .unknown)
        case .stream(let length, let makeChunks)?:
            outgoing.body = .stream(ByteBufferChunks(makeChunks()), length: length.map { .known($0) } ?? .unknown)
        }
        let limit = timeout ?? defaultTimeout
        let response: HTTPClientResponse
        do {
            response = try await client.execute(
                outgoing, timeout: .nanoseconds(limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000))
        } catch {
            throw Self.normalized(error)
        }

        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let head = HTTPResponse(status: .init(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase), headerFields: fields)
        let responseBody = response.body
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            let task = Task {
                do {
                    for try await buffer in responseBody {
                        continuation.yield(Data(buffer: buffer))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Self.normalized(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return (head, chunks)
    }

    /// AsyncHTTPClient's time-outs as `URLError(.timedOut)` and its cancellation as
    /// `CancellationError`, as the transport expects of every HTTP client.
    static func normalized(_ error: any Error) -> any Error {
        guard let error = error as? HTTPClientError else { return error }
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return URLError(.timedOut)
        case .cancelled: return CancellationError()
        default: return error
        }
    }
}

/// Data chunks as the `ByteBuffer`s AsyncHTTPClient sends, pulled one at a time.
struct ByteBufferChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: AsyncThrowingStream<Data, any Error>

    init(_ chunks: AsyncThrowingStream<Data, any Error>) {
        self.chunks = chunks
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.AsyncIterator

        mutating func next() async throws -> ByteBuffer? {
            guard let data = try await base.next() else { return nil }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: chunks.makeAsyncIterator())
    }
}
