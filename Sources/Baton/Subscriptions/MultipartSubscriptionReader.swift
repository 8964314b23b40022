import BatonAPI
import Foundation

/// Reads a subscription's `multipart/mixed` response (Apollo's multipart subscription protocol)
/// as its chunks arrive: one ``GraphQLResponse`` per `{"payload": …}` part, heartbeats (`{}`)
/// skipped. A part with top-level `errors` ends the stream with
/// ``BatonError/subscriptionFailed(operationName:errors:)``; the closing delimiter, or the end of
/// the body after a whole part, ends it normally.
enum MultipartSubscriptionReader {
    static func responses(_ result: HTTPResult, operationName: String) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let chunks = result.streamedBody ?? AsyncThrowingStream { $0.finish() }
        let contentType = result.response.headerFields[.contentType] ?? ""
        return AsyncThrowingStream { continuation in
            let task = Task {
                var assembler = MultipartSubscriptionAssembler(contentType: contentType, operationName: operationName)
                do {
                    for try await chunk in chunks {
                        try assembler.append(chunk) { body in
                            continuation.yield(GraphQLResponse(body: body, httpResponse: result.response))
                        }
                        if assembler.isFinished { break }
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

/// The synchronous core of ``MultipartSubscriptionReader``: parts in, results out.
struct MultipartSubscriptionAssembler {
    let operationName: String
    private var parser: MultipartMixedParser
    /// How many parts were read, heartbeats included (for error messages).
    private(set) var partCount = 0

    init(contentType: String, operationName: String) {
        self.operationName = operationName
        parser = MultipartMixedParser(
            boundary: MultipartMixedParser.boundary(ofContentType: contentType), preambleMayBeAPart: true)
    }

    /// Whether the closing delimiter was read.
    var isFinished: Bool { parser.isFinished }

    /// Adds a chunk; calls `yield` with each event's result, in order.
    mutating func append(_ chunk: Data, yield: (JSONObject) -> Void) throws(BatonError) {
        for part in parser.append(chunk) {
            partCount += 1
            let json: JSONValue
            do throws(JSONParseError) {
                json = try JSONValue(parsing: part)
            } catch {
                throw BatonError.malformedResponse(operationName: operationName, error)
            }
            guard case .object(let object) = json else {
                throw BatonError.invalidResponse(
                    operationName: operationName, reason: "multipart subscription part \(partCount) is \(json.kindDescription), not an object")
            }
            if let errors = object["errors"], errors != .null {
                guard case .list(let list) = errors else {
                    throw BatonError.invalidResponse(
                        operationName: operationName,
                        reason: "multipart subscription part \(partCount): `errors` is \(errors.kindDescription), not a list")
                }
                throw BatonError.subscriptionFailed(operationName: operationName, errors: list.map(GraphQLError.init(json:)))
            }
            switch object["payload"] {
            case nil, .null?:
                // A heartbeat (`{}`), or a part with nothing to deliver.
                continue
            case .object(let payload)?:
                guard payload["data"] != nil || payload["errors"] != nil else {
                    throw BatonError.invalidResponse(
                        operationName: operationName,
                        reason: "multipart subscription part \(partCount): the payload has neither `data` nor `errors`")
                }
                yield(payload)
            case let other?:
                throw BatonError.invalidResponse(
                    operationName: operationName,
                    reason: "multipart subscription part \(partCount): `payload` is \(other.kindDescription), not an object")
            }
        }
    }

    /// At the end of the body: throws ``BatonError/incompleteResponse(operationName:reason:)`` when
    /// it ended in the middle of a part.
    func finish() throws(BatonError) {
        guard !parser.isFinished, parser.hasPartialPart else { return }
        throw BatonError.incompleteResponse(
            operationName: operationName, reason: "the subscription's body ended in the middle of part \(partCount + 1)")
    }
}
