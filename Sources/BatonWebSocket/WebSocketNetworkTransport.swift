import Baton
import BatonAPI
import Foundation
import Logging

/// GraphQL over one WebSocket: subscriptions, and queries and mutations too.
///
/// ```swift
/// let transport = WebSocketNetworkTransport(
///     url: URL(string: "ws://127.0.0.1:4000/graphql")!,
///     configuration: .init(protocol: .graphqlTransportWS,
///                          connectionPayload: WebSocketTransportConfiguration.payload(["authToken": "secret"])))
/// let client = BatonClient(networkTransport: transport)
/// for try await result in client.subscribe(subscription: CountSubscription(to: 3)) {
///     print(result.data?.count ?? 0)
/// }
/// ```
///
/// Every operation is multiplexed over one socket, which opens with the first operation and,
/// by default, closes when the last one ends (see ``WebSocketTransportConfiguration/idleClosing``).
/// When the socket drops it reconnects with backoff and sends the running subscriptions again.
/// Cancelling the task that consumes a subscription sends `complete` (graphql-transport-ws) or
/// `stop` (graphql-ws). Errors are ``WebSocketTransportError``s; a close code that reconnecting
/// cannot fix (4400, 4401, 4403, 4406, 4409, 4429, …) fails every operation with it.
///
/// It runs on swift-websocket's connection and frame handler (Foundation's WebSocket task is not
/// implemented on Linux) with Baton's own upgrade request: one `Origin`, the server's own by
/// default (see ``WebSocketTransportConfiguration/origin``). A server that refuses the upgrade
/// with a 4xx status fails every operation at once with
/// ``WebSocketTransportError/upgradeRefused(status:body:)``; a refused connection, 408, 429 and
/// 5xx are retried as the reconnect policy says.
public final class WebSocketNetworkTransport: SubscriptionNetworkTransport {
    /// The endpoint, with a `ws` or `wss` scheme.
    public let url: URL
    /// The protocol, headers, origin, payload, timeouts and reconnection this transport uses.
    public let configuration: WebSocketTransportConfiguration
    private let connection: WebSocketConnection
    private let nextID = Locked(1)

    /// A transport to `url`; `http` and `https` URLs are turned into `ws` and `wss` ones.
    public init(
        url: URL,
        configuration: WebSocketTransportConfiguration = .init(),
        logger: Logger = Logger(label: "Baton.WebSocket")
    ) {
        let webSocketURL = Self.webSocketURL(url)
        self.url = webSocketURL
        self.configuration = configuration
        self.connection = WebSocketConnection(url: webSocketURL.absoluteString, configuration: configuration, logger: logger)
    }

    /// Each event of the subscription as the server sent it; the stream ends when the server
    /// completes the subscription and throws a ``WebSocketTransportError`` when the socket
    /// fails for good. GraphQL errors (an `error` message) end it with one response holding them.
    public func subscribe<Subscription: GraphQLSubscription>(
        subscription: Subscription
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        responses(for: subscription, resumesAfterReconnect: true)
    }

    /// Runs a query or mutation over the socket and returns its (first) result.
    public func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse {
        var first: GraphQLResponse?
        let stream = responses(for: operation, resumesAfterReconnect: Operation.operationType != .mutation)
        for try await response in stream where first == nil {
            first = response
        }
        guard let first else {
            try Task.checkCancellation()
            throw WebSocketTransportError.noResult(operationName: Operation.operationName)
        }
        return first
    }

    /// Ends every operation with ``WebSocketTransportError/disconnected`` and closes the socket
    /// (a later operation opens it again).
    public func disconnect() async {
        await connection.disconnect()
    }

    private func responses<Operation: GraphQLOperation>(
        for operation: Operation, resumesAfterReconnect: Bool
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        var request = GraphQLRequest(operation: operation, url: url)
        let withDocument = request.bodyJSON
        guard configuration.autoPersistQueries else {
            return responses(Operation.self, payload: withDocument, resumesAfterReconnect: resumesAfterReconnect)
        }
        // Automatic persisted queries: the hash alone first; the document only when asked.
        request.sendsDocument = false
        request.extensions["persistedQuery"] = ["version": 1, "sha256Hash": .string(Operation.operationIdentifier)]
        let hashed = request.bodyJSON
        // Back-pressured, as every operation's stream: the next event is taken only when the
        // consumer took the one before.
        return BackPressuredStream.make(capacity: 1) { send in
            var isFirst = true
            for try await response in self.responses(Operation.self, payload: hashed, resumesAfterReconnect: resumesAfterReconnect) {
                if isFirst, PersistedQueryInterceptor.persistedQueryProblem(in: response.body) != nil {
                    var retry = withDocument
                    if PersistedQueryInterceptor.persistedQueryProblem(in: response.body) == .notFound {
                        retry["extensions"] = hashed["extensions"]
                    }
                    for try await retried in self.responses(Operation.self, payload: retry, resumesAfterReconnect: resumesAfterReconnect) {
                        guard await send(retried) else { return }
                    }
                    return
                }
                isFirst = false
                guard await send(response) else { return }
            }
        }
    }

    /// One operation over the socket with this `subscribe`/`start` payload.
    private func responses<Operation: GraphQLOperation>(
        _: Operation.Type, payload: JSONObject, resumesAfterReconnect: Bool
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let id = nextID.withLock { next in
            defer { next += 1 }
            return String(next)
        }
        let connection = self.connection
        let backlog = OperationBacklog()
        let events = AsyncThrowingStream<GraphQLResponse, any Error> { continuation in
            let stopped = Locked(false)
            continuation.onTermination = { _ in
                stopped.withLock { $0 = true }
                backlog.end()
                Task { await connection.stop(id: id) }
            }
            let active = ActiveOperation(
                operationName: Operation.operationName, payload: payload,
                resumesAfterReconnect: resumesAfterReconnect, continuation: continuation, backlog: backlog)
            Task {
                // The consumer may stop before the operation starts; the connection checks.
                await connection.start(id: id, operation: active) { stopped.withLock { $0 } }
            }
        }
        // What the consumer takes is counted off the operation's backlog.
        return BackPressuredStream.make(capacity: 1) { send in
            for try await event in events {
                backlog.taken(bytes: event.receivedBytes)
                guard await send(event) else { return }
            }
        }
    }

    private static func webSocketURL(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        switch components.scheme?.lowercased() {
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        default: break
        }
        return components.url ?? url
    }
}

extension WebSocketNetworkTransport: BufferedEventBytesLimited {
    package var maxBufferedEventBytes: Int { configuration.maxBufferedEventBytes }
}
