import BatonAPI
import Foundation

/// Reads a `multipart/mixed` response as its chunks arrive: each part's JSON is merged into the
/// response so far, which is yielded after every part that carries something. The stream ends
/// after the part with `hasNext: false`; a body that ends before it (or in the middle of a part)
/// is ``BatonError/incompleteResponse(operationName:reason:)``.
enum IncrementalResponseReader {
    static func responses(_ result: HTTPResult, operationName: String) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let chunks = result.streamedBody ?? AsyncThrowingStream { $0.finish() }
        let boundary = MultipartMixedParser.boundary(ofContentType: result.response.headerFields[.contentType] ?? "")
        return AsyncThrowingStream { continuation in
            let task = Task {
                var parser = MultipartMixedParser(boundary: boundary)
                var merger = IncrementalResponseMerger(operationName: operationName)
                do {
                    reading: for try await chunk in chunks {
                        for part in parser.append(chunk) {
                            let json: JSONValue
                            do throws(JSONParseError) {
                                json = try JSONValue(parsing: part)
                            } catch {
                                throw BatonError.malformedResponse(operationName: operationName, error)
                            }
                            guard case .object(let object) = json else {
                                throw BatonError.invalidResponse(
                                    operationName: operationName, reason: "a multipart part is \(json.kindDescription), not an object")
                            }
                            guard try merger.merge(object) else { continue }
                            continuation.yield(GraphQLResponse(body: merger.body, httpResponse: result.response, hasNext: merger.hasNext))
                            if !merger.hasNext { break reading }
                        }
                        if parser.isFinished { break }
                    }
                    if merger.partCount == 0 || merger.hasNext {
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
