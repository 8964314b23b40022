import BatonAPI
import Foundation

/// Persisted queries, as the chain's step before HTTP: the request carries
/// `extensions.persistedQuery = {version: 1, sha256Hash: <operation id>}` instead of its document.
///
/// - ``Mode/automatic(useGETForRetry:)``: Apollo's automatic persisted queries. The hash goes
///   first; when the server answers `PersistedQueryNotFound` (error `extensions.code`
///   `PERSISTED_QUERY_NOT_FOUND`, or that message), the request is sent again with the document
///   (by POST unless `useGETForRetry`), which also registers it on the server.
/// - ``Mode/persistedOnly``: only ids are sent, for servers that run a fixed list of operations
///   (the codegen's operation manifest); an unknown id is
///   ``BatonError/persistedQueryNotFound(operationName:operationIdentifier:)``.
///
/// Requests with files are sent as they are.
public struct PersistedQueryInterceptor: GraphQLInterceptor {
    /// Which persisted-query protocol to speak.
    public enum Mode: Sendable, Hashable {
        /// Apollo's automatic persisted queries: the hash first, the document when the server asks.
        case automatic(useGETForRetry: Bool)
        /// Only the hash, ever: the server knows every operation in advance.
        case persistedOnly
    }

    /// The protocol this step speaks.
    public let mode: Mode

    /// A persisted-query step speaking `mode`.
    public init(mode: Mode) {
        self.mode = mode
    }

    /// Sends the hash instead of the document, and the document too when the mode and the server's
    /// answer call for it.
    public func intercept(
        _ request: GraphQLRequest,
        next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        guard request.files.isEmpty else { return try await next(request) }
        var hashed = request
        hashed.sendsDocument = false
        hashed.extensions["persistedQuery"] = ["version": 1, "sha256Hash": .string(request.operationIdentifier)]
        let result = try await next(hashed)
        guard let problem = Self.persistedQueryProblem(in: result) else { return result }
        switch mode {
        case .persistedOnly:
            throw BatonError.persistedQueryNotFound(
                operationName: request.operationName, operationIdentifier: request.operationIdentifier)
        case .automatic(let useGETForRetry):
            var retry = hashed
            retry.sendsDocument = true
            if problem == .notSupported { retry.extensions["persistedQuery"] = nil }
            retry.usesGET = useGETForRetry && request.operationType == .query
            return try await next(retry)
        }
    }

    package enum Problem {
        case notFound
        case notSupported
    }

    /// Whether the response says the server does not know the hash (or does not do persisted
    /// queries at all).
    static func persistedQueryProblem(in result: HTTPResult) -> Problem? {
        guard result.streamedBody == nil, !result.body.isEmpty,
            let body = (try? JSONValue(parsing: result.body))?.objectValue
        else { return nil }
        return persistedQueryProblem(in: body)
    }

    /// The same for a response body from any transport (the WebSocket transport's too).
    package static func persistedQueryProblem(in body: JSONObject) -> Problem? {
        guard let errors = body["errors"]?.listValue else { return nil }
        for error in errors {
            let code = error["extensions"]?["code"]?.stringValue
            let message = error["message"]?.stringValue
            if code == "PERSISTED_QUERY_NOT_FOUND" || message == "PersistedQueryNotFound" { return .notFound }
            if code == "PERSISTED_QUERY_NOT_SUPPORTED" || message == "PersistedQueryNotSupported" { return .notSupported }
        }
        return nil
    }
}
