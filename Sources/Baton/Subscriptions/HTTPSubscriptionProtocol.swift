/// How a subscription runs over plain HTTP, one request per subscription, its events streamed in
/// the response body (``RequestChainNetworkTransport``, `subscriptionProtocol:`).
public enum HTTPSubscriptionProtocol: String, Sendable, Hashable, CaseIterable {
    /// Apollo's multipart protocol (Apollo Router, GraphOS, Apollo Server's plugins, strawberry):
    /// `Accept: multipart/mixed;subscriptionSpec="1.0"`; each part is `{"payload": result}`, a
    /// heartbeat `{}`, or `{"payload": null, "errors": […]}` for a failure of the transport.
    case multipart
    /// GraphQL over Server-Sent Events (the graphql-sse protocol, distinct connections mode):
    /// `Accept: text/event-stream`; `next` events carry results, `complete` ends the stream.
    case serverSentEvents

    /// The `Accept` header a subscription request sends.
    var acceptHeader: String {
        switch self {
        case .multipart: return #"multipart/mixed;subscriptionSpec="1.0",application/json"#
        case .serverSentEvents: return "text/event-stream"
        }
    }
}
