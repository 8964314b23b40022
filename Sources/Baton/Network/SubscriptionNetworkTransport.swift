import BatonAPI

/// A transport that can also deliver subscriptions: a stream of raw responses, one per event,
/// that ends when the server completes the subscription. Cancelling the consuming task (or
/// dropping the stream) stops the subscription on the server.
///
/// `BatonWebSocket`'s `WebSocketNetworkTransport` and `SplitNetworkTransport` are the ones Baton
/// ships; ``BatonClient/subscribe(subscription:bufferLimit:)`` needs its client's transport to be one.
public protocol SubscriptionNetworkTransport: NetworkTransport {
    func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription
    ) -> AsyncThrowingStream<GraphQLResponse, any Error>
}

/// A subscription transport that says how many bytes of events may wait for a subscription's
/// consumer (``ResponseLimits/maxBufferedEventBytes`` over HTTP, the WebSocket configuration's
/// own); ``BatonClient/subscribe(subscription:bufferLimit:)`` keeps other transports to
/// ``ResponseLimits``' default.
package protocol BufferedEventBytesLimited {
    var maxBufferedEventBytes: Int { get }
}

extension RequestChainNetworkTransport: BufferedEventBytesLimited {
    package var maxBufferedEventBytes: Int { limits.maxBufferedEventBytes }
}
