import BatonAPI
import BatonAsyncHTTPClient
import BatonExampleAPI
import BatonTestSupport
import BatonWebSocket
import Foundation
import Testing

@testable import Baton

/// Large subscription events for a consumer that pauses (issue 30): what waits for the consumer
/// is bounded in bytes (`maxBufferedEventBytes`), not only in events, and reading the socket
/// stops meanwhile; once the consumer goes on it gets every event, in order.
@Suite("Hostile streams: bytes of waiting events")
struct HostileBufferedEventBytesTests {
    static let events = 48
    static let padding = String(repeating: "x", count: 1 << 20)
    static let budget = 4 << 20

    /// An SSE or multipart stream of `events` events of about 1 MiB each; records how many the
    /// server got written.
    static func server(_ protocol: HTTPSubscriptionProtocol) throws -> FaultServer {
        try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            if `protocol` == .multipart {
                guard connection.write(
                    HostileStreamTests.multipartSubscriptionHead)
                else { return }
            } else {
                guard connection.write(HostileStreamTests.eventStreamHead) else { return }
            }
            for index in 1...events {
                let result = #"{"data":{"count":\#(index)},"extensions":{"padding":"\#(padding)"}}"#
                let event =
                    `protocol` == .multipart
                    ? "\r\n--graphql\r\ncontent-type: application/json\r\n\r\n{\"payload\":\(result)}"
                    : "event: next\ndata: \(result)\n\n"
                guard connection.write(event) else { return }
                connection.record("sent \(index)")
            }
            connection.write(`protocol` == .multipart ? "\r\n--graphql--\r\n" : "event: complete\ndata:\n\n")
        }
    }

    /// The paused consumer's wait: until its buffer has held `events` events (Baton's reading
    /// tasks got their turns: on a loaded machine that took more than 3 s once), then 2 s more
    /// for reading to go on if it were going to, at most 60 s in all.
    static func pause(until meter: BufferMeter, holds events: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while meter.peakElements < events, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .seconds(2))
    }

    // AsyncHTTPClient: its body is read only as fast as Baton takes it, so the bound reaches the
    // socket. (URLSession on Linux cannot pause a transfer: there `maxUnreadBytes` ends the
    // subscription instead, see `ResponseLimits`.)
    @Test(arguments: [HTTPSubscriptionProtocol.serverSentEvents, .multipart])
    func aPausedConsumerOfLargeEventsHoldsAtMostTheByteBudget(protocol: HTTPSubscriptionProtocol) async throws {
        let server = try Self.server(`protocol`)
        defer { server.stop() }
        let limits = ResponseLimits(maxPartBytes: 2 << 20, operationTimeout: .seconds(120), maxBufferedEventBytes: Self.budget)
        let client = BatonClient(
            url: server.url, httpClient: AsyncHTTPClientAdapter(timeout: .seconds(120)), limits: limits, subscriptionProtocol: `protocol`)
        let meter = BufferMeter()
        var counts: [Int] = []
        for try await result in client.subscribe(subscription: CountSubscription(to: Self.events), bufferLimit: 1_000, meter: meter) {
            counts.append(result.data?.count ?? -1)
            if counts.count == 1 {
                // The consumer pauses: Baton buffers up to the budget, then stops reading.
                try await Self.pause(until: meter, holds: 2)
                let sent = server.events.filter { $0.hasPrefix("sent") }.count
                // The budget (4 MiB), a few events on their way through Baton's tasks and the
                // HTTP client, and the kernel's socket buffers: far from every event.
                #expect(sent < Self.events - 8, "the server wrote \(sent) events of 1 MiB to a paused consumer")
                #expect(meter.peakBytes <= Self.budget)
                #expect(meter.peakElements >= 2, "the consumer's buffer held \(meter.peakElements) events")
            }
        }
        #expect(counts == Array(1...Self.events))
        // The budget held throughout: at most 3 events of just over 1 MiB, never the 1,000 the
        // event count allows.
        #expect(meter.peakBytes <= Self.budget)
        #expect(meter.peakElements <= 4)
    }

    @Test func aPausedConsumerOfLargeWebSocketEventsHoldsAtMostTheByteBudget() async throws {
        let events = 48
        let padding = String(repeating: "x", count: 512 << 10)
        let budget = 2 << 20
        let server = try FaultServer { connection in
            guard let request = connection.readRequest() else { return }
            connection.acceptWebSocket(request)
            guard connection.readJSONMessage()?["type"] as? String == "connection_init" else { return }
            connection.sendText(#"{"type":"connection_ack"}"#)
            guard let subscribe = connection.readJSONMessage(), subscribe["type"] as? String == "subscribe",
                let id = subscribe["id"] as? String
            else { return }
            for index in 1...events {
                connection.sendText(
                    #"{"type":"next","id":"\#(id)","payload":{"data":{"count":\#(index)},"extensions":{"padding":"\#(padding)"}}}"#)
                connection.record("sent \(index)")
            }
            connection.sendText(#"{"type":"complete","id":"\#(id)"}"#)
            _ = connection.waitForClientClose(seconds: 30)
        }
        defer { server.stop() }
        let transport = WebSocketNetworkTransport(
            url: server.webSocketURL,
            configuration: WebSocketTransportConfiguration(
                acknowledgementTimeout: .seconds(10), reconnect: .never, maxBufferedEventBytes: budget))
        let meter = BufferMeter()
        var counts: [Int] = []
        let subscription = CountSubscription(to: events)
        for try await result in BatonClient(networkTransport: transport).subscribe(
            subscription: subscription, bufferLimit: 1_000, meter: meter)
        {
            counts.append(result.data?.count ?? -1)
            if counts.count == 1 {
                try await Self.pause(until: meter, holds: 2)
                let sent = server.events.filter { $0.hasPrefix("sent") }.count
                // The budget twice (the transport's backlog, the client's buffer), a few events
                // on their way and the socket buffers: far from all of them.
                #expect(sent < events - 12, "the server wrote \(sent) events of 512 KiB to a paused consumer")
                #expect(meter.peakBytes <= budget)
                #expect(meter.peakElements >= 2, "the consumer's buffer held \(meter.peakElements) events")
            }
        }
        #expect(counts == Array(1...events))
        #expect(meter.peakBytes <= budget)
        #expect(meter.peakElements <= 4)
    }

    /// The byte bound against a naive model, a FIFO queue: random sizes (some larger than the
    /// bound), a producer and a consumer that each pause at random. Every element arrives, in
    /// order; never more than `capacity` wait, nor more than `maxBytes` unless one waits alone.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aBoundedHandoffKeepsOrderAndItsBoundsOverRandomSteps(seed: UInt64) async throws {
        let steps = 3_000
        let capacity = 1 + Int(seed % 3) * 7
        let maxBytes = 1_000
        var random = SeededGenerator(seed: seed)
        let plan: [(size: Int, pauses: Int)] = (0..<steps).map { _ in
            let size = random.next(upperBound: 10) == 0 ? maxBytes + random.next(upperBound: maxBytes) : random.next(upperBound: maxBytes / 3)
            return (size, random.next(upperBound: 4))
        }
        let takerPauses = (0..<steps).map { _ in random.next(upperBound: 4) }
        let meter = BufferMeter()
        let stream = BackPressuredStream.make(of: Int.self, capacity: capacity, maxBytes: maxBytes, meter: meter) { send in
            for (index, step) in plan.enumerated() {
                for _ in 0..<step.pauses { await Task.yield() }
                guard await send(index, step.size) else { return }
            }
        }
        var model = Array(0..<steps)[...]
        var taken = 0
        for try await element in stream {
            #expect(element == model.popFirst())
            for _ in 0..<takerPauses[taken] { await Task.yield() }
            taken += 1
        }
        #expect(taken == steps && model.isEmpty)
        #expect(meter.peakElements <= capacity)
        #expect(meter.peakBytesOfSeveral <= maxBytes)
        // Not vacuous: elements did wait, up to the byte bound's neighbourhood.
        #expect(meter.peakBytes > maxBytes / 3 || capacity == 1)
    }
}
