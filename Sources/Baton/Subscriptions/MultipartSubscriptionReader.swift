import BatonAPI
import Foundation

/// Reads a subscription's `multipart/mixed` response (Apollo's multipart subscription protocol)
/// as its chunks arrive: one ``GraphQLResponse`` per `{"payload": …}` part, heartbeats (`{}`)
/// skipped. A part with top-level `errors` ends the stream with
/// ``BatonError/subscriptionFailed(operationName:errors:)``; the closing delimiter, or the end of
/// the body after a whole part, ends it normally.
enum MultipartSubscriptionReader {
    /// The events of `result`'s streamed body, read only as fast as the consumer takes them (the
    /// back-pressure reaches the HTTP client's chunk stream), each part bounded by `limits`.
    static func responses(
        _ result: HTTPResult, operationName: String, limits: ResponseLimits = .default
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let contentType = result.response.headerFields[.contentType] ?? ""
        let response = result.response
        return StreamedBodyReader.responses(
            of: result.streamedBody, operationName: operationName,
            assembler: MultipartSubscriptionAssembler(contentType: contentType, operationName: operationName, limits: limits)
        ) { body in GraphQLResponse(body: body, httpResponse: response) }
    }
}

/// The synchronous core of ``MultipartSubscriptionReader``: parts in, results out.
struct MultipartSubscriptionAssembler: StreamedBodyAssembler {
    let operationName: String
    private var parser: MultipartMixedParser
    private let limits: ResponseLimits
    /// How many parts were read, heartbeats included (for error messages).
    private(set) var partCount = 0

    init(contentType: String, operationName: String, limits: ResponseLimits = .default) {
        self.operationName = operationName
        self.limits = limits
        parser = MultipartMixedParser(
            boundary: MultipartMixedParser.boundary(ofContentType: contentType), preambleMayBeAPart: true,
            maxPartBytes: limits.maxPartBytes)
    }

    /// Whether the closing delimiter was read.
    var isDone: Bool { parser.isFinished }

    /// Adds a chunk; calls `yield` with each event's result, in order.
    mutating func append(_ chunk: Data, yield: (JSONObject) -> Void) throws(BatonError) {
        var parts: [Data] = []
        var tooLarge: MultipartMixedParser.PartTooLarge?
        do throws(MultipartMixedParser.PartTooLarge) {
            try parser.append(chunk, into: &parts)
        } catch {
            tooLarge = error
        }
        for part in parts {
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
                try limits.checkErrorPaths(in: object, operationName: operationName)
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
                try limits.checkErrorPaths(in: payload, operationName: operationName)
                yield(payload)
            case let other?:
                throw BatonError.invalidResponse(
                    operationName: operationName,
                    reason: "multipart subscription part \(partCount): `payload` is \(other.kindDescription), not an object")
            }
        }
        if let tooLarge { throw BatonError.partTooLarge(operationName: operationName, limit: tooLarge.limit) }
    }

    /// At the end of the body: throws ``BatonError/incompleteResponse(operationName:reason:)`` when
    /// it ended in the middle of a part.
    func finish() throws(BatonError) {
        guard !parser.isFinished, parser.hasPartialPart else { return }
        throw BatonError.incompleteResponse(
            operationName: operationName, reason: "the subscription's body ended in the middle of part \(partCount + 1)")
    }
}
