// libFuzzer target: the client's reading of incremental (`@defer`/`@stream`) `multipart/mixed`
// responses, from the chunks of the body to the merged responses it yields.
@_spi(Fuzzing) import Baton
import BatonAPI

/// Whether two reads yielded the same responses and ended the same way.
func sameOutcome(
    _ a: (responses: [(body: JSONObject, hasNext: Bool)], error: BatonError?),
    _ b: (responses: [(body: JSONObject, hasNext: Bool)], error: BatonError?)
) -> Bool {
    a.responses.count == b.responses.count
        && zip(a.responses, b.responses).allSatisfy { $0.body == $1.body && $0.hasNext == $1.hasNext }
        && a.error.map { String(describing: $0) } == b.error.map { String(describing: $0) }
}

/// The input: chunk sizes on the first line, the `Content-Type` on the second, then the body
/// (`_IncrementalDeliveryFuzzEntry.splitInput`). The body is read in chunks of those sizes and
/// in one chunk: a typed error is fine, a crash is not, and both reads must yield the same
/// responses and end the same way, as the chunking of a body is the network's choice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = _IncrementalDeliveryFuzzEntry.splitInput(Array(UnsafeRawBufferPointer(start: start, count: count)))
    let chunked = _IncrementalDeliveryFuzzEntry.read(contentType: input.contentType, body: input.body, chunkSizes: input.chunkSizes)
    let whole = _IncrementalDeliveryFuzzEntry.read(contentType: input.contentType, body: input.body, chunkSizes: [])
    precondition(
        sameOutcome(chunked, whole),
        "chunks of \(input.chunkSizes) read \(chunked.responses.count) response(s), error \(String(describing: chunked.error)); one chunk \(whole.responses.count), error \(String(describing: whole.error))"
    )
    return 0
}
