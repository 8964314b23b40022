import BatonAPI
import Foundation

/// Not API: the entry point of the `fuzz-multipart` libFuzzer target (`Fuzz/`, a package of its
/// own, which imports it with `@_spi(Fuzzing) import Baton`) and of its replay test. Runs the code
/// the client reads an incremental (`multipart/mixed`) response with, without a network or a task.
@_spi(Fuzzing) public enum _IncrementalDeliveryFuzzEntry {
    /// Reads `body` as the client reads a `multipart/mixed` response whose `Content-Type` is
    /// `contentType`, arriving in chunks of `chunkSizes` bytes (cycled; each at least 1; empty:
    /// one chunk). Returns what the client would yield (the response merged so far and whether
    /// more parts follow, after each part) and the error it would end with, if any. Parts are
    /// limited to 4 KiB (``_HTTPSubscriptionFuzzEntry/limits``), so that inputs reach the limit.
    public static func read(
        contentType: String, body: [UInt8], chunkSizes: [Int]
    ) -> (responses: [(body: JSONObject, hasNext: Bool)], error: BatonError?) {
        var assembler = IncrementalResponseAssembler(
            contentType: contentType, operationName: "Fuzz", limits: _HTTPSubscriptionFuzzEntry.limits)
        var responses: [(body: JSONObject, hasNext: Bool)] = []
        do throws(BatonError) {
            var start = 0
            var next = 0
            while start < body.count {
                let size = chunkSizes.isEmpty ? body.count : max(1, chunkSizes[next % chunkSizes.count])
                next += 1
                let end = size >= body.count - start ? body.count : start + size
                try assembler.append(Data(body[start..<end])) { body, hasNext, _ in responses.append((body, hasNext)) }
                start = end
                if assembler.isDone { break }
            }
            try assembler.finish()
            return (responses, nil)
        } catch {
            return (responses, error)
        }
    }

    /// A fuzz input as the target and its replay test read it: the first line holds the chunk
    /// sizes (decimal, comma-separated; what is not a number in 1...65536 is skipped), the second
    /// the `Content-Type`, the rest (after the second `\n`) is the body.
    public static func splitInput(_ input: [UInt8]) -> (chunkSizes: [Int], contentType: String, body: [UInt8]) {
        let newline = UInt8(ascii: "\n")
        guard let firstEnd = input.firstIndex(of: newline) else {
            return ([], "", [])
        }
        let chunkSizes = input[..<firstEnd].split(separator: UInt8(ascii: ",")).compactMap { digits -> Int? in
            guard digits.count <= 5, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let size = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            return (1...65536).contains(size) ? size : nil
        }
        let rest = input[(firstEnd + 1)...]
        let secondEnd = rest.firstIndex(of: newline) ?? rest.endIndex
        let contentType = String(decoding: rest[..<secondEnd], as: UTF8.self)
        let body = secondEnd < rest.endIndex ? Array(rest[(secondEnd + 1)...]) : []
        return (chunkSizes, contentType, body)
    }

    /// The `fuzz-multipart` target's oracle, which its smoke test runs too: the input
    /// (``splitInput(_:)``) read in its chunks and in one yields the same responses and ends the
    /// same way. Returns what differs, or `nil`.
    public static func check(_ input: [UInt8]) -> String? {
        let input = splitInput(input)
        let chunked = read(contentType: input.contentType, body: input.body, chunkSizes: input.chunkSizes)
        let whole = read(contentType: input.contentType, body: input.body, chunkSizes: [])
        let same =
            chunked.responses.count == whole.responses.count
            && zip(chunked.responses, whole.responses).allSatisfy { $0.body == $1.body && $0.hasNext == $1.hasNext }
            && chunked.error.map { "\($0)" } == whole.error.map { "\($0)" }
        return same
            ? nil
            : "chunks of \(input.chunkSizes) read \(chunked.responses.count) response(s), error \(String(describing: chunked.error)); "
                + "one chunk \(whole.responses.count), error \(String(describing: whole.error))"
    }
}
