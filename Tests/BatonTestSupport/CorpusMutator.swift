import Foundation

// The seeded mutator of the fuzz smoke tests (BatonTests' FuzzSmokeTests, BatonCodegenTests'
// FuzzCodegenSmokeTests): scripts/fuzz's targets' entry points over mutated corpora in the
// normal test build. Not coverage-guided: scripts/fuzz is.

/// Random bytes from a fixed seed (SplitMix64): the same run every time, so a finding replays.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence `seed` decides.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<upperBound` (the next value modulo the bound: every run of a seed takes
    /// the same steps).
    public mutating func next(upperBound: Int) -> Int {
        Int(next() % UInt64(upperBound))
    }
}

/// Mutations of a fuzz target's corpus, as libFuzzer's default mutators make them (bit flips,
/// bytes set, inserted, erased, copied, tokens of the formats inserted, inputs spliced), without
/// its coverage feedback.
public struct CorpusMutator {
    let corpus: [[UInt8]]
    var generator: SeededGenerator
    let maxLength: Int

    /// Tokens that matter to the readers: JSON, multipart, Server-Sent Events, WebSocket frames.
    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\u0000", "\\ud800", "1e999", "-0", "null", "true", "9223372036854775808",
        "\r\n", "\n", "\r", "\r\n\r\n", "--", "--graphql", "--graphql--", "---", "content-type: application/json\r\n",
        "data: ", "data:", "event: next\n", "event: complete\n", ": comment\n", "id: 1\n", "retry: 10\n",
        "\"data\":", "\"errors\":", "\"path\":[", "\"incremental\":[", "\"hasNext\":false", "\"payload\":",
        "\"type\":\"next\"", "\"type\":\"ping\"", "\"id\":\"1\"",
    ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0x81, 0x7E], [0x81, 0x7F], [0x88, 0x02, 0x03, 0xE8]]

    /// Mutations of `corpus`, decided by `seed`, at most `maxLength` bytes long.
    public init(corpus: [[UInt8]], seed: UInt64, maxLength: Int = 16 << 10) {
        self.corpus = corpus.isEmpty ? [[]] : corpus
        generator = SeededGenerator(seed: seed)
        self.maxLength = maxLength
    }

    /// A corpus input with one to four mutations.
    public mutating func next() -> [UInt8] {
        var input = corpus[Int.random(in: 0..<corpus.count, using: &generator)]
        for _ in 0..<Int.random(in: 1...4, using: &generator) { mutate(&input) }
        if input.count > maxLength { input.removeLast(input.count - maxLength) }
        return input
    }

    private mutating func position(in input: [UInt8]) -> Int {
        Int.random(in: 0...input.count, using: &generator)
    }

    private mutating func mutate(_ input: inout [UInt8]) {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0 where !input.isEmpty:
            let index = Int.random(in: 0..<input.count, using: &generator)
            input[index] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 1 where !input.isEmpty:
            input[Int.random(in: 0..<input.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        case 2:
            let token = Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &generator)]
            input.insert(contentsOf: token, at: position(in: input))
        case 3 where !input.isEmpty:
            let start = Int.random(in: 0..<input.count, using: &generator)
            let end = min(input.count, start + Int.random(in: 1...64, using: &generator))
            input.removeSubrange(start..<end)
        case 4 where !input.isEmpty:
            let start = Int.random(in: 0..<input.count, using: &generator)
            let end = min(input.count, start + Int.random(in: 1...256, using: &generator))
            let copy = Array(input[start..<end])
            input.insert(contentsOf: copy, at: position(in: input))
        case 5:
            let other = corpus[Int.random(in: 0..<corpus.count, using: &generator)]
            let cut = Int.random(in: 0...other.count, using: &generator)
            let at = position(in: input)
            input = Array(input[..<at]) + Array(other[cut...])
        case 6 where !input.isEmpty:
            input.removeLast(Int.random(in: 0...input.count, using: &generator))
        default:
            input.insert(UInt8.random(in: 0...255, using: &generator), at: position(in: input))
        }
    }
}

