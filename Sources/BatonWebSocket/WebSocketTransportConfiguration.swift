import Baton
import BatonAPI
import Foundation
import HTTPTypes

/// How a ``WebSocketNetworkTransport`` connects, authenticates, keeps and restores its socket.
public struct WebSocketTransportConfiguration: Sendable {
    /// Makes the `connection_init` payload, once per connection (so a refreshed token is used
    /// on reconnect); `nil` sends no payload.
    public typealias ConnectionPayload = @Sendable () async throws -> JSONObject?

    /// The protocol to speak; it is also the `Sec-WebSocket-Protocol` asked for.
    public var `protocol`: GraphQLWebSocketProtocol
    /// Extra headers of the upgrade request (`Authorization`, cookies). An `Origin` here
    /// replaces the one ``origin`` says (the request never has two).
    public var headerFields: HTTPFields
    /// The upgrade request's `Origin` header, unless ``headerFields`` sets one.
    public var origin: Origin
    /// The `connection_init` payload.
    public var connectionPayload: ConnectionPayload
    /// How long to wait for `connection_ack` before closing with 4504 and retrying.
    public var acknowledgementTimeout: Duration
    /// How long the TCP connection (and TLS) plus the HTTP upgrade may take: a server that
    /// accepts the connection and never answers the upgrade request is dropped after this long
    /// with ``WebSocketTransportError/upgradeTimeout(_:)``, retried as the reconnect policy says.
    public var upgradeTimeout: Duration
    /// graphql-transport-ws only: send a `ping` this often once connected, and drop the
    /// connection (4499, then reconnect) when the previous one got no `pong`. `nil`: never ping.
    public var pingInterval: Duration?
    /// What happens to the socket when no operation uses it.
    public var idleClosing: IdleClosing
    /// Reconnecting after the socket drops; active subscriptions and queries are sent again,
    /// mutations in flight fail with ``WebSocketTransportError/connectionLost(operationName:underlying:)``.
    public var reconnect: ReconnectPolicy
    /// The largest WebSocket frame sent or accepted; longer messages are sent as several frames.
    /// A larger frame from the server is a protocol violation: the socket closes with 1009 and
    /// every operation fails with ``WebSocketTransportError/protocolViolation(reason:)``, without
    /// reconnecting (the server would send it again), and the frame is never buffered.
    public var maxFrameSize: Int
    /// The largest message (all of its frames) accepted; a larger one is a protocol violation, as
    /// for ``maxFrameSize``.
    public var maxMessageSize: Int
    /// How long to wait for the server to answer a close frame before dropping the connection.
    public var closeTimeout: Duration
    /// Apollo's automatic persisted queries over the socket (which Apollo's clients do not do):
    /// each operation is sent with `extensions.persistedQuery` and no document first, and again
    /// with the document when the server answers `PersistedQueryNotFound`.
    public var autoPersistQueries: Bool
    /// The most events of one operation that wait for its consumer. While that many wait, the
    /// socket is not read (every operation on it waits, and TCP holds the server back) until the
    /// consumer has taken half of them, for at most ``slowConsumerTimeout``. Default: 1,000.
    public var maxBufferedEvents: Int
    /// The most bytes of one operation's events (the messages they came in) that wait for its
    /// consumer: once they reach it, the socket is not read until the consumer has taken them
    /// down to half, for at most ``slowConsumerTimeout``, as for ``maxBufferedEvents``. So a slow
    /// consumer of large events holds about this much in the transport (and as much again in
    /// `BatonClient.subscribe`'s buffer, which keeps to the same bound), not
    /// ``maxBufferedEvents`` × ``maxMessageSize``. Default: 32 MiB.
    public var maxBufferedEventBytes: Int
    /// How long the socket waits for a consumer that has ``maxBufferedEvents`` (or
    /// ``maxBufferedEventBytes``) waiting to take half of them before
    /// that operation ends with ``WebSocketTransportError/consumerFellBehind(operationName:bufferedEvents:waited:)``.
    /// Keep it below ``pingInterval``: the server's pong is not read meanwhile. Default: 30 seconds
    /// (long enough that a consumer that keeps up on a loaded machine is never cut off).
    public var slowConsumerTimeout: Duration
    /// Whose instrument injects the trace context of the operation that opens the connection
    /// into the upgrade request (W3C `traceparent` with an OpenTelemetry tracer).
    public var telemetry: (any OperationTelemetry)?

    /// A configuration; every setting has a default (graphql-transport-ws, the server's own origin,
    /// exponential backoff, closing when idle).
    public init(
        protocol: GraphQLWebSocketProtocol = .graphqlTransportWS,
        headerFields: HTTPFields = [:],
        origin: Origin = .server,
        connectionPayload: @escaping ConnectionPayload = { nil },
        acknowledgementTimeout: Duration = .seconds(10),
        upgradeTimeout: Duration = .seconds(10),
        pingInterval: Duration? = nil,
        idleClosing: IdleClosing = .immediately,
        reconnect: ReconnectPolicy = .exponentialBackoff(),
        maxFrameSize: Int = 1 << 20,
        maxMessageSize: Int = 16 << 20,
        autoPersistQueries: Bool = false,
        closeTimeout: Duration = .seconds(5),
        telemetry: (any OperationTelemetry)? = nil,
        maxBufferedEvents: Int = 1_000,
        slowConsumerTimeout: Duration = .seconds(30),
        maxBufferedEventBytes: Int = 32 << 20
    ) {
        self.protocol = `protocol`
        self.headerFields = headerFields
        self.origin = origin
        self.connectionPayload = connectionPayload
        self.acknowledgementTimeout = acknowledgementTimeout
        self.upgradeTimeout = upgradeTimeout
        self.pingInterval = pingInterval
        self.idleClosing = idleClosing
        self.reconnect = reconnect
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.autoPersistQueries = autoPersistQueries
        self.closeTimeout = closeTimeout
        self.telemetry = telemetry
        self.maxBufferedEvents = max(1, maxBufferedEvents)
        self.maxBufferedEventBytes = max(1, maxBufferedEventBytes)
        self.slowConsumerTimeout = slowConsumerTimeout
    }

    /// A fixed `connection_init` payload, such as `["authToken": "…"]`.
    public static func payload(_ payload: JSONObject) -> ConnectionPayload {
        { payload }
    }

    /// The `Origin` header of the upgrade request. Servers that guard against cross-site
    /// WebSocket hijacking (strawberry, gorilla/websocket, Tornado, …) accept a handshake with no
    /// `Origin` (a client that is not a browser) or with their own origin, and refuse any other
    /// origin they were not told to allow (403).
    public enum Origin: Sendable, Equatable {
        /// The server's own origin, host and port as in the `Host` header: `http://127.0.0.1:4000`
        /// for `ws://127.0.0.1:4000/graphql`, `https://api.example.com` for `wss://api.example.com/`.
        case server
        /// No `Origin` header.
        case omitted
        /// This value, such as the origin of the web app the client acts for.
        case value(String)
    }

    /// What happens to the socket when its last operation ends. The socket always opens lazily,
    /// with the first operation.
    public enum IdleClosing: Sendable, Equatable {
        /// Close it at once.
        case immediately
        /// Close it when no operation started for this long.
        case after(Duration)
        /// Keep it open (and reconnect it) until ``WebSocketNetworkTransport/disconnect()``.
        case never
    }
}

/// When and how often to reconnect after the socket drops: exponential backoff with jitter.
public struct ReconnectPolicy: Sendable, Equatable {
    /// Reconnect attempts after a drop before giving up; 0 never reconnects. Failures are
    /// counted until a connection proves healthy by staying up for ``healthyAfter``: a server
    /// that acknowledges each connection (and even sends an event or two) and then drops it is
    /// given up on after `maxAttempts` reconnects like one that refuses them, so at most
    /// `maxAttempts + 1` connections are opened in a row to a server that keeps dropping them.
    /// (graphql-ws's client restarts its count at every `connection_ack`, so such a server keeps
    /// it reconnecting forever.)
    public var maxAttempts: Int
    /// How long an acknowledged connection must stay up to count as healthy and restart the
    /// count of failed attempts (and the backoff delays). Only time counts, not messages: a
    /// connection that delivers events and drops sooner is a failed attempt. Lower it for a
    /// server or proxy that routinely closes connections after a shorter while. Default: 30 seconds.
    public var healthyAfter: Duration
    /// The delay before the first attempt.
    public var initialDelay: Duration
    /// The longest delay between attempts.
    public var maxDelay: Duration
    /// How much the delay grows with each attempt.
    public var multiplier: Double
    /// A random share (0…1) of each delay added or removed, so clients do not come back all at once.
    public var jitter: Double

    /// A policy with its delays spelled out; `multiplier` 2 doubles each delay.
    public init(
        maxAttempts: Int, initialDelay: Duration, maxDelay: Duration, multiplier: Double = 2, jitter: Double = 0.2,
        healthyAfter: Duration = .seconds(30)
    ) {
        self.maxAttempts = maxAttempts
        self.healthyAfter = healthyAfter
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// Up to `maxAttempts` attempts, from `initialDelay`, doubling up to `maxDelay`.
    public static func exponentialBackoff(
        maxAttempts: Int = 5, initialDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)
    ) -> Self {
        Self(maxAttempts: maxAttempts, initialDelay: initialDelay, maxDelay: maxDelay)
    }

    /// Never reconnect: a drop fails every operation.
    public static let never = Self(maxAttempts: 0, initialDelay: .zero, maxDelay: .zero)

    /// The delay before attempt `attempt` (1 for the first).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        let growth = pow(multiplier, Double(max(0, attempt - 1)))
        let base = min(Self.seconds(initialDelay) * growth, Self.seconds(maxDelay))
        let spread = base * min(max(jitter, 0), 1)
        let seconds = max(0, base + Double.random(in: -spread...spread))
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
