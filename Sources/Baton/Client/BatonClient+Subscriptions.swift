import BatonAPI

extension BatonClient {
    /// Runs a subscription: one typed result per event, until the server completes it.
    ///
    /// ```swift
    /// for try await result in client.subscribe(subscription: CountSubscription(to: 3)) {
    ///     print(result.data?.count ?? 0)
    /// }
    /// ```
    ///
    /// Each event's data is normalized into ``store``, so watchers of the same records see it.
    /// Stopping the iteration (or cancelling its task) stops the subscription on the server.
    /// The client's transport must be a ``SubscriptionNetworkTransport``: BatonWebSocket's
    /// WebSocket or split transport, or a ``RequestChainNetworkTransport`` with a
    /// ``HTTPSubscriptionProtocol`` (Apollo's multipart protocol, Server-Sent Events); otherwise the sequence throws
    /// ``BatonError/subscriptionsUnsupported(operationName:transport:)``. GraphQL errors come as
    /// results whose `errors` are set; transport failures end the sequence with the error.
    ///
    /// Back-pressure, not loss: up to `bufferLimit` events wait for the consumer, together at
    /// most ``ResponseLimits/maxBufferedEventBytes`` of what they were read from (the
    /// transport's: `WebSocketTransportConfiguration.maxBufferedEventBytes` over a WebSocket),
    /// and while that many wait Baton reads no further event from the transport (over HTTP the
    /// server's writes then wait on the socket; over a WebSocket the transport's own
    /// per-operation bound applies). A consumer that keeps up, or falls behind for a while, gets
    /// every event in order; the sequence never ends with
    /// ``BatonError/subscriptionBufferOverflow(operationName:limit:)`` because of how fast
    /// Baton's own tasks run.
    public func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription, bufferLimit: Int = 1_000
    ) -> AsyncThrowingStream<GraphQLResult<Subscription.Data>, any Error> {
        subscribe(subscription: subscription, bufferLimit: bufferLimit, meter: nil)
    }

    /// ``subscribe(subscription:bufferLimit:)``, with `meter` recording the most events and
    /// bytes that waited for the consumer.
    func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription, bufferLimit: Int, meter: BufferMeter?
    ) -> AsyncThrowingStream<GraphQLResult<Subscription.Data>, any Error> {
        let networkTransport = networkTransport
        let maxBytes =
            (networkTransport as? any BufferedEventBytesLimited)?.maxBufferedEventBytes
            ?? ResponseLimits.default.maxBufferedEventBytes
        return BackPressuredStream.make(capacity: max(1, bufferLimit), maxBytes: maxBytes, meter: meter) { send in
            guard let transport = networkTransport as? any SubscriptionNetworkTransport else {
                throw BatonError.subscriptionsUnsupported(
                    operationName: Subscription.operationName, transport: String(describing: type(of: networkTransport)))
            }
            let observation = self.telemetry?.start(subscription, sensitiveData: self.sensitiveData)
            do {
                try await withContext(of: observation) {
                    for try await response in transport.subscribe(subscription: subscription) {
                        let result = try self.receive(response, for: subscription)
                        observation?.received(fromCache: false, graphQLErrors: result.errors)
                        guard await send(result, response.receivedBytes) else { return }
                    }
                }
                observation?.finish()
            } catch {
                observation?.finish(error: error)
                throw error
            }
        }
    }
}
