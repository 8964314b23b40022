// libFuzzer target: the client's reading of HTTP subscriptions, as an event stream (SSE) or
// Apollo's multipart protocol, under small limits (parts of 4 KiB).
@_spi(Fuzzing) import Baton
import BatonAPI

/// The input: its first byte picks the format (even: SSE, odd: multipart with boundary
/// `graphql`) and the chunk size (the byte's value / 2, at least 1); the rest is the body. The
/// body is read in those chunks and in one: a typed error is fine, a crash is not, and both
/// reads must yield the same results and end the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSE(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let sse = first % 2 == 0
    let body = Array(bytes.dropFirst())
    let chunked = _HTTPSubscriptionFuzzEntry.readSubscription(
        sse: sse, boundary: "graphql", body: body, chunkSizes: [max(1, Int(first / 2))])
    let whole = _HTTPSubscriptionFuzzEntry.readSubscription(sse: sse, boundary: "graphql", body: body, chunkSizes: [])
    precondition(
        chunked.results == whole.results && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" },
        "chunked: \(chunked.results.count) result(s), \(String(describing: chunked.error)); whole: \(whole.results.count), \(String(describing: whole.error))")
    return 0
}
