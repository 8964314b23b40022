import BatonTestSupport
import Foundation
import Testing

/// What used to take memory without bound, measured in a process of its own
/// (`baton-hostile-streams`, its peak resident memory from `/proc/self/status`): a server offers
/// a 1 GB part or line, and the client stops at `maxPartBytes` (here the default, 16 MiB).
@Suite("Hostile streams: memory")
struct HostileMemoryTests {
    /// The executable built beside the tests.
    static func executable() -> URL? {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("baton-hostile-streams")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs the client process against a server that sends `head`, then `count` bytes of `byte`
    /// (streamed, never allocated whole), then `tail`; returns its outcome and peak in MB.
    static func run(mode: String, head: String, byte: UInt8, count: Int, tail: String = "") async throws -> (outcome: String, peakMB: Int) {
        let server = try FaultServer { connection in
            guard connection.readRequest() != nil else { return }
            guard connection.write(head) else { return }
            let block = [UInt8](repeating: byte, count: 256 << 10)
            var sent = 0
            while sent < count {
                let size = min(block.count, count - sent)
                guard connection.write(Array(block[..<size])) else { return }
                sent += size
            }
            connection.record("sent all")
            connection.write(tail)
        }
        defer { server.stop() }
        let program = try #require(Self.executable(), "baton-hostile-streams is not built beside the tests")
        let output = try await runProcess(program, [mode, server.url.absoluteString])
        let lines = output.stdout.split(separator: "\n")
        let outcome = lines.first { $0.hasPrefix("outcome: ") }.map { String($0.dropFirst(9)) } ?? output.stderr
        let peak = lines.first { $0.hasPrefix("peak: ") }.flatMap { Int($0.dropFirst(6)) } ?? -1
        print("\(mode): \(outcome); peak \(peak / 1024) MB")
        return (outcome, peak / 1024)
    }

    static let gigabyte = 1 << 30
    /// The old figures were 815–1,147 MB; the limit is 16 MiB. Measured (debug build, URLSession):
    /// 98–187 MB, the rest being chunks the HTTP client's stream holds while the parser catches
    /// up (the client's stream has no back-pressure: issue 30, item 4).
    static let bound = 256

    @Test func aGigabyteDeferredPartStopsAtThePartLimit() async throws {
        let (outcome, peak) = try await Self.run(
            mode: "defer",
            head: "HTTP/1.1 200 OK\r\nContent-Type: multipart/mixed; boundary=\"-\"\r\nConnection: close\r\n\r\n"
                + "\r\n---\r\ncontent-type: application/json\r\n\r\n{\"data\":{\"hero\":{\"name\":\"",
            byte: UInt8(ascii: "x"), count: Self.gigabyte)
        #expect(outcome.contains("larger than the limit of 16777216 bytes"), "\(outcome)")
        #expect(peak > 0 && peak < Self.bound, "peak \(peak) MB")
    }

    @Test func aGigabyteMultipartSubscriptionPartStopsAtThePartLimit() async throws {
        let (outcome, peak) = try await Self.run(
            mode: "multipart-subscription",
            head: "HTTP/1.1 200 OK\r\nContent-Type: multipart/mixed; boundary=\"graphql\"\r\nConnection: close\r\n\r\n"
                + "\r\n--graphql\r\ncontent-type: application/json\r\n\r\n{\"payload\":{\"data\":{\"count\":\"",
            byte: UInt8(ascii: "x"), count: Self.gigabyte)
        #expect(outcome.contains("larger than the limit of 16777216 bytes"), "\(outcome)")
        #expect(peak > 0 && peak < Self.bound, "peak \(peak) MB")
    }

    @Test func aThreeHundredMegabyteEventLineStopsAtThePartLimit() async throws {
        let (outcome, peak) = try await Self.run(
            mode: "sse-subscription",
            head: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nevent: next\ndata: {\"data\":{\"count\":\"",
            byte: UInt8(ascii: "x"), count: 300 << 20)
        #expect(outcome.contains("larger than the limit of 16777216 bytes"), "\(outcome)")
        #expect(peak > 0 && peak < Self.bound, "peak \(peak) MB")
    }

    /// 100 MB of comments (one comment line: never kept, however long): the subscription ends
    /// normally. What it costs in memory depends on how far the socket runs ahead of the parser,
    /// which the HTTP client's chunk stream decides (see the report of issue 30, item 4): measured
    /// and printed; bounded here only loosely.
    @Test func aHundredMegabytesOfCommentsAreReadToTheEnd() async throws {
        let (outcome, peak) = try await Self.run(
            mode: "sse-subscription",
            head: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n:",
            byte: UInt8(ascii: "c"), count: 100 << 20, tail: "\n\nevent: complete\ndata:\n\n")
        #expect(outcome == "events 0", "\(outcome)")
        #expect(peak > 0 && peak < Self.bound, "peak \(peak) MB")
    }

    @Test func anErrorPathOfTenThousandElementsIsRefusedCheaply() async throws {
        let path = "\"hero\"" + String(repeating: ",\"f\"", count: 10_000)
        let body = #"{"data":{"hero":null},"errors":[{"message":"deep","path":["# + path + "]}]}"
        let (outcome, peak) = try await Self.run(
            mode: "query",
            head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body,
            byte: 0, count: 0)
        #expect(outcome.contains("10001 elements"), "\(outcome)")
        #expect(peak > 0 && peak < Self.bound, "peak \(peak) MB")
    }
}
