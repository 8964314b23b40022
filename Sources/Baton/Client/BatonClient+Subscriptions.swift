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
    /// Every event is kept for the consumer, up to `bufferLimit` events waiting to be consumed;
    /// a consumer that falls further behind loses no event silently: the sequence ends with
    /// ``BatonError/subscriptionBufferOverflow(operationName:limit:)`` and the subscription stops.
    public func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription, bufferLimit: Int = 1_000
    ) -> AsyncThrowingStream<GraphQLResult<Subscription.Data>, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingOldest(max(1, bufferLimit))) { continuation in
            guard let transport = networkTransport as? any SubscriptionNetworkTransport else {
                continuation.finish(
                    throwing: BatonError.subscriptionsUnsupported(
                        operationName: Subscription.operationName, transport: String(describing: type(of: networkTransport))))
                return
            }
            let task = Task {
                let observation = OperationObservation.start(
                    subscription, telemetry: self.telemetry, sensitiveData: self.sensitiveData)
                do {
                    try await OperationObservation.withContext(of: observation) {
                        for try await response in transport.subscribe(subscription: subscription) {
                            let result = try response.result(for: subscription, source: .server)
                            self.publish(response, for: subscription, fetched: false)
                            observation?.received(fromCache: false, graphQLErrors: result.errors)
                            if case .dropped = continuation.yield(self.readBackIfNeeded(result, for: subscription, response: response)) {
                                throw BatonError.subscriptionBufferOverflow(operationName: Subscription.operationName, limit: bufferLimit)
                            }
                        }
                    }
                    observation?.finish()
                    continuation.finish()
                } catch {
                    observation?.finish(error: error)
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
