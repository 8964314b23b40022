import BatonAPI
import Foundation
import Testing

@testable import Baton

/// The readers of subscriptions over HTTP, fed byte by byte and in odd chunks: Apollo's multipart
/// protocol and the HTML standard's event stream format.
@Suite("Subscriptions over HTTP: parsing")
struct HTTPSubscriptionParsingTests {
    static func chunked(_ text: String, size: Int) -> [Data] {
        let bytes = Array(text.utf8)
        return stride(from: 0, to: bytes.count, by: size).map { Data(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    /// strawberry's body, as it is on the wire: a first part with no delimiter before it, and a
    /// closing delimiter right after a delimiter line.
    static let strawberryBody =
        "\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}\r\n--graphql"
        + "\r\nContent-Type: application/json\r\n\r\n{\"payload\":{\"data\":{\"count\":1}}}\r\n--graphql"
        + "\r\nContent-Type: application/json\r\n\r\n{}\r\n--graphql"
        + "\r\nContent-Type: application/json\r\n\r\n{\"payload\":{\"data\":null,\"errors\":[{\"message\":\"boom\"}]}}\r\n--graphql"
        + "\r\n--graphql--\r\n"

    @Test(arguments: [1, 2, 7, 1000])
    func multipartPartsHeartbeatsAndTheEnd(chunkSize: Int) throws {
        var assembler = MultipartSubscriptionAssembler(
            contentType: "multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/json", operationName: "Count")
        var payloads: [JSONObject] = []
        for chunk in Self.chunked(Self.strawberryBody, size: chunkSize) {
            try assembler.append(chunk) { payloads.append($0) }
        }
        #expect(assembler.isDone)
        try assembler.finish()
        #expect(payloads.count == 2)
        #expect(payloads.first?["data"]?["count"] == .int(1))
        #expect(payloads.last?["errors"]?.listValue?.count == 1)
    }

    @Test func aTopLevelErrorsPartIsATypedTransportFailure() throws {
        var assembler = MultipartSubscriptionAssembler(contentType: "multipart/mixed; boundary=\"graphql\"", operationName: "Count")
        let body = "--graphql\r\nContent-Type: application/json\r\n\r\n{\"payload\":null,\"errors\":[{\"message\":\"router lost the subgraph\"}]}\r\n--graphql--\r\n"
        #expect {
            try assembler.append(Data(body.utf8)) { _ in }
        } throws: { error in
            guard case .subscriptionFailed(let name, let errors) = error as? BatonError else { return false }
            return name == "Count" && errors.map(\.message) == ["router lost the subgraph"]
        }
    }

    @Test func aPartThatIsNotAnObjectSaysWhichPart() throws {
        var assembler = MultipartSubscriptionAssembler(contentType: "multipart/mixed;boundary=graphql", operationName: "Count")
        let body = "--graphql\r\n\r\n{}\r\n--graphql\r\n\r\n[1]\r\n--graphql--\r\n"
        #expect {
            try assembler.append(Data(body.utf8)) { _ in }
        } throws: { error in
            guard case .invalidResponse(_, let reason) = error as? BatonError else { return false }
            return reason.contains("part 2")
        }
    }

    @Test func aBodyCutInAPartIsIncomplete() throws {
        var assembler = MultipartSubscriptionAssembler(contentType: "multipart/mixed;boundary=graphql", operationName: "Count")
        try assembler.append(Data("--graphql\r\n\r\n{\"payload\":{\"data\":{\"co".utf8)) { _ in }
        #expect(throws: BatonError.self) { try assembler.finish() }
    }

    @Test(arguments: [1, 3, 1000])
    func serverSentEventsByTheStandard(chunkSize: Int) throws {
        // A BOM, CR, LF and CRLF line ends, a comment, a field without a colon, `id` and `retry`,
        // data over two lines, an event with no blank line after it at the end (dropped).
        let stream = "\u{FEFF}: ping\r\n\r\nevent: next\rdata: {\"data\":\r\ndata:{\"count\":1}}\nid: 7\n\n"
            + "retry: 2500\nretry: soon\ndata\n\nevent: complete\ndata: \r\n\r\nevent: next\ndata: {}"
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in Self.chunked(stream, size: chunkSize) { events += try parser.append(chunk) }
        #expect(events == [
            ServerSentEvent(type: "next", data: "{\"data\":\n{\"count\":1}}", lastEventID: "7"),
            ServerSentEvent(type: "message", data: "", lastEventID: "7"),
            ServerSentEvent(type: "complete", data: "", lastEventID: "7"),
        ])
        #expect(parser.retryMilliseconds == 2500)
        #expect(parser.lastEventID == "7")
    }

    @Test func graphQLOverSSENextAndComplete() throws {
        var assembler = ServerSentEventSubscriptionAssembler(operationName: "Count")
        var payloads: [JSONObject] = []
        let stream = "event: next\ndata: {\"data\":{\"count\":1}}\n\n: ping\n\nevent: next\ndata: {\"data\":{\"count\":2}}\n\nevent: complete\n\n"
        try assembler.append(Data(stream.utf8)) { payloads.append($0) }
        #expect(assembler.isDone)
        try assembler.finish()
        #expect(payloads.map { $0["data"]?["count"] } == [.int(1), .int(2)])
    }

    @Test func anEventStreamThatEndsBeforeCompleteIsIncompleteAndBadDataIsTyped() throws {
        var cut = ServerSentEventSubscriptionAssembler(operationName: "Count")
        try cut.append(Data("event: next\ndata: {\"data\":{\"count\":1}}\n\n".utf8)) { _ in }
        #expect(throws: BatonError.self) { try cut.finish() }

        var bad = ServerSentEventSubscriptionAssembler(operationName: "Count")
        #expect {
            try bad.append(Data("event: next\ndata: {\"count\":1}\n\n".utf8)) { _ in }
        } throws: { error in
            guard case .invalidResponse(_, let reason) = error as? BatonError else { return false }
            return reason.contains("`next` event 1")
        }
    }
}
