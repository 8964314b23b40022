import Baton
import BatonAPI

/// Sends subscriptions over a WebSocket and everything else over HTTP, as Apollo's split
/// transport does; or, with `sendsEverythingOverWebSocket`, every operation over the WebSocket.
///
/// ```swift
/// let transport = SplitNetworkTransport(
///     uploadingNetworkTransport: RequestChainNetworkTransport(url: httpURL),
///     webSocketNetworkTransport: WebSocketNetworkTransport(url: webSocketURL))
/// let client = BatonClient(networkTransport: transport)
/// ```
///
/// The subscription side may be any `SubscriptionNetworkTransport`: a WebSocket, or HTTP with
/// Apollo's multipart protocol or Server-Sent Events (`init(http:subscriptions:)` with a
/// `RequestChainNetworkTransport(url:subscriptionProtocol:)`).
public final class SplitNetworkTransport: SubscriptionNetworkTransport, UploadingNetworkTransport {
    /// Queries, mutations (and uploads) when they do not go over the WebSocket.
    public let uploadingNetworkTransport: any NetworkTransport
    /// Subscriptions, and every operation when `sendsEverythingOverWebSocket`.
    public let webSocketNetworkTransport: any SubscriptionNetworkTransport
    /// Whether queries and mutations go over the WebSocket too.
    public let sendsEverythingOverWebSocket: Bool

    /// Subscriptions over `webSocketNetworkTransport`, the rest over `uploadingNetworkTransport`
    /// (or everything over the WebSocket).
    public init(
        uploadingNetworkTransport: any NetworkTransport,
        webSocketNetworkTransport: any SubscriptionNetworkTransport,
        sendsEverythingOverWebSocket: Bool = false
    ) {
        self.uploadingNetworkTransport = uploadingNetworkTransport
        self.webSocketNetworkTransport = webSocketNetworkTransport
        self.sendsEverythingOverWebSocket = sendsEverythingOverWebSocket
    }

    /// The same, with the HTTP transport under the name Baton uses elsewhere.
    public convenience init(
        http: any NetworkTransport, webSocket: any SubscriptionNetworkTransport, sendsEverythingOverWebSocket: Bool = false
    ) {
        self.init(
            uploadingNetworkTransport: http, webSocketNetworkTransport: webSocket,
            sendsEverythingOverWebSocket: sendsEverythingOverWebSocket)
    }

    /// Queries and mutations over `http`, subscriptions over `subscriptions` (a WebSocket, or HTTP
    /// with an `HTTPSubscriptionProtocol`, perhaps to another endpoint).
    public convenience init(http: any NetworkTransport, subscriptions: any SubscriptionNetworkTransport) {
        self.init(uploadingNetworkTransport: http, webSocketNetworkTransport: subscriptions)
    }

    /// Sends a query or mutation over HTTP, or a subscription (or anything, when
    /// `sendsEverythingOverWebSocket`) over the WebSocket, and returns its one response.
    public func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse {
        if sendsEverythingOverWebSocket || Operation.operationType == .subscription {
            return try await webSocketNetworkTransport.send(operation: operation)
        }
        return try await uploadingNetworkTransport.send(operation: operation)
    }

    /// Each response as it arrives: incremental (`@defer`/`@stream`) responses come over HTTP.
    public func responses<Operation: GraphQLOperation>(for operation: Operation) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        if sendsEverythingOverWebSocket || Operation.operationType == .subscription {
            return webSocketNetworkTransport.responses(for: operation)
        }
        return uploadingNetworkTransport.responses(for: operation)
    }

    /// Uploads go over HTTP (the multipart request spec has no WebSocket form).
    public func upload<Operation: GraphQLOperation>(operation: Operation, files: [GraphQLFile]) async throws -> GraphQLResponse {
        guard let uploading = uploadingNetworkTransport as? any UploadingNetworkTransport else {
            throw BatonError.uploadsNotSupported(operationName: Operation.operationName)
        }
        return try await uploading.upload(operation: operation, files: files)
    }

    /// A subscription's events, over the WebSocket.
    public func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        webSocketNetworkTransport.subscribe(subscription: subscription)
    }
}

extension SplitNetworkTransport: BufferedEventBytesLimited {
    /// Subscriptions go over the WebSocket side: its bound applies.
    package var maxBufferedEventBytes: Int {
        (webSocketNetworkTransport as? any BufferedEventBytesLimited)?.maxBufferedEventBytes
            ?? ResponseLimits.default.maxBufferedEventBytes
    }
}
