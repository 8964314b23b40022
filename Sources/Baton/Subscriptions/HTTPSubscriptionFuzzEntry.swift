import BatonAPI
import BatonStore
import Foundation

/// Not API: the entry points of the `fuzz-sse` and `fuzz-error-paths` libFuzzer targets (`Fuzz/`,
/// which imports them with `@_spi(Fuzzing) import Baton`) and of their replay tests. Each runs
/// the code the client reads with, without a network or a task, under small limits so that a
/// fuzz input can pass them.
@_spi(Fuzzing) public enum _HTTPSubscriptionFuzzEntry {
    /// The limits the fuzz targets read with: parts of at most 4 KiB, error paths of at most 64.
    public static let limits = ResponseLimits(maxPartBytes: 4_096, maxErrorPathLength: 64)

    /// Reads `body` as a subscription's event stream (`sse`) or multipart body with `boundary`,
    /// in chunks of `chunkSizes` bytes (cycled; empty: one chunk). Returns the results it yields
    /// (serialized) and the error it ends with, if any.
    public static func readSubscription(
        sse: Bool, boundary: String, body: [UInt8], chunkSizes: [Int]
    ) -> (results: [String], error: BatonError?) {
        var results: [String] = []
        var sseAssembler = ServerSentEventSubscriptionAssembler(operationName: "Fuzz", limits: limits)
        var multipartAssembler = MultipartSubscriptionAssembler(
            contentType: "multipart/mixed; boundary=\"\(boundary)\"", operationName: "Fuzz", limits: limits)
        do throws(BatonError) {
            var start = 0
            var next = 0
            while start < body.count {
                let size = chunkSizes.isEmpty ? body.count : max(1, chunkSizes[next % chunkSizes.count])
                next += 1
                let end = size >= body.count - start ? body.count : start + size
                let chunk = Data(body[start..<end])
                if sse {
                    try sseAssembler.append(chunk) { results.append(JSONValue.object($0).serializedString()) }
                    if sseAssembler.isDone { break }
                } else {
                    try multipartAssembler.append(chunk) { results.append(JSONValue.object($0).serializedString()) }
                    if multipartAssembler.isDone { break }
                }
                start = end
            }
            if sse { try sseAssembler.finish() } else { try multipartAssembler.finish() }
            return (results, nil)
        } catch {
            return (results, error)
        }
    }

    /// Reads `json` as a GraphQL response: its errors' paths are checked against the limit, then
    /// its `data` is normalized with those error paths by the selections of the example's
    /// `HeroAndFriends`-like shape given (`selections`, root type `Query`). Returns the number
    /// of records written, or the typed error.
    public static func normalizeWithErrorPaths(_ json: [UInt8], selections: [Selection]) -> Result<Int, BatonError> {
        let body: JSONObject
        do throws(JSONParseError) {
            guard case .object(let object) = try JSONValue(parsing: json) else { return .success(0) }
            body = object
        } catch {
            return .failure(.malformedResponse(operationName: "Fuzz", error))
        }
        do throws(BatonError) {
            try limits.checkErrorPaths(in: body, operationName: "Fuzz")
        } catch {
            return .failure(error)
        }
        let errors = body["errors"]?.listValue?.map(GraphQLError.init(json:)) ?? []
        guard case .object(let data)? = body["data"] else { return .success(0) }
        let changes = ResponseNormalizer.normalize(data, selections: selections, rootType: "Query", errors: errors)
        return .success(changes.count)
    }

    /// The `fuzz-sse` target's oracle, which its smoke test runs too. The input's first byte
    /// picks the format (even: SSE, odd: multipart with boundary `graphql`) and the chunk size
    /// (its value / 2, at least 1); the rest is the body, read in those chunks and in one: both
    /// must yield the same results and end the same way. Returns what differs, or `nil`.
    public static func checkSubscription(_ input: [UInt8]) -> String? {
        guard let first = input.first else { return nil }
        let sse = first % 2 == 0
        let body = Array(input.dropFirst())
        let chunked = readSubscription(sse: sse, boundary: "graphql", body: body, chunkSizes: [max(1, Int(first / 2))])
        let whole = readSubscription(sse: sse, boundary: "graphql", body: body, chunkSizes: [])
        let same = chunked.results == whole.results && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }
        return same
            ? nil
            : "sse: \(sse); chunked: \(chunked.results.count) result(s), \(String(describing: chunked.error)); "
                + "whole: \(whole.results.count), \(String(describing: whole.error))"
    }

    /// The `fuzz-error-paths` target's oracle, which its smoke test runs too: the response is
    /// normalized over `selections` into records, or refused with an error that describes itself.
    /// Returns what went wrong, or `nil`.
    public static func checkErrorPaths(_ input: [UInt8], selections: [Selection]) -> String? {
        switch normalizeWithErrorPaths(input, selections: selections) {
        case .success(let records): return records >= 0 ? nil : "a negative record count"
        case .failure(let error): return error.description.isEmpty ? "an error without a description" : nil
        }
    }
}
