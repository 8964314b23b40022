import BatonAPI

/// Why an operation produced no result. A response that carries GraphQL `errors` is not one of
/// these: it is a ``GraphQLResult`` whose `errors` are set.
public enum BatonError: Error, Sendable, CustomStringConvertible {
    /// The preflight step declined to send the request.
    case vetoed(operationName: String, reason: String)
    /// The request did not complete: connection refused, reset, timed out, cancelled.
    case network(operationName: String, underlying: any Error)
    /// The server answered with a status that carries no GraphQL response (a 500 with an HTML
    /// page, a 404, …). `errors` holds any GraphQL errors the body did contain.
    case httpStatus(operationName: String, status: Int, contentType: String?, bodyExcerpt: String, errors: [GraphQLError])
    /// The body is not JSON: truncated, cut off, or something else entirely.
    case malformedResponse(operationName: String, JSONParseError)
    /// The body is JSON but not a GraphQL response (no `data` and no `errors`, `data` not an object, …).
    case invalidResponse(operationName: String, reason: String)
    /// The response's `data` does not match the operation's selections.
    case dataMismatch(operationName: String, SelectionSetDecodingError)
    /// `.returnCacheDataDontFetch` and the store does not hold all of the data.
    case cacheMiss(operationName: String)
    /// `subscribe(subscription:)` on a client whose transport is not a `SubscriptionNetworkTransport`
    /// (plain HTTP); `transport` names its type.
    case subscriptionsUnsupported(operationName: String, transport: String)

    public var description: String {
        switch self {
        case .vetoed(let name, let reason):
            return "\(name): request vetoed before sending: \(reason)"
        case .network(let name, let underlying):
            return "\(name): network error: \(underlying)"
        case .httpStatus(let name, let status, let contentType, let excerpt, let errors):
            var text = "\(name): HTTP \(status)"
            if let contentType { text += " (\(contentType))" }
            if !errors.isEmpty {
                text += ": " + errors.map(\.message).joined(separator: "; ")
            } else if !excerpt.isEmpty {
                text += ": \(excerpt)"
            }
            return text
        case .malformedResponse(let name, let error):
            return "\(name): response body is not valid JSON: \(error)"
        case .invalidResponse(let name, let reason):
            return "\(name): not a GraphQL response: \(reason)"
        case .dataMismatch(let name, let error):
            return "\(name): response data does not match the operation: \(error)"
        case .cacheMiss(let name):
            return "\(name): the store does not hold all of its data and the cache policy does not allow fetching"
        case .subscriptionsUnsupported(let name, let transport):
            return "\(name): \(transport) cannot run subscriptions; use a WebSocket or split transport (BatonWebSocket)"
        }
    }
}
