import Foundation
import HTTPTypes

/// The smallest HTTP client the transport needs. Implementations: ``URLSessionHTTPClient`` and
/// `AsyncHTTPClientAdapter` (module `BatonAsyncHTTPClient`).
///
/// The transport calls the methods that take ``HTTPRequestOptions`` (the response-size limit,
/// the redirect policy); a client written before them implements only the ones with a `timeout`,
/// and the options' defaults forward to those: the transport still checks the size of what such
/// a client returns, but only a client that honours the options stops reading at the limit.
public protocol HTTPClient: Sendable {
    /// Sends a request and returns the response head and its whole body.
    func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data)

    /// Sends a request and returns the response head as soon as it arrives, and the body as a
    /// stream of chunks as they arrive (for `multipart/mixed` incremental delivery). The stream
    /// ends with an error when the connection fails before the body is complete.
    func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>)

    /// Sends a request within `options` and returns the response head and its whole body: a body
    /// larger than `options.maxResponseBytes` (after content decoding) fails with
    /// ``HTTPClientLimitError/responseTooLarge(limit:)`` as soon as it passes the limit.
    /// Default: `send(_:body:timeout:)` with `options.timeout`.
    func send(_ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions) async throws -> (HTTPResponse, Data)

    /// `stream(_:body:timeout:)` within `options`. Default: `stream(_:body:timeout:)` with
    /// `options.timeout`.
    func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>)

    /// Whether the client injects the current trace context into its requests itself (with a
    /// span of its own as the parent): Baton's transport then leaves that to it. Default: false.
    var propagatesTraceContext: Bool { get }
}

extension HTTPClient {
    /// False: Baton's transport injects the trace context.
    public var propagatesTraceContext: Bool { false }

    /// `send(_:body:timeout:)` with `options.timeout`: the other options are not honoured
    /// (the transport checks the size of the body returned).
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: options.timeout)
    }

    /// `stream(_:body:timeout:)` with `options.timeout`: the other options are not honoured
    /// (the transport counts the chunks).
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        try await stream(request, body: body, timeout: options.timeout)
    }
}

extension HTTPClient {
    /// Sends a request with an in-memory body (or none).
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body.map(HTTPRequestBody.data), timeout: timeout)
    }
}

/// What the transport asks of an ``HTTPClient`` for one request besides sending it: how long,
/// how much, and how redirects are followed (from ``ResponseLimits`` and `SensitiveData`).
public struct HTTPRequestOptions: Sendable, Hashable {
    /// The client's own time limit for the request; `nil`: the client's default.
    public var timeout: Duration?
    /// The most body bytes read, after content decoding; `nil`: no limit (a subscription's
    /// stream, bounded per event instead).
    public var maxResponseBytes: Int?
    /// The most redirects followed.
    public var maxRedirects: Int
    /// Header names (any case) never sent to another origin on a redirect, beside the ones
    /// always dropped (``HTTPRequestOptions/credentialHeaderNames``).
    public var sensitiveHeaderNames: Set<String>
    /// The most bytes of a streamed body the client may hold that its consumer has not taken,
    /// for a client that cannot stop reading the socket while its consumer is behind; past it
    /// the stream fails with ``HTTPClientLimitError/consumerFellBehind(limit:)``. A client that
    /// reads only as fast as its consumer takes never reaches it.
    public var maxUnreadBytes: Int

    /// Options with `ResponseLimits`' defaults.
    public init(
        timeout: Duration? = nil, maxResponseBytes: Int? = ResponseLimits.default.maxResponseBytes,
        maxRedirects: Int = ResponseLimits.default.maxRedirects, sensitiveHeaderNames: Set<String> = [],
        maxUnreadBytes: Int = ResponseLimits.default.maxUnreadBytes
    ) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.maxRedirects = maxRedirects
        self.sensitiveHeaderNames = sensitiveHeaderNames
        self.maxUnreadBytes = maxUnreadBytes
    }

    /// The headers a redirect to another origin never carries, as browsers and curl drop them
    /// (lowercase).
    public static let credentialHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Whether a redirect to another origin drops the header `name`.
    public func dropsOnCrossOriginRedirect(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return Self.credentialHeaderNames.contains(lowered) || sensitiveHeaderNames.contains { $0.lowercased() == lowered }
    }

    /// The request an ``HTTPClient`` sends next when `request` (with `body`) is redirected with
    /// `status` to `location`: Baton's one rule for every client it ships, which never sends
    /// credentials or a body anywhere their sender did not mean them to go.
    ///
    /// - A request without a body (`GET`, `HEAD`) follows any redirect, as it is; to another
    ///   origin without the headers ``dropsOnCrossOriginRedirect(_:)`` names.
    /// - A request with a body follows only a 307 or 308 to its own origin, with its method, its
    ///   headers and its body (which must be one that can be sent again: data or a file). A 301,
    ///   302 or 303 would send it again as a `GET` without its body, and another origin would
    ///   receive the body (the query and its variables): both fail.
    /// - Only `http` and `https` locations are followed (as curl's default).
    ///
    /// Throws ``HTTPClientLimitError/redirectRefused(status:location:reason:)`` for a redirect not
    /// followed.
    public func redirect(
        of request: HTTPRequest, body: HTTPRequestBody?, status: Int, to location: URL
    ) throws(HTTPClientLimitError) -> (request: HTTPRequest, body: HTTPRequestBody?) {
        func refuse(_ reason: String) -> HTTPClientLimitError {
            .redirectRefused(status: status, location: location.absoluteString, reason: reason)
        }
        let scheme = location.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw refuse("only http and https locations are followed")
        }
        let sameOrigin = request.url.map { Self.sameOrigin($0, location) } ?? false
        var next = request
        next.url = location
        if !sameOrigin {
            next.headerFields = HTTPFields(request.headerFields.filter { !dropsOnCrossOriginRedirect($0.name.rawName) })
        }
        let hasBody = body != nil || !(request.method == .get || request.method == .head)
        guard hasBody else { return (next, nil) }
        guard status == 307 || status == 308 else {
            throw refuse("a \(status) would send the \(request.method.rawValue) again as a GET without its body")
        }
        guard sameOrigin else {
            throw refuse("the request has a body, which is not sent to another origin; send it to the new URL instead")
        }
        switch body {
        case .stream?:
            throw refuse("the request's body was streamed and cannot be sent again")
        case nil, .data?, .file?:
            return (next, body)
        }
    }

    /// Whether `a` and `b` have the same origin: scheme, host and port (the scheme's default
    /// port when none is written).
    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" || scheme == "wss" ? 443 : 80)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(a) == origin(b)
    }
}

/// A limit an ``HTTPClient`` enforced on a response; the transport reports it as the matching
/// ``BatonError`` with the operation's name.
public enum HTTPClientLimitError: Error, Sendable, Hashable {
    /// The body passed ``HTTPRequestOptions/maxResponseBytes`` (`limit`), or its `Content-Length`
    /// announced more: reading stopped.
    case responseTooLarge(limit: Int)
    /// More than ``HTTPRequestOptions/maxRedirects`` (`limit`) redirects.
    case tooManyRedirects(limit: Int)
    /// A redirect the client would not follow: `status` to `location`, for `reason`.
    case redirectRefused(status: Int, location: String, reason: String)
    /// The consumer of a streamed body fell ``HTTPRequestOptions/maxUnreadBytes`` (`limit`)
    /// behind what the server sent, and the client could not hold the server back: reading
    /// stopped.
    case consumerFellBehind(limit: Int)
}
