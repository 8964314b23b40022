import BatonAPI
import Foundation

/// Reads a subscription's `text/event-stream` response by GraphQL over Server-Sent Events
/// (graphql-sse, distinct connections mode): each `next` event's data is one result, `complete`
/// ends the stream. Events of other types are ignored. A body that ends before `complete` is
/// ``BatonError/incompleteResponse(operationName:reason:)``.
enum ServerSentEventSubscriptionReader {
    /// The results of `result`'s event stream, read only as fast as the consumer takes them (the
    /// back-pressure reaches the HTTP client's chunk stream), each line and event bounded by `limits`.
    static func responses(
        _ result: HTTPResult, operationName: String, limits: ResponseLimits = .default
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let response = result.response
        return StreamedBodyReader.responses(
            of: result.streamedBody, operationName: operationName,
            assembler: ServerSentEventSubscriptionAssembler(operationName: operationName, limits: limits)
        ) { body in GraphQLResponse(body: body, httpResponse: response) }
    }
}

/// The synchronous core of ``ServerSentEventSubscriptionReader``.
struct ServerSentEventSubscriptionAssembler: StreamedBodyAssembler {
    let operationName: String
    private var parser: ServerSentEventParser
    private let limits: ResponseLimits
    private var nextCount = 0
    /// Whether the `complete` event was read.
    private(set) var isDone = false

    init(operationName: String, limits: ResponseLimits = .default) {
        self.operationName = operationName
        self.limits = limits
        parser = ServerSentEventParser(maxPartBytes: limits.maxPartBytes)
    }

    /// Adds a chunk; calls `yield` with the result of each `next` event, in order.
    mutating func append(_ chunk: Data, yield: (JSONObject) -> Void) throws(BatonError) {
        guard !isDone else { return }
        var events: [ServerSentEvent] = []
        var failure: ServerSentEventParser.Failure?
        do throws(ServerSentEventParser.Failure) {
            try parser.append(chunk, into: &events)
        } catch {
            failure = error
        }
        for event in events {
            switch event.type {
            case "next":
                nextCount += 1
                let json: JSONValue
                do throws(JSONParseError) {
                    json = try JSONValue(parsing: event.data)
                } catch {
                    throw BatonError.malformedResponse(operationName: operationName, error)
                }
                guard case .object(let object) = json, object["data"] != nil || object["errors"] != nil else {
                    throw BatonError.invalidResponse(
                        operationName: operationName,
                        reason: "`next` event \(nextCount) is \(json.kindDescription), not a GraphQL result with `data` or `errors`")
                }
                try limits.checkErrorPaths(in: object, operationName: operationName)
                yield(object)
            case "complete":
                isDone = true
                return
            default:
                continue
            }
        }
        switch failure {
        case nil:
            return
        case .tooLarge(let limit)?:
            throw BatonError.partTooLarge(operationName: operationName, limit: limit)
        case .invalidUTF8(let offset)?:
            // The rule of every transport: invalid UTF-8 is rejected, as Baton's JSON parser rejects it.
            throw BatonError.malformedResponse(
                operationName: operationName,
                JSONParseError(offset: offset, expected: "a line of valid UTF-8 in the event stream", found: "invalid UTF-8"))
        }
    }

    /// At the end of the body: throws unless `complete` was read.
    func finish() throws(BatonError) {
        guard !isDone else { return }
        throw BatonError.incompleteResponse(
            operationName: operationName, reason: "the event stream ended after \(nextCount) `next` event(s), before `complete`")
    }
}
