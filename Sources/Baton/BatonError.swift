import BatonAPI
import Foundation

/// Why an operation produced no result. A response that carries GraphQL `errors` is not one of
/// these: it is a `GraphQLResult` whose `errors` are set.
public enum BatonError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The preflight step declined to send the request.
    case vetoed(operationName: String, reason: String)
    /// The request did not complete: connection refused, reset, closed before the whole body.
    case network(operationName: String, underlying: any Error)
    /// No whole response within the transport's `timeout` (`after`), or, once an incremental
    /// response has started, no next chunk of it within that time; or the whole operation took
    /// longer than ``ResponseLimits/operationTimeout`` (`after`), however steadily bytes came.
    case timedOut(operationName: String, after: Duration)
    /// The response body passed ``ResponseLimits/maxResponseBytes`` (`limit`, after content
    /// decoding), or its `Content-Length` announced more: reading stopped there.
    case responseTooLarge(operationName: String, limit: Int)
    /// The server redirected more than ``ResponseLimits/maxRedirects`` (`limit`) times.
    case tooManyRedirects(operationName: String, limit: Int)
    /// The server redirected the request (`status`, to `location`) and the HTTP client would not
    /// follow: a `POST` whose body a redirect would drop or change.
    case redirectRefused(operationName: String, status: Int, location: String, reason: String)
    /// A streaming response's server sent ``ResponseLimits/maxUnreadBytes`` (`limit`) more than
    /// the operation had parsed, over an HTTP client that cannot hold the server back
    /// (`URLSession` on Linux): reading stopped.
    case consumerFellBehind(operationName: String, limit: Int)
    /// The server answered with a status that carries no GraphQL response (a 500 with an HTML
    /// page, a 404, …). `errors` holds any GraphQL errors the body did contain.
    case httpStatus(operationName: String, status: Int, contentType: String?, bodyExcerpt: String, errors: [GraphQLError])
    /// The body is not JSON: truncated, cut off, or something else entirely.
    case malformedResponse(operationName: String, JSONParseError)
    /// The body is JSON but not a GraphQL response (no `data` and no `errors`, `data` not an object, …).
    case invalidResponse(operationName: String, reason: String)
    /// The response's `data` does not match the operation's selections.
    case dataMismatch(operationName: String, SelectionSetDecodingError)
    /// The data was read (from the server or the store) but a field's error or null fails the
    /// read as the document asks: `@throwOnFieldError` (a field error, or a null where
    /// `@semanticNonNull` says none can be) or `@required(action: THROW)`. The error names the
    /// path and carries the field's errors (`SelectionSetDecodingError.fieldErrors`).
    case fieldErrorThrown(operationName: String, SelectionSetDecodingError)
    /// `.returnCacheDataDontFetch` and the store does not hold all of the data.
    case cacheMiss(operationName: String)
    /// A fragment cannot be watched, refetched or paginated from the data given: no record ID
    /// (neither `__id` nor a cache key), no connection at the fragment's connection path, ….
    case fragmentReference(fragmentName: String, reason: String)
    /// A file to upload could not be read.
    case unreadableFile(operationName: String, fileURL: URL, underlying: any Error)
    /// An incremental (`multipart/mixed`) response ended before its last part: cut off in the
    /// middle of a part, or without the part that says nothing follows.
    case incompleteResponse(operationName: String, reason: String)
    /// A part of a streamed response passed ``ResponseLimits/maxPartBytes`` (`limit`): a part of
    /// a `multipart/mixed` response (`@defer`, `@stream`, a multipart subscription), its headers
    /// or a delimiter line, or an event or line of a Server-Sent Events stream. Reading stopped
    /// as soon as the part passed the limit.
    case partTooLarge(operationName: String, limit: Int)
    /// A GraphQL error's `path` has `length` elements, more than
    /// ``ResponseLimits/maxErrorPathLength`` (`limit`).
    case errorPathTooLong(operationName: String, length: Int, limit: Int)
    /// The transport cannot send files (``BatonClient/upload(operation:files:)`` needs an
    /// ``UploadingNetworkTransport``).
    case uploadsNotSupported(operationName: String)
    /// In persisted-only mode the server does not know the operation's id (it is missing from
    /// the server's operation manifest).
    case persistedQueryNotFound(operationName: String, operationIdentifier: String)
    /// `subscribe(subscription:)` on a client whose transport is not a `SubscriptionNetworkTransport`
    /// (plain HTTP); `transport` names its type.
    case subscriptionsUnsupported(operationName: String, transport: String)
    /// The consumer of a subscription fell `limit` events behind; the subscription was stopped
    /// rather than lose events silently. `BatonClient.subscribe` no longer ends with it (it waits
    /// for its consumer instead); kept for transports and code that bound a buffer themselves.
    case subscriptionBufferOverflow(operationName: String, limit: Int)
    /// The server ended a subscription over HTTP with a transport failure: in Apollo's multipart
    /// protocol, a part with top-level `errors` (and no `payload`). GraphQL errors of an event
    /// are not this: they come as a result whose `errors` are set.
    case subscriptionFailed(operationName: String, errors: [GraphQLError])
    /// A mutator had no client to send with: `@Mutation` outside a view given one with
    /// `.batonClient(_:)`.
    case noClient(operationName: String)
    /// A mutator's optimistic response had a value with no JSON form at `path` (a `Date`, a
    /// class instance in a `[String: Any]`): nothing was applied or sent.
    case invalidOptimisticResponse(operationName: String, path: String, reason: String)

    /// The same sentence as ``description``, naming the operation and what happened: what
    /// `error.localizedDescription` shows (an alert's message, as Apollo's tutorial does).
    public var errorDescription: String? { description }

    /// What went wrong and where, in a sentence (`hero.friends[2].name: expected String, found Int 42`).
    public var description: String {
        switch self {
        case .vetoed(let name, let reason):
            return "\(name): request vetoed before sending: \(reason)"
        case .network(let name, let underlying):
            return "\(name): network error: \(underlying)"
        case .timedOut(let name, let after):
            return "\(name): no response within \(after)"
        case .responseTooLarge(let name, let limit):
            return "\(name): the response is larger than ResponseLimits.maxResponseBytes (\(limit) bytes); reading stopped"
        case .tooManyRedirects(let name, let limit):
            return "\(name): more than ResponseLimits.maxRedirects (\(limit)) redirects"
        case .consumerFellBehind(let name, let limit):
            return "\(name): the server sent more than ResponseLimits.maxUnreadBytes (\(limit) bytes) ahead of what was parsed; reading stopped"
        case .redirectRefused(let name, let status, let location, let reason):
            return "\(name): HTTP \(status) redirect to \(location) not followed: \(reason)"
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
        case .fieldErrorThrown(let name, let error):
            var text = "\(name): the read failed at \(error.path): expected \(error.expected), found \(error.found)"
            if !error.fieldErrors.isEmpty { text += " (" + error.fieldErrors.map(\.message).joined(separator: "; ") + ")" }
            return text
        case .cacheMiss(let name):
            return "\(name): the store does not hold all of its data and the cache policy does not allow fetching"
        case .fragmentReference(let name, let reason):
            return "\(name): \(reason)"
        case .unreadableFile(let name, let url, let underlying):
            return "\(name): cannot read the file to upload \(url.path): \(underlying)"
        case .incompleteResponse(let name, let reason):
            return "\(name): the incremental response is incomplete: \(reason)"
        case .partTooLarge(let name, let limit):
            return "\(name): a part of the streamed response is larger than the limit of \(limit) bytes (ResponseLimits.maxPartBytes)"
        case .errorPathTooLong(let name, let length, let limit):
            return "\(name): a GraphQL error's path has \(length) elements, more than the limit of \(limit) (ResponseLimits.maxErrorPathLength)"
        case .uploadsNotSupported(let name):
            return "\(name): the network transport cannot upload files"
        case .persistedQueryNotFound(let name, let id):
            return "\(name): the server does not know the persisted operation \(id) (send only persisted operations, or add it to the server's manifest)"
        case .subscriptionsUnsupported(let name, let transport):
            return "\(name): \(transport) cannot run subscriptions; give RequestChainNetworkTransport a subscriptionProtocol (multipart HTTP or SSE), or use a WebSocket or split transport (BatonWebSocket)"
        case .subscriptionBufferOverflow(let name, let limit):
            return "\(name): the consumer fell \(limit) events behind; the subscription was stopped"
        case .subscriptionFailed(let name, let errors):
            return "\(name): the server ended the subscription: " + errors.map(\.message).joined(separator: "; ")
        case .noClient(let name):
            return "\(name): no client to send it with; give the view one with .batonClient(_:)"
        case .invalidOptimisticResponse(let name, let path, let reason):
            return "\(name): the optimistic response cannot be applied: \(path): \(reason)"
        }
    }
}
