// libFuzzer target: a response's GraphQL error paths, checked against the limit and used by the
// normalizer (which skips nulls an error explains) on `HeroAndFriends`' selections.
@_spi(Fuzzing) import Baton
import BatonAPI
import BatonExampleAPI

/// The input is a response's JSON: a typed error or a count of records, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzErrorPaths(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    switch _HTTPSubscriptionFuzzEntry.normalizeWithErrorPaths(bytes, selections: HeroAndFriendsQuery.Data.__selections) {
    case .success(let records): precondition(records >= 0)
    case .failure(let error): precondition(!error.description.isEmpty)
    }
    return 0
}
