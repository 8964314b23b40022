// libFuzzer target: Baton's JSON parser on arbitrary bytes.
import BatonAPI

/// Parses the input; a parse error is fine, a crash is not. What parses must serialize to text
/// that parses again to an equal value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let value = try? JSONValue(parsing: bytes) else { return 0 }
    let text = value.serializedString()
    guard let again = try? JSONValue(parsing: text) else {
        fatalError("serialized JSON does not parse again: \(text)")
    }
    precondition(again == value, "the round trip changed the value: \(text)")
    return 0
}
