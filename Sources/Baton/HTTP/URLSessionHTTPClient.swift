import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPClient`` over `URLSession` (FoundationNetworking on Linux).
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let defaultTimeout: Duration

    /// A client over an ephemeral session (no shared cookies or URL cache).
    public init(timeout: Duration = .seconds(60)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.init(session: URLSession(configuration: configuration), timeout: timeout)
    }

    public init(session: URLSession, timeout: Duration = .seconds(60)) {
        self.session = session
        defaultTimeout = timeout
    }

    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw URLError(.badURL)
        }
        let limit = timeout ?? defaultTimeout
        urlRequest.timeoutInterval = Double(limit.components.seconds) + Double(limit.components.attoseconds) * 1e-18
        urlRequest.httpBody = body
        let (data, response) = try await session.data(for: urlRequest)
        guard let httpResponse = (response as? HTTPURLResponse)?.httpResponse else {
            throw URLError(.badServerResponse)
        }
        return (httpResponse, data)
    }
}
