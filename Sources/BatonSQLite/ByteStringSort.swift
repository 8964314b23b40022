#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sorts byte strings in the order of SQLite's `BINARY` collation (`memcmp` over the common
/// length, then the shorter first), by multikey quicksort (Bentley and Sedgewick, 1997), eight
/// bytes a step: each step partitions on the next eight bytes, so the long prefixes record IDs
/// share (`Issue:MDU6…`, `client:Issue:…`) are read once per level rather than once per
/// comparison.
///
/// Written here rather than `sort(by:)` with `memcmp`: that sort took 1.24 M of the 13.7 M
/// instructions of a new connection's first write of the GitHub response's 800 records
/// (callgrind, the bench's `--profile cacheWrite`), most of it in calling the comparison and
/// moving rows; this one takes 0.6 M (the write: 13.2 M). One byte a step took 1.1 M.
enum ByteStringSort {
    /// One string to sort: its bytes, and what the caller knows it by.
    struct Key {
        var bytes: UnsafePointer<UInt8>
        var count: Int
        var index: Int
    }

    /// Partitions nested deeper than this sort the rest of their range by comparisons: a
    /// server's IDs made to nest partitions deeply cannot exhaust the stack.
    static let nestingLimit = 48
    /// Ranges this short are sorted by insertion.
    private static let insertionLimit = 12

    /// `keys` in `BINARY` order. Equal strings keep no particular order. `nestingLimit` is
    /// ``nestingLimit`` but in tests.
    static func sort(_ keys: inout [Key], nestingLimit: Int = nestingLimit) {
        keys.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 1 else { return }
            sort(base, low: 0, high: buffer.count, depth: 0, nesting: 0, limit: nestingLimit)
        }
    }

    /// Eight bytes of `key` from `depth` on, as one big-endian number (zeros past its end), and how
    /// many of them it has: ordered as the bytes are, a string ending within them first.
    @inline(__always)
    private static func word(_ key: Key, at depth: Int) -> (value: UInt64, count: Int) {
        let count = key.count - depth
        if count >= 8 {
            return (UInt64(bigEndian: UnsafeRawPointer(key.bytes + depth).loadUnaligned(as: UInt64.self)), 8)
        }
        var value: UInt64 = 0
        var index = 0
        while index < count {
            value |= UInt64(key.bytes[depth + index]) << (56 - 8 * index)
            index += 1
        }
        return (value, max(count, 0))
    }

    /// Sorts `keys[low..<high]`, whose strings are known to be equal in their first `depth` bytes.
    private static func sort(_ keys: UnsafeMutablePointer<Key>, low: Int, high: Int, depth: Int, nesting: Int, limit: Int) {
        var low = low
        var high = high
        var depth = depth
        while high - low > 1 {
            if high - low <= insertionLimit || nesting >= limit {
                sortByComparing(keys, low: low, high: high, depth: depth)
                return
            }
            let pivot = word(keys[low + (high - low) / 2], at: depth)
            // Three ways: [low, less) before the pivot's bytes, [less, next) equal to them,
            // [greater, high) after them.
            var less = low
            var next = low
            var greater = high
            while next < greater {
                let value = word(keys[next], at: depth)
                if value < pivot {
                    swap(&keys[less], &keys[next])
                    less += 1
                    next += 1
                } else if value > pivot {
                    greater -= 1
                    swap(&keys[next], &keys[greater])
                } else {
                    next += 1
                }
            }
            sort(keys, low: low, high: less, depth: depth, nesting: nesting + 1, limit: limit)
            sort(keys, low: greater, high: high, depth: depth, nesting: nesting + 1, limit: limit)
            // Strings that end within these bytes are equal: nothing left to order among them.
            guard pivot.count == 8 else { return }
            low = less
            high = greater
            depth += 8
        }
    }

    /// Insertion sort by `memcmp` from `depth` on (the standard library's sort for a long range).
    private static func sortByComparing(_ keys: UnsafeMutablePointer<Key>, low: Int, high: Int, depth: Int) {
        guard high - low > 1 else { return }
        if high - low > insertionLimit {
            // Only past the nesting limit: a long range, sorted by the standard library.
            var range = UnsafeMutableBufferPointer(start: keys + low, count: high - low)
            range.sort { ordered($0, $1, depth: depth) }
            return
        }
        for index in (low + 1)..<high {
            let key = keys[index]
            var place = index
            while place > low && ordered(key, keys[place - 1], depth: depth) {
                keys[place] = keys[place - 1]
                place -= 1
            }
            keys[place] = key
        }
    }

    /// Whether `left` sorts before `right`, both equal in their first `depth` bytes.
    @inline(__always)
    private static func ordered(_ left: Key, _ right: Key, depth: Int) -> Bool {
        let common = min(left.count, right.count) - depth
        if common > 0 {
            let order = memcmp(left.bytes + depth, right.bytes + depth, common)
            if order != 0 { return order < 0 }
        }
        return left.count < right.count
    }
}
