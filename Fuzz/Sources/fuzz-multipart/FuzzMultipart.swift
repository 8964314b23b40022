// libFuzzer target: the client's reading of incremental (`@defer`/`@stream`) `multipart/mixed`
// responses, from the chunks of the body to the merged responses it yields.
@_spi(Fuzzing) import Baton
import BatonAPI

/// The input: chunk sizes, a `Content-Type`, then a body (`_IncrementalDeliveryFuzzEntry.splitInput`),
/// read in those chunks and in one: both reads must yield the same responses and end the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    // The oracle is the entry's own, which the fuzz smoke test in `swift test` runs too.
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let failure = _IncrementalDeliveryFuzzEntry.check(input) { fatalError(failure) }
    return 0
}
