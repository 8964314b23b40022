import Baton
import CoreMetrics
import Tracing

/// Where Baton reports a span and metrics for every operation, and what a span may carry: give
/// it to the client (`BatonClient(url: url, telemetry: BatonTelemetry())`), which gives it to its
/// transport. Baton's core has no telemetry of its own: this product brings swift-distributed-tracing
/// and swift-metrics, which an app without telemetry never resolves.
///
/// By default both go to what the app bootstrapped (`InstrumentationSystem.bootstrap`,
/// `MetricsSystem.bootstrap`), which are no-ops until it does; Baton then skips the work.
///
/// Spans follow OpenTelemetry's GraphQL semantic conventions: a client span named
/// `"<type> <name>"` (`query HeroName`) with `graphql.operation.name` and `graphql.operation.type`;
/// a thrown error is recorded and sets the status to error; GraphQL errors in a result are
/// recorded as errors too. Variable values are recorded only for the names in
/// ``recordedVariables`` (as `graphql.operation.variable.<name>`), never for a sensitive one
/// (`SensitiveData`), and the document only with ``recordsDocument``. The tracer's instrument
/// injects the span's context (W3C `traceparent` with an OpenTelemetry tracer) into every HTTP
/// request and WebSocket upgrade made for the operation.
///
/// Metrics, each with the dimensions `graphql.operation.name` and `graphql.operation.type`:
/// `baton.operation.requests` (counter), `baton.operation.duration` (timer),
/// `baton.operation.errors` (counter, plus `error.kind`: `network`, `timeout`, `http_status`,
/// `invalid_response`, `cache_miss`, `graphql`, `cancelled`, `other`),
/// `baton.operation.cache_hits` and `baton.operation.network_responses` (counters),
/// `baton.operation.bytes_received` (counter, response bytes over HTTP).
public struct BatonTelemetry: OperationTelemetry {
    /// The tracer; `nil`: `InstrumentationSystem.tracer`.
    public var tracer: (any Tracer)?
    /// The metrics factory; `nil`: `MetricsSystem.factory`.
    public var metricsFactory: (any MetricsFactory)?
    /// Variables whose values spans record (sensitive ones never).
    public var recordedVariables: Set<String>
    /// Whether spans record the operation's document (`graphql.document`).
    public var recordsDocument: Bool

    /// - Parameters:
    ///   - tracer: the tracer (`nil`: the bootstrapped one).
    ///   - metricsFactory: the metrics factory (`nil`: the bootstrapped one).
    ///   - recordedVariables: variables whose values spans record.
    ///   - recordsDocument: record the document as `graphql.document`.
    public init(
        tracer: (any Tracer)? = nil, metricsFactory: (any MetricsFactory)? = nil,
        recordedVariables: Set<String> = [], recordsDocument: Bool = false
    ) {
        self.tracer = tracer
        self.metricsFactory = metricsFactory
        self.recordedVariables = recordedVariables
        self.recordsDocument = recordsDocument
    }

    /// The bootstrapped tracer and metrics, no variables, no document.
    public static let `default` = BatonTelemetry()

    /// The tracer in force, or nil when tracing is off (the no-op tracer).
    var activeTracer: (any Tracer)? {
        if let tracer { return tracer }
        let bootstrapped = InstrumentationSystem.tracer
        return bootstrapped is NoOpTracer ? nil : bootstrapped
    }

    /// The metrics factory in force, or nil when metrics are off (the no-op factory).
    var activeMetricsFactory: (any MetricsFactory)? {
        if let metricsFactory { return metricsFactory }
        let bootstrapped = MetricsSystem.factory
        return bootstrapped is NOOPMetricsHandler ? nil : bootstrapped
    }

    /// Injects the current context into `fields` through the tracer's instrument (nothing
    /// when tracing is off or no span is current).
    public func inject(into fields: inout HTTPFields) {
        guard let tracer = activeTracer, let context = ServiceContext.current else { return }
        tracer.inject(context, into: &fields, using: HTTPFieldsInjector())
    }

    /// Starts a span and the metrics for `operation`, or returns `nil` when tracing and metrics
    /// are both off.
    public func start(_ operation: any GraphQLOperation, sensitiveData: SensitiveData) -> (any OperationObservation)? {
        TracingObservation.start(operation, telemetry: self, sensitiveData: sensitiveData)
    }

    /// Whether metrics are on.
    public var countsBytesReceived: Bool { activeMetricsFactory != nil }

    /// Counts `bytes` received for an operation.
    public func recordBytesReceived(_ bytes: Int, operationName: String, operationType: GraphQLOperationType) {
        guard bytes > 0, let factory = activeMetricsFactory else { return }
        factory.makeCounter(
            label: "baton.operation.bytes_received",
            dimensions: TracingObservation.dimensions(name: operationName, type: operationType)
        ).increment(by: Int64(bytes))
    }
}

/// Writes a context's fields into HTTP header fields (replacing any of the same name).
public struct HTTPFieldsInjector: Injector {
    /// The injector.
    public init() {}

    /// Sets the header field `key` (when it is a valid field name) to `value`.
    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
