import Foundation
import HTTPTypes
import Logging

extension BatonClient {
    /// Everything a client over HTTP is given besides its URL and store, in one value:
    /// `BatonClient(url:store:configuration:)`. Each field has the default a client gets when
    /// it is left out; every field reaches the transport or the client (none is ignored).
    ///
    /// ```swift
    /// var configuration = BatonClient.Configuration()
    /// configuration.headerFields[.authorization] = "Bearer \(token)"
    /// configuration.useGETForQueries = true
    /// configuration.retryPolicy = RetryPolicy(maxAttempts: 3)
    /// let client = BatonClient(url: URL(string: "https://api.example.com/graphql")!, configuration: configuration)
    /// ```
    ///
    /// Persisted queries, retries and the preflight step are interceptors as well
    /// (``PersistedQueryInterceptor``, ``RetryInterceptor``, ``PreflightInterceptor``): put them in
    /// `interceptors` in the order you want instead of setting their fields here.
    public struct Configuration: Sendable {
        /// Header fields sent with every request.
        public var headerFields: HTTPFields
        /// The request chain's steps, first to last, before the persisted-query step.
        public var interceptors: [any GraphQLInterceptor]
        /// What sends the HTTP requests (`URLSessionHTTPClient` by default; the
        /// `BatonAsyncHTTPClient` product has one over AsyncHTTPClient).
        public var httpClient: any HTTPClient
        /// How long a request may take; `nil` for the HTTP client's own default.
        public var timeout: Duration?
        /// Send queries as `GET` (GraphQL over HTTP's encoding in the URL).
        public var useGETForQueries: Bool
        /// Apollo's automatic persisted queries: the hash first, the document when asked.
        public var autoPersistQueries: Bool
        /// Send the automatic persisted query's retry with the document as `GET`.
        public var useGETForPersistedQueryRetry: Bool
        /// Send only hashes: the server knows every operation in advance.
        public var persistedQueriesOnly: Bool
        /// Steps that run last, after the persisted-query step: they see each request as it
        /// goes on the wire.
        public var wireInterceptors: [any GraphQLInterceptor]
        /// When and how a failed request is sent again (`nil`: never).
        public var retryPolicy: RetryPolicy?
        /// What the transport's logs and the client's telemetry redact (`nil`: the store's).
        public var sensitiveData: SensitiveData?
        /// The bounds kept against the server (response size, deadlines, …).
        public var limits: ResponseLimits
        /// Where the transport and the client log.
        public var logger: Logger
        /// The protocol subscriptions stream by over HTTP (`nil`: the transport's choice).
        public var subscriptionProtocol: HTTPSubscriptionProtocol?
        /// Where each operation's span and metrics go (`nil`: nowhere).
        public var telemetry: (any OperationTelemetry)?
        /// The app's last word on each request, after `interceptors`: edit it or veto it.
        public var preflight: PreflightInterceptor.Decide?
        /// The bytes of responses the client keeps to recognize a refetch that repeats one.
        public var keptResponseBytes: Int

        /// A configuration; each argument left out is the client's default.
        public init(
            headerFields: HTTPFields = [:],
            interceptors: [any GraphQLInterceptor] = [],
            httpClient: any HTTPClient = URLSessionHTTPClient(),
            timeout: Duration? = nil,
            useGETForQueries: Bool = false,
            autoPersistQueries: Bool = false,
            useGETForPersistedQueryRetry: Bool = false,
            persistedQueriesOnly: Bool = false,
            wireInterceptors: [any GraphQLInterceptor] = [],
            retryPolicy: RetryPolicy? = nil,
            sensitiveData: SensitiveData? = nil,
            limits: ResponseLimits = .default,
            logger: Logger = Logger(label: "Baton.HTTP"),
            subscriptionProtocol: HTTPSubscriptionProtocol? = nil,
            telemetry: (any OperationTelemetry)? = nil,
            preflight: PreflightInterceptor.Decide? = nil,
            keptResponseBytes: Int = 1_000_000
        ) {
            self.headerFields = headerFields
            self.interceptors = interceptors
            self.httpClient = httpClient
            self.timeout = timeout
            self.useGETForQueries = useGETForQueries
            self.autoPersistQueries = autoPersistQueries
            self.useGETForPersistedQueryRetry = useGETForPersistedQueryRetry
            self.persistedQueriesOnly = persistedQueriesOnly
            self.wireInterceptors = wireInterceptors
            self.retryPolicy = retryPolicy
            self.sensitiveData = sensitiveData
            self.limits = limits
            self.logger = logger
            self.subscriptionProtocol = subscriptionProtocol
            self.telemetry = telemetry
            self.preflight = preflight
            self.keptResponseBytes = keptResponseBytes
        }
    }

    /// A client over HTTP to `url`, configured by `configuration`, with `store` (in memory by
    /// default, made with the configuration's `sensitiveData`).
    ///
    /// `sensitiveData` is never ignored: the transport's logs and the client's telemetry redact
    /// it, and the store made when `store` is `nil` is made with it. A `store` passed in was made
    /// with its own `Store.sensitiveData`, which it keeps for what the store itself logs; leave
    /// `sensitiveData` out (`nil`) to use the store's everywhere.
    public convenience init(url: URL, store: Store? = nil, configuration: Configuration) {
        var chain = configuration.interceptors
        if let preflight = configuration.preflight { chain.append(PreflightInterceptor(preflight)) }
        let store = store ?? Store(sensitiveData: configuration.sensitiveData ?? .default)
        let sensitiveData = configuration.sensitiveData ?? store.sensitiveData
        self.init(
            networkTransport: RequestChainNetworkTransport(
                url: url, headerFields: configuration.headerFields, interceptors: chain,
                httpClient: configuration.httpClient, timeout: configuration.timeout,
                useGETForQueries: configuration.useGETForQueries, autoPersistQueries: configuration.autoPersistQueries,
                useGETForPersistedQueryRetry: configuration.useGETForPersistedQueryRetry,
                persistedQueriesOnly: configuration.persistedQueriesOnly,
                subscriptionProtocol: configuration.subscriptionProtocol,
                wireInterceptors: configuration.wireInterceptors, retryPolicy: configuration.retryPolicy,
                sensitiveData: sensitiveData, limits: configuration.limits, logger: configuration.logger,
                telemetry: configuration.telemetry),
            store: store, logger: configuration.logger, telemetry: configuration.telemetry, sensitiveData: sensitiveData,
            keptResponseBytes: configuration.keptResponseBytes)
    }

    /// A client over `transport` and `store`: the short form of
    /// ``init(networkTransport:store:logger:telemetry:sensitiveData:keptResponseBytes:)``.
    public convenience init(transport: any NetworkTransport, store: Store = Store()) {
        self.init(networkTransport: transport, store: store)
    }
}
