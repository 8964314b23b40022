// libFuzzer target: a response's GraphQL error paths, checked against the limit and used by the
// normalizer (which skips nulls an error explains) on `HeroAndFriends`' selections.
@_spi(Fuzzing) import Baton
import BatonAPI
import BatonExampleAPI

/// The input is a response's JSON: a typed error or a count of records, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzErrorPaths(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    // The oracle is the entry's own, which the fuzz smoke test in `swift test` runs too.
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let failure = _HTTPSubscriptionFuzzEntry.checkErrorPaths(input, selections: HeroAndFriendsQuery.Data.__selections) {
        fatalError(failure)
    }
    return 0
}
