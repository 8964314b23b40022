import BatonAPI
import Foundation

/// Reads a `multipart/mixed` response as its chunks arrive: each part's JSON is merged into the
/// response so far, which is yielded after every part that carries something. The stream ends
/// after the part with `hasNext: false`; a body that ends before it (or in the middle of a part)
/// is ``BatonError/incompleteResponse(operationName:reason:)``.
enum IncrementalResponseReader {
    /// The parts of `result`'s streamed body, read only as fast as the consumer takes them (the
    /// back-pressure reaches the HTTP client's chunk stream), each part bounded by `limits`.
    static func responses(
        _ result: HTTPResult, operationName: String, limits: ResponseLimits = .default
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let contentType = result.response.headerFields[.contentType] ?? ""
        let response = result.response
        return StreamedBodyReader.responses(
            of: result.streamedBody, operationName: operationName,
            assembler: IncrementalResponseAssembler(contentType: contentType, operationName: operationName, limits: limits)
        ) { body, hasNext, patches in
            GraphQLResponse(body: body, httpResponse: response, hasNext: hasNext, patches: patches)
        }
    }
}

/// The synchronous core of ``IncrementalResponseReader``: splits the chunks of a `multipart/mixed`
/// body into parts, parses each part's JSON and merges it into the response so far. The
/// `fuzz-multipart` target (`Fuzz/`) drives it through `_IncrementalDeliveryFuzzEntry`.
struct IncrementalResponseAssembler: StreamedBodyAssembler {
    let operationName: String
    private var parser: MultipartMixedParser
    private var merger: IncrementalResponseMerger
    private let limits: ResponseLimits
    /// Whether the part with `hasNext: false` has been merged.
    private var lastPartMerged = false

    /// For a response of `contentType`, whose `boundary` parameter (`-` when missing) splits it.
    init(contentType: String, operationName: String, limits: ResponseLimits = .default) {
        self.operationName = operationName
        self.limits = limits
        parser = MultipartMixedParser(
            boundary: MultipartMixedParser.boundary(ofContentType: contentType), maxPartBytes: limits.maxPartBytes)
        merger = IncrementalResponseMerger(operationName: operationName)
    }

    /// Whether nothing more is to be read: the last part was merged, or the body's closing
    /// delimiter was read.
    var isDone: Bool { lastPartMerged || parser.isFinished }

    /// Adds a chunk of the body; calls `yield` with the response merged so far, and whether more
    /// parts follow, after each part it completes that carries something. Stops after the part
    /// with `hasNext: false`, ignoring what follows it.
    mutating func append(_ chunk: Data, yield: ((body: JSONObject, hasNext: Bool, patches: [IncrementalPatch]?)) -> Void) throws(BatonError) {
        guard !lastPartMerged else { return }
        var parts: [Data] = []
        var tooLarge: MultipartMixedParser.PartTooLarge?
        do throws(MultipartMixedParser.PartTooLarge) {
            try parser.append(chunk, into: &parts)
        } catch {
            tooLarge = error
        }
        for part in parts {
            let json: JSONValue
            do throws(JSONParseError) {
                json = try JSONValue(parsing: part)
            } catch {
                throw BatonError.malformedResponse(operationName: operationName, error)
            }
            guard case .object(let object) = json else {
                throw BatonError.invalidResponse(operationName: operationName, reason: "a multipart part is \(json.kindDescription), not an object")
            }
            try limits.checkErrorPaths(in: object, operationName: operationName)
            let merged: Bool
            do {
                merged = try merger.merge(object)
            } catch let error as BatonError {
                throw error
            } catch {
                // The merger throws only BatonError; this keeps `append`'s error typed.
                throw BatonError.invalidResponse(operationName: operationName, reason: "incremental delivery: \(error)")
            }
            guard merged else { continue }
            yield((merger.body, merger.hasNext, merger.latestPatches))
            if !merger.hasNext {
                lastPartMerged = true
                return
            }
        }
        if let tooLarge { throw BatonError.partTooLarge(operationName: operationName, limit: tooLarge.limit) }
    }

    /// At the end of the body: throws ``BatonError/incompleteResponse(operationName:reason:)``
    /// unless the part with `hasNext: false` was read.
    func finish() throws(BatonError) {
        guard merger.partCount == 0 || merger.hasNext else { return }
        let reason: String
        if parser.hasPartialPart {
            reason = "the body ended in the middle of part \(merger.partCount + 1)"
        } else if merger.partCount == 0 {
            reason = "the body ended before its first part"
        } else {
            reason = "the body ended after \(merger.partCount) part(s), the last of which said more would follow"
        }
        throw BatonError.incompleteResponse(operationName: operationName, reason: reason)
    }
}
