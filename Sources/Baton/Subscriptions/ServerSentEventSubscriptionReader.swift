import BatonAPI
import Foundation

/// Reads a subscription's `text/event-stream` response by GraphQL over Server-Sent Events
/// (graphql-sse, distinct connections mode): each `next` event's data is one result, `complete`
/// ends the stream. Events of other types are ignored. A body that ends before `complete` is
/// ``BatonError/incompleteResponse(operationName:reason:)``.
enum ServerSentEventSubscriptionReader {
    static func responses(_ result: HTTPResult, operationName: String) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let chunks = result.streamedBody ?? AsyncThrowingStream { $0.finish() }
        return AsyncThrowingStream { continuation in
            let task = Task {
                var assembler = ServerSentEventSubscriptionAssembler(operationName: operationName)
                do {
                    for try await chunk in chunks {
                        try assembler.append(chunk) { body in
                            continuation.yield(GraphQLResponse(body: body, httpResponse: result.response))
                        }
                        if assembler.isComplete { break }
                    }
                    try assembler.finish()
                    continuation.finish()
                } catch let error as BatonError {
                    continuation.finish(throwing: error)
                } catch is CancellationError {
                    continuation.finish(throwing: CancellationError())
                } catch {
                    continuation.finish(throwing: BatonError.network(operationName: operationName, underlying: error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The synchronous core of ``ServerSentEventSubscriptionReader``.
struct ServerSentEventSubscriptionAssembler {
    let operationName: String
    private var parser = ServerSentEventParser()
    private var nextCount = 0
    /// Whether the `complete` event was read.
    private(set) var isComplete = false

    init(operationName: String) {
        self.operationName = operationName
    }

    /// Adds a chunk; calls `yield` with the result of each `next` event, in order.
    mutating func append(_ chunk: Data, yield: (JSONObject) -> Void) throws(BatonError) {
        guard !isComplete else { return }
        for event in parser.append(chunk) {
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
                yield(object)
            case "complete":
                isComplete = true
                return
            default:
                continue
            }
        }
    }

    /// At the end of the body: throws unless `complete` was read.
    func finish() throws(BatonError) {
        guard !isComplete else { return }
        throw BatonError.incompleteResponse(
            operationName: operationName, reason: "the event stream ended after \(nextCount) `next` event(s), before `complete`")
    }
}
