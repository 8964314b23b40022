import BatonAPI
import BatonStore
import Foundation
import HTTPTypes

/// When a failed request is sent again, and after how long: exponential backoff with jitter.
///
/// Only failures a later attempt can fix are retried: the connection could not be made or
/// broke, no response came in time, or the server answered 408, 429, 500, 502, 503 or 504
/// (a `Retry-After` in seconds is honoured, up to `maxDelay`). GraphQL errors, bad bodies and
/// other statuses are answers, not failures, and are never retried. Mutations are not retried
/// unless ``retriesMutations`` is set, since the first attempt may have reached the server.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (1: never retry).
    public var maxAttempts: Int
    /// The delay before the second attempt.
    public var initialDelay: Duration
    /// The longest delay between attempts.
    public var maxDelay: Duration
    /// How much the delay grows with each attempt.
    public var multiplier: Double
    /// A random share (0…1) of each delay added or removed, so clients do not come back at once.
    public var jitter: Double
    /// Retry mutations too (only for mutations that are safe to apply twice).
    public var retriesMutations: Bool
    /// The HTTP statuses that are retried.
    public var retriedStatuses: Set<Int>

    /// A policy; by default 3 attempts of queries, from 200 ms doubling up to 10 s, on 408, 429,
    /// 500, 502, 503 and 504, dropped connections and time-outs.
    public init(
        maxAttempts: Int = 3, initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        multiplier: Double = 2, jitter: Double = 0.2, retriesMutations: Bool = false,
        retriedStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    ) {
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.retriesMutations = retriesMutations
        self.retriedStatuses = retriedStatuses
    }

    /// Never retry.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The delay before attempt `attempt` (2 for the first retry), without `Retry-After`.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        let growth = pow(multiplier, Double(max(0, attempt - 2)))
        let base = min(initialDelay.seconds * growth, maxDelay.seconds)
        let spread = base * min(max(jitter, 0), 1)
        return Self.duration(max(0, base + Double.random(in: -spread...spread)))
    }

    /// Whether a request of `operationType` may be retried at all.
    public func retries(_ operationType: GraphQLOperationType) -> Bool {
        maxAttempts > 1 && (operationType != .mutation || retriesMutations)
    }

    /// Whether a failure thrown by the rest of the chain is worth another attempt.
    public func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case BatonError.network, BatonError.timedOut: true
        default: false
        }
    }

    /// The delay a retryable response asks for, or `nil` when the response is not retried.
    func retryDelay(for response: HTTPResponse, attempt: Int) -> Duration? {
        guard retriedStatuses.contains(response.status.code) else { return nil }
        if let header = response.headerFields[.retryAfter], let seconds = Double(header.trimmingCharacters(in: .whitespaces)) {
            return min(Self.duration(max(0, seconds)), maxDelay)
        }
        return delay(beforeAttempt: attempt)
    }

    private static func duration(_ seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

/// Sends a request again by a ``RetryPolicy``. ``RequestChainNetworkTransport`` puts it first in
/// its chain when given a `retryPolicy`, so every attempt goes through the other steps again
/// (a refreshed token from a preflight step, the persisted-query exchange). Cancelling the
/// operation's task stops the waiting at once. A streamed (`multipart/mixed`) response is not
/// retried once its head has arrived.
public struct RetryInterceptor: GraphQLInterceptor {
    /// What is retried, how often and how long apart.
    public let policy: RetryPolicy
    /// Called before each retry with the request, the attempt about to be made (2 for the first
    /// retry), the delay, and why; for logging and tests.
    public let onRetry: @Sendable (_ request: GraphQLRequest, _ attempt: Int, _ delay: Duration, _ reason: String) -> Void

    /// A retry step following `policy`; `onRetry` hears of each retry.
    public init(
        policy: RetryPolicy,
        onRetry: @escaping @Sendable (GraphQLRequest, Int, Duration, String) -> Void = { _, _, _, _ in }
    ) {
        self.policy = policy
        self.onRetry = onRetry
    }

    /// Sends the request, and again after a delay while the policy says the failure is worth retrying.
    public func intercept(
        _ request: GraphQLRequest,
        next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        guard policy.retries(request.operationType) else { return try await next(request) }
        var attempt = 1
        while true {
            let delay: Duration
            let reason: String
            do {
                let result = try await next(request)
                guard attempt < policy.maxAttempts, result.streamedBody == nil,
                    let wait = policy.retryDelay(for: result.response, attempt: attempt + 1)
                else { return result }
                delay = wait
                reason = "HTTP \(result.response.status.code)"
            } catch {
                guard attempt < policy.maxAttempts, policy.isRetryable(error), !Task.isCancelled else { throw error }
                delay = policy.delay(beforeAttempt: attempt + 1)
                reason = String(describing: error)
            }
            attempt += 1
            onRetry(request, attempt, delay, reason)
            try await Task.sleep(for: delay)
        }
    }
}
