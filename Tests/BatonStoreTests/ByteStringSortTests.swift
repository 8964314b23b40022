@testable import BatonSQLite
import BatonTestSupport
import Foundation
import Testing

/// The order the cache writes a commit's rows in: SQLite's `BINARY` collation (`memcmp`, then the
/// shorter first), so that the primary key's B-tree grows at its right edge.
@Suite("Byte string sort", .ownThread)
struct ByteStringSortTests {
    /// Sorts `strings` with `ByteStringSort` and returns them in its order.
    private func sorted(_ strings: [[UInt8]], nestingLimit: Int = ByteStringSort.nestingLimit) -> [[UInt8]] {
        var bytes: [UInt8] = strings.flatMap { $0 }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var keys: [ByteStringSort.Key] = []
            var offset = 0
            for (index, string) in strings.enumerated() {
                keys.append(ByteStringSort.Key(bytes: UnsafePointer(buffer.baseAddress!) + offset, count: string.count, index: index))
                offset += string.count
            }
            ByteStringSort.sort(&keys, nestingLimit: nestingLimit)
            return keys.map { strings[$0.index] }
        }
    }

    /// `BINARY` order, as SQLite compares two texts.
    private func binaryOrder(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        for (a, b) in zip(left, right) where a != b { return a < b }
        return left.count < right.count
    }

    @Test func recordIDsSortAsSQLiteComparesThem() {
        let ids = [
            "Issue:MDU6SXNzdWUy", "Issue:MDU6SXNzdWUx", "client:root", "client:root:viewer", "IssueComment:MDEyOklz",
            "client:Issue:MDU6SXNzdWUx:comments(first:10)", "client:Issue:MDU6SXNzdWUx:comments(first:10):0", "", "Issue:",
            "Issue:MDU6SXNzdWUx", "Ünïcode:1", "Issue:MDU6SXNzdWUxMDAwMDAwMDAw", "Issue:MDU6SXNzdWUxMDAwMDAwMDAx",
        ]
        let strings = ids.map { Array($0.utf8) }
        #expect(sorted(strings) == strings.sorted(by: binaryOrder))
    }

    /// Hundreds of seeded random sets: short alphabets and long shared prefixes (the partitions'
    /// worst cases), strings that end inside an eight-byte step, duplicates and empty strings.
    @Test func randomSetsSortAsTheStandardLibrarySortsThem() {
        var generator = SeededGenerator(seed: 0xBA70)
        for round in 0..<400 {
            let count = Int.random(in: 0...200, using: &generator)
            let alphabet = [UInt8](round.isMultiple(of: 3) ? [0, 1, 255] : Array(0...255))
            let prefix = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let strings = (0..<count).map { _ -> [UInt8] in
                let shared = prefix.prefix(Int.random(in: 0...prefix.count, using: &generator))
                return shared + (0..<Int.random(in: 0...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            }
            #expect(sorted(strings) == strings.sorted(by: binaryOrder), "round \(round)")
        }
    }

    /// Past the nesting limit (the guard against IDs made to nest partitions deeply), a range
    /// is sorted by comparisons from the bytes already known equal: the same order.
    @Test func rangesPastTheNestingLimitSortByComparison() {
        var generator = SeededGenerator(seed: 26)
        for limit in [0, 1, 2, 5] {
            for _ in 0..<60 {
                let prefix = [UInt8]("client:Issue:MDU6SXNzdWUx".utf8)
                let strings = (0..<Int.random(in: 0...200, using: &generator)).map { _ -> [UInt8] in
                    prefix.prefix(Int.random(in: 0...prefix.count, using: &generator))
                        + (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 48...52, using: &generator) }
                }
                #expect(sorted(strings, nestingLimit: limit) == strings.sorted(by: binaryOrder), "limit \(limit)")
            }
        }
    }
}
