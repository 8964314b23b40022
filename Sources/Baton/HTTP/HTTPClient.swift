import Foundation
import HTTPTypes

/// The smallest HTTP client the transport needs. Implementations: ``URLSessionHTTPClient`` and
/// `AsyncHTTPClientAdapter` (module `BatonAsyncHTTPClient`).
public protocol HTTPClient: Sendable {
    /// Sends a request and returns the response head and its whole body.
    func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data)

    /// Sends a request and returns the response head as soon as it arrives, and the body as a
    /// stream of chunks as they arrive (for `multipart/mixed` incremental delivery). The stream
    /// ends with an error when the connection fails before the body is complete.
    func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>)

    /// Whether the client injects the current trace context into its requests itself (with a
    /// span of its own as the parent): Baton's transport then leaves that to it. Default: false.
    var propagatesTraceContext: Bool { get }
}

extension HTTPClient {
    /// False: Baton's transport injects the trace context.
    public var propagatesTraceContext: Bool { false }
}

extension HTTPClient {
    /// Sends a request with an in-memory body (or none).
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body.map(HTTPRequestBody.data), timeout: timeout)
    }
}
