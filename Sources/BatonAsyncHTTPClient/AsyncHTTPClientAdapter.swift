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
/// Bounds kept against the server (`HTTPRequestOptions`):
/// - **Size.** The body is counted as AsyncHTTPClient delivers it, and reading stops as soon as
///   it passes `maxResponseBytes`; a `Content-Length` announcing more is refused before the body
///   is read.
/// - **Back-pressure.** AsyncHTTPClient reads from the socket only as its body sequence is
///   consumed, and the adapter hands each chunk over only when the one before was taken, so a
///   consumer that falls behind holds the server back: memory stays within the consumer's
///   limits, not what the server sends.
/// - **Compression.** AsyncHTTPClient inflates gzip and deflate only when its client's
///   configuration enables decompression (``sharedClient``'s does, with a limit of 25 times the
///   compressed size). The bytes counted here are the inflated ones, so `maxResponseBytes`
///   bounds a compression bomb whatever that configuration says; the configuration's own limit
///   may stop it sooner, as a network error.
/// - **Redirects** are followed by the adapter, by `HTTPRequestOptions.redirect(of:body:status:to:)`
///   (the rule `URLSessionHTTPClient` follows too): at most `maxRedirects`, without
///   `Authorization`, `Cookie`, `Proxy-Authorization` and the `SensitiveData` headers on
///   another origin, a 307 or 308 of a request with a body only to its own origin with its
///   method and body, else `HTTPClientLimitError.redirectRefused(status:location:reason:)`.
///   That needs an AsyncHTTPClient that returns redirects rather than following them
///   (`redirectConfiguration: .disallow`), as ``sharedClient`` does; a client that follows them
///   itself (AsyncHTTPClient's own `.shared`) applies its own rules instead, which drop only
///   `Authorization`, `Cookie`, `Proxy-Authorization` and `Origin` and know no `maxRedirects`.
///
/// ```swift
/// let client = BatonClient(url: url, httpClient: AsyncHTTPClientAdapter())
/// ```
public struct AsyncHTTPClientAdapter: Baton.HTTPClient {
    private let client: AsyncHTTPClient.HTTPClient
    private let defaultTimeout: Duration

    /// A process-wide AsyncHTTPClient with AsyncHTTPClient's `.shared` configuration
    /// (`singletonConfiguration`) but for redirects, which it returns to the adapter to follow
    /// by Baton's rule. Never shut down, like `.shared`.
    public static let sharedClient: AsyncHTTPClient.HTTPClient = {
        var configuration = AsyncHTTPClient.HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        return AsyncHTTPClient.HTTPClient(eventLoopGroup: AsyncHTTPClient.HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// An adapter over `client` (by default ``sharedClient``, which needs no shutdown).
    public init(client: AsyncHTTPClient.HTTPClient = AsyncHTTPClientAdapter.sharedClient, timeout: Duration = .seconds(60)) {
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

    /// Sends the request (streaming its body) and collects the whole response body, within the
    /// default options.
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, options: HTTPRequestOptions(timeout: timeout))
    }

    /// Sends the request (streaming its body) and collects the whole response body, reading at
    /// most `options.maxResponseBytes` of it.
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions) async throws -> (HTTPResponse, Data) {
        let (response, chunks) = try await stream(request, body: body, options: options)
        var data = Data()
        for try await chunk in chunks { data.append(chunk) }
        return (response, data)
    }

    /// Sends the request and yields the response body in chunks as they arrive, with no size limit.
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        try await stream(request, body: body, options: HTTPRequestOptions(timeout: timeout, maxResponseBytes: nil))
    }

    /// Sends the request and yields the response body in chunks as they arrive (each read from
    /// the socket only when the consumer has taken the one before), failing once they pass
    /// `options.maxResponseBytes`; redirects are followed by Baton's rule.
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        let maxBytes = options.maxResponseBytes
        let limit = options.timeout ?? defaultTimeout
        var current = request
        var currentBody = body
        var redirects = 0
        var response: HTTPClientResponse
        while true {
            do {
                response = try await client.execute(
                    try Self.outgoing(current, body: currentBody),
                    timeout: .nanoseconds(limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000))
            } catch {
                throw Self.normalized(error)
            }
            guard [301, 302, 303, 307, 308].contains(response.status.code),
                let location = response.headers.first(name: "Location"),
                let target = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { break }
            // The redirect's own body is not read: dropping it closes its connection.
            redirects += 1
            guard redirects <= options.maxRedirects else {
                throw HTTPClientLimitError.tooManyRedirects(limit: options.maxRedirects)
            }
            (current, currentBody) = try options.redirect(
                of: current, body: currentBody, status: Int(response.status.code), to: target)
        }

        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let head = HTTPResponse(status: .init(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase), headerFields: fields)
        let responseBody = response.body
        if let maxBytes, let announced = response.headers.first(name: "Content-Length").flatMap({ Int($0) }), announced > maxBytes {
            // Not read: dropping the body closes the connection.
            throw HTTPClientLimitError.responseTooLarge(limit: maxBytes)
        }
        // Back-pressured: the next buffer is read only when the consumer took the one before.
        let chunks = BackPressuredStream.make(of: Data.self, capacity: 1) { send in
            do {
                var received = 0
                for try await buffer in responseBody {
                    received += buffer.readableBytes
                    if let maxBytes, received > maxBytes { throw HTTPClientLimitError.responseTooLarge(limit: maxBytes) }
                    guard await send(Data(buffer: buffer)) else { return }
                }
            } catch {
                throw Self.normalized(error)
            }
        }
        return (head, chunks)
    }

    /// AsyncHTTPClient's request for `request` and `body`.
    private static func outgoing(_ request: HTTPRequest, body: HTTPRequestBody?) throws -> HTTPClientRequest {
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
        return outgoing
    }

    /// AsyncHTTPClient's time-outs as `URLError(.timedOut)` and its cancellation as
    /// `CancellationError`, as the transport expects of every HTTP client.
    static func normalized(_ error: any Error) -> any Error {
        if error is HTTPClientLimitError { return error }
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
