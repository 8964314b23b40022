import Baton
import BatonAsyncHTTPClient
import Foundation
import HTTPTypes

/// Which ``HTTPClient`` a transport test runs over; every transport test runs over each.
enum HTTPClientKind: String, CaseIterable, Sendable {
    case urlSession
    case asyncHTTPClient

    func make() -> any HTTPClient {
        switch self {
        case .urlSession: return URLSessionHTTPClient(timeout: .seconds(30))
        case .asyncHTTPClient: return AsyncHTTPClientAdapter(timeout: .seconds(30))
        }
    }
}

/// An ``HTTPClient`` that records what it sends, then sends it with the real client.
final class RecordingHTTPClient: HTTPClient, @unchecked Sendable {
    struct Sent: Sendable {
        let method: HTTPRequest.Method
        let url: URL
        let headerFields: HTTPFields
        /// The body when it was in memory.
        let body: Data?

        /// The URL's query parameters, decoded.
        var queryParameters: [String: String] {
            var parameters: [String: String] = [:]
            for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
                parameters[item.name] = item.value
            }
            return parameters
        }

        /// The JSON body as an object.
        var bodyJSON: [String: Any]? {
            body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    private let base: any HTTPClient
    private let lock = NSLock()
    private var sent: [Sent] = []

    init(_ kind: HTTPClientKind) {
        base = kind.make()
    }

    var requests: [Sent] { lock.withLock { sent } }

    private func record(_ request: HTTPRequest, _ body: HTTPRequestBody?) {
        var bytes: Data?
        if case .data(let data)? = body { bytes = data }
        let entry = Sent(method: request.method, url: request.url ?? URL(fileURLWithPath: "/"), headerFields: request.headerFields, body: bytes)
        lock.withLock { sent.append(entry) }
    }

    func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        record(request, body)
        return try await base.send(request, body: body, timeout: timeout)
    }

    func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        record(request, body)
        return try await base.stream(request, body: body, timeout: timeout)
    }
}
