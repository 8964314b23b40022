import Foundation
import HTTPTypes

/// The smallest HTTP client the transport needs: send a request with an optional body, get the
/// response head and the whole body. Implementations: ``URLSessionHTTPClient``.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration?) async throws -> (HTTPResponse, Data)
}
