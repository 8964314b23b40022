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
    // The oracle is the entry's own, which the fuzz smoke test in `swift test` runs too.
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let failure = _HTTPSubscriptionFuzzEntry.checkSubscription(input) { fatalError(failure) }
    return 0
}
