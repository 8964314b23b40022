import BatonAPI
import BatonInstrumentation
import BatonWebSocket
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

@testable import Baton

/// Spans and metrics for every operation, seen through an in-memory tracer and a test metrics
/// backend given to the client (nothing is bootstrapped process-wide).
@Suite("Telemetry: spans and metrics per operation", .serialized)
struct TelemetryTests {
    static func dimensions(_ name: String, _ type: String) -> [(String, String)] {
        [("graphql.operation.name", name), ("graphql.operation.type", type)]
    }

    static func client(
        _ peer: InteropPeer, _ telemetry: BatonTelemetry, recorder: RecordingHTTPClient, sensitiveData: SensitiveData = .default
    ) -> BatonClient {
        BatonClient(url: peer.url, httpClient: recorder, sensitiveData: sensitiveData, telemetry: telemetry)
    }

    @Test func aSpanPerOperationWithGraphQLAttributesAndItsContextOnTheWire() async throws {
        try await withInteropPeer { peer in
            let tracer = InMemoryTracer()
            let recorder = RecordingHTTPClient(.urlSession)
            let client = Self.client(peer, BatonTelemetry(tracer: tracer), recorder: recorder)
            let result = try await client.fetch(query: InteropHeroQuery(id: "1002"), cachePolicy: .networkOnly)
            #expect(result.data?.hero?.name == "Han Solo")
            _ = try await client.perform(mutation: InteropAddMessageMutation(text: "traced"))

            let spans = tracer.finishedSpans
            #expect(spans.map(\.operationName) == ["query InteropHero", "mutation InteropAddMessage"])
            let query = try #require(spans.first)
            #expect(query.kind == .client)
            #expect(query.attributes.get("graphql.operation.name") == .string("InteropHero"))
            #expect(query.attributes.get("graphql.operation.type") == .string("query"))
            // No variable values and no document unless asked for.
            #expect(query.attributes.get("graphql.operation.variable.id") == nil)
            #expect(query.attributes.get("graphql.document") == nil)
            #expect(query.errors.isEmpty)
            // The HTTP request carried the span's context, as the tracer's instrument writes it.
            let sent = try #require(recorder.requests.first)
            #expect(sent.headerFields[HTTPField.Name(InMemoryTracer.spanIDKey)!] == query.spanID)
            #expect(sent.headerFields[HTTPField.Name(InMemoryTracer.traceIDKey)!] == query.traceID)
            #expect(recorder.requests.last?.headerFields[HTTPField.Name(InMemoryTracer.spanIDKey)!] == spans.last?.spanID)
        }
    }

    @Test func variablesAreRecordedOnlyWhenConfiguredAndNeverWhenSensitive() async throws {
        try await withInteropPeer { peer in
            let tracer = InMemoryTracer()
            let telemetry = BatonTelemetry(tracer: tracer, recordedVariables: ["id", "text"], recordsDocument: true)
            let client = Self.client(peer, telemetry, recorder: RecordingHTTPClient(.urlSession), sensitiveData: SensitiveData(variableNames: ["text"]))
            _ = try await client.fetch(query: InteropHeroQuery(id: "1003"), cachePolicy: .networkOnly)
            _ = try await client.perform(mutation: InteropAddMessageMutation(text: "secret"))
            let spans = tracer.finishedSpans
            #expect(spans.first?.attributes.get("graphql.operation.variable.id") == .string(#""1003""#))
            #expect(spans.first?.attributes.get("graphql.document") == .string(InteropHeroQuery.operationDocument))
            #expect(spans.last?.attributes.get("graphql.operation.variable.text") == nil)
        }
    }

    @Test func errorsAreRecordedOnTheSpanAndCountedByKind() async throws {
        try await withInteropPeer { peer in
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            let telemetry = BatonTelemetry(tracer: tracer, metricsFactory: metrics)
            let client = Self.client(peer, telemetry, recorder: RecordingHTTPClient(.urlSession))
            let failing = try await client.fetch(query: InteropFailingQuery(), cachePolicy: .networkOnly)
            #expect(failing.errors?.isEmpty == false)
            // Nothing listens on port 9: a transport failure.
            let unreachable = BatonClient(url: URL(string: "http://127.0.0.1:9/graphql")!, telemetry: telemetry)
            await #expect(throws: BatonError.self) {
                _ = try await unreachable.fetch(query: InteropHelloQuery(name: "x"), cachePolicy: .networkOnly)
            }
            let spans = tracer.finishedSpans
            #expect(spans.count == 2)
            #expect(spans.first?.errors.map { ($0.error as? GraphQLError)?.message } == ["alwaysFails failed, as it always does"])
            #expect(spans.last?.status?.code == .error)
            #expect(spans.last?.errors.count == 1)
            let graphQLErrors = try metrics.expectCounter(
                "baton.operation.errors", Self.dimensions("InteropFailing", "query") + [("error.kind", "graphql")])
            #expect(graphQLErrors.totalValue == 1)
            let networkErrors = try metrics.expectCounter(
                "baton.operation.errors", Self.dimensions("InteropHello", "query") + [("error.kind", "network")])
            #expect(networkErrors.totalValue == 1)
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func metricsCountRequestsCacheHitsNetworkResponsesBytesAndTime(kind: HTTPClientKind) async throws {
        try await withInteropPeer { peer in
            let metrics = TestMetrics()
            let client = BatonClient(url: peer.url, httpClient: kind.make(), telemetry: BatonTelemetry(metricsFactory: metrics))
            let query = InteropHeroQuery(id: "2000")
            _ = try await client.fetch(query: query, cachePolicy: .networkOnly)
            let cached = try await client.fetch(query: query, cachePolicy: .returnCacheDataElseFetch)
            #expect(cached.source == .cache)
            let dimensions = Self.dimensions("InteropHero", "query")
            #expect(try metrics.expectCounter("baton.operation.requests", dimensions).totalValue == 2)
            #expect(try metrics.expectCounter("baton.operation.network_responses", dimensions).totalValue == 1)
            #expect(try metrics.expectCounter("baton.operation.cache_hits", dimensions).totalValue == 1)
            #expect(try metrics.expectCounter("baton.operation.bytes_received", dimensions).totalValue > 20)
            #expect(try metrics.expectTimer("baton.operation.duration", dimensions).values.count == 2)
            // Labels stay low-cardinality: the operation's name and type, and an error's kind.
            for counter in metrics.counters {
                #expect(Set(counter.dimensions.map(\.0)).isSubset(of: ["graphql.operation.name", "graphql.operation.type", "error.kind"]))
            }
        }
    }

    @Test(arguments: [HTTPSubscriptionProtocol.multipart, .serverSentEvents])
    func subscriptionsOverHTTPAreOneSpanWithStreamedBytesCounted(protocol: HTTPSubscriptionProtocol) async throws {
        try await withInteropPeer { peer in
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            let client = BatonClient(
                url: peer.url, subscriptionProtocol: `protocol`, telemetry: BatonTelemetry(tracer: tracer, metricsFactory: metrics))
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropCountSubscription(to: 3)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2, 3])
            #expect(tracer.finishedSpans.map(\.operationName) == ["subscription InteropCount"])
            let dimensions = Self.dimensions("InteropCount", "subscription")
            #expect(try metrics.expectCounter("baton.operation.network_responses", dimensions).totalValue == 3)
            #expect(try metrics.expectCounter("baton.operation.bytes_received", dimensions).totalValue > 60)
        }
    }

    @Test func theWebSocketUpgradeCarriesTheContextOfTheOperationThatOpensIt() async throws {
        try await withInteropPeer { peer in
            let tracer = InMemoryTracer()
            let telemetry = BatonTelemetry(tracer: tracer)
            let webSocket = WebSocketNetworkTransport(
                url: peer.webSocketURL, configuration: WebSocketTransportConfiguration(reconnect: .never, telemetry: telemetry))
            let client = BatonClient(networkTransport: webSocket, telemetry: telemetry)
            var values: [Int] = []
            for try await result in client.subscribe(subscription: InteropCountSubscription(to: 2)) {
                if let value = result.data?.count { values.append(value) }
            }
            #expect(values == [1, 2])
            let span = try #require(tracer.finishedSpans.first)
            #expect(span.operationName == "subscription InteropCount")
            let injected = tracer.performedContextInjections.map { $0.values[InMemoryTracer.spanIDKey] }
            #expect(injected == [span.spanID])
        }
    }
}
