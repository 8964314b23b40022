import Baton
import CoreMetrics
import Foundation
import Tracing

/// One operation as telemetry sees it: its span (when tracing is on) and its metrics (when
/// metrics are on). Made when the operation starts; ``finish(error:graphQLErrors:)`` ends it.
struct TracingObservation: OperationObservation {
    let name: String
    let type: GraphQLOperationType
    let span: (any Span)?
    let factory: (any MetricsFactory)?
    let start: ContinuousClock.Instant

    /// Starts observing `operation`, or returns nil when tracing and metrics are both off.
    static func start(
        _ operation: any GraphQLOperation, telemetry: BatonTelemetry, sensitiveData: SensitiveData
    ) -> TracingObservation? {
        let tracer = telemetry.activeTracer
        let factory = telemetry.activeMetricsFactory
        guard tracer != nil || factory != nil else { return nil }
        let operationType = Swift.type(of: operation)
        let name = operationType.operationName
        let type = operationType.operationType
        var span: (any Span)?
        if let tracer {
            let started = tracer.startSpan("\(type.rawValue) \(name)", ofKind: .client)
            started.attributes["graphql.operation.name"] = name
            started.attributes["graphql.operation.type"] = type.rawValue
            if telemetry.recordsDocument { started.attributes["graphql.document"] = operationType.operationDocument }
            if !telemetry.recordedVariables.isEmpty {
                let variables = operation.variablesJSON
                for variable in telemetry.recordedVariables.sorted()
                where !sensitiveData.variableNames.contains(variable) {
                    if let value = variables[variable] {
                        started.attributes["graphql.operation.variable.\(variable)"] = value.serializedString()
                    }
                }
            }
            span = started
        }
        if let factory {
            factory.makeCounter(label: "baton.operation.requests", dimensions: dimensions(name: name, type: type)).increment(by: 1)
        }
        return TracingObservation(name: name, type: type, span: span, factory: factory, start: .now)
    }

    static func dimensions(name: String, type: GraphQLOperationType) -> [(String, String)] {
        [("graphql.operation.name", name), ("graphql.operation.type", type.rawValue)]
    }

    /// Runs `body` with the span's context current, so transports inject it into requests.
    func withContext<T>(_ body: () async throws -> T) async rethrows -> T {
        guard let span else { return try await body() }
        return try await ServiceContext.withValue(span.context) { try await body() }
    }

    /// A result arrived: from the store (`fromCache`) or the network.
    func received(fromCache: Bool, graphQLErrors: [GraphQLError]?) {
        if let factory {
            let label = fromCache ? "baton.operation.cache_hits" : "baton.operation.network_responses"
            factory.makeCounter(label: label, dimensions: Self.dimensions(name: name, type: type)).increment(by: 1)
            if let graphQLErrors, !graphQLErrors.isEmpty {
                countError(kind: "graphql")
            }
        }
        if let span, let graphQLErrors {
            for error in graphQLErrors { span.recordError(error) }
        }
    }

    /// Ends the observation: the duration, and the error that ended it, if any.
    func finish(error: (any Error)?) {
        if let error {
            countError(kind: Self.kind(of: error))
            if let span {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: "\(error)"))
            }
        }
        if let factory {
            let elapsed = ContinuousClock.now - start
            let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            factory.makeTimer(label: "baton.operation.duration", dimensions: Self.dimensions(name: name, type: type))
                .recordNanoseconds(nanoseconds)
        }
        span?.end()
    }

    private func countError(kind: String) {
        factory?.makeCounter(
            label: "baton.operation.errors", dimensions: Self.dimensions(name: name, type: type) + [("error.kind", kind)]
        ).increment(by: 1)
    }

    /// A low-cardinality name for what went wrong.
    static func kind(of error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        guard let error = error as? BatonError else { return "other" }
        switch error {
        case .network: return "network"
        case .timedOut: return "timeout"
        case .httpStatus, .persistedQueryNotFound: return "http_status"
        case .malformedResponse, .invalidResponse, .dataMismatch, .incompleteResponse: return "invalid_response"
        case .cacheMiss: return "cache_miss"
        case .responseTooLarge: return "response_too_large"
        case .consumerFellBehind: return "consumer_fell_behind"
        case .tooManyRedirects, .redirectRefused: return "redirect"
        case .subscriptionFailed: return "graphql"
        default: return "other"
        }
    }
}
