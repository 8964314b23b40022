import BatonAPI
import HTTPTypes

/// Where each operation's span and metrics go. Baton's core reports through this protocol only;
/// `BatonTelemetry` (the `BatonInstrumentation` product, over swift-distributed-tracing and
/// swift-metrics) is the implementation, so an app without telemetry resolves neither package.
/// Give the same value to the client and its transport (`BatonClient(url:telemetry:)` does).
public protocol OperationTelemetry: Sendable {
    /// Starts observing `operation` (whose variables named in `sensitiveData` must not be
    /// recorded), or returns `nil` when there is nothing to report to.
    func start(_ operation: any GraphQLOperation, sensitiveData: SensitiveData) -> (any OperationObservation)?
    /// Writes the current operation's trace context into a request's header fields.
    func inject(into fields: inout HTTPFields)
    /// Whether ``recordBytesReceived(_:operationName:operationType:)`` counts anything: when
    /// `false` the transport does not count a streamed body's bytes.
    var countsBytesReceived: Bool { get }
    /// Counts `bytes` of a response received for an operation.
    func recordBytesReceived(_ bytes: Int, operationName: String, operationType: GraphQLOperationType)
}

/// One operation as telemetry sees it, from ``OperationTelemetry/start(_:sensitiveData:)`` to
/// ``finish(error:)``.
public protocol OperationObservation: Sendable {
    /// Runs `body` with the operation's context current, so that requests made in it carry it.
    func withContext<T>(_ body: () async throws -> T) async rethrows -> T
    /// A result arrived: from the store (`fromCache`) or the network, with its GraphQL errors.
    func received(fromCache: Bool, graphQLErrors: [GraphQLError]?)
    /// The operation ended, with the error that ended it, if any.
    func finish(error: (any Error)?)
}

extension OperationObservation {
    /// The operation ended without an error.
    func finish() { finish(error: nil) }
}

/// Runs `body` with `observation`'s context current, when there is one.
func withContext<T>(of observation: (any OperationObservation)?, _ body: () async throws -> T) async rethrows -> T {
    guard let observation else { return try await body() }
    return try await observation.withContext(body)
}
