/// One step of the request chain: it sees the request, may change it, calls `next` (or not),
/// and may inspect or replace what comes back. Authentication, persisted queries, retries and
/// logging are interceptors.
public protocol GraphQLInterceptor: Sendable {
    func intercept(
        _ request: GraphQLRequest,
        next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult
}

/// The decision of a ``PreflightInterceptor``.
public enum PreflightDecision: Sendable {
    case send
    case veto(reason: String)
}

/// The app's last word before a request leaves, like Apollo's `shouldSend`/`willSend`: edit the
/// request (add the `Authorization` header from a token store) or veto it, which fails the
/// operation with ``BatonError/vetoed(operationName:reason:)`` without touching the network.
public struct PreflightInterceptor: GraphQLInterceptor {
    /// The decision: edit the request in place, then send it or veto it.
    public typealias Decide = @Sendable (inout GraphQLRequest) async throws -> PreflightDecision

    private let decide: Decide

    /// A preflight step that runs `decide` on every request before it leaves.
    public init(_ decide: @escaping Decide) {
        self.decide = decide
    }

    /// Runs the decision, then sends the (edited) request or fails with the veto.
    public func intercept(
        _ request: GraphQLRequest,
        next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        var request = request
        switch try await decide(&request) {
        case .send:
            return try await next(request)
        case .veto(let reason):
            throw BatonError.vetoed(operationName: request.operationName, reason: reason)
        }
    }
}
