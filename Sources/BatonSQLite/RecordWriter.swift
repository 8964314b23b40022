import BatonAPI
import BatonStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes records in `RecordCoding`'s stored form, byte for byte what
/// `RecordCoding.encode(_:into:)` writes, for the cache's write path, where encoding was half
/// of a publish's cost: a record's keys are sorted once per key array (records of one shape
/// share theirs), and strings are scanned for bytes to escape eight at a time.
struct RecordWriter {
    /// Sorted key orders of the last few record shapes seen.
    private var orders: [(keys: [String], order: [Int])] = []
    private var nextSlot = 0
    private static let remembered = 16

    mutating func write(_ record: Record, into output: ByteBuffer) {
        Self.append(#"{"__id":"#, to: output)
        Self.write(string: record.id.rawValue, into: output)
        if let typename = record.typename {
            Self.append(#","__typename":"#, to: output)
            Self.write(string: typename, into: output)
        }
        Self.append(#","fields":{"#, to: output)
        let fields = record.fields
        let keys = fields.keys
        let values = fields.values
        var first = true
        for position in sortedOrder(of: keys) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            Self.write(string: keys[position], into: output)
            output.append(UInt8(ascii: ":"))
            Self.write(values[position], into: output)
        }
        Self.append("}}", to: output)
    }

    /// The positions of `keys` in the order of `keys.sorted()` (the keys are distinct).
    private mutating func sortedOrder(of keys: [String]) -> [Int] {
        // Arrays that share storage compare equal at once; others by count, then contents.
        for entry in orders where entry.keys == keys { return entry.order }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        if orders.count < Self.remembered {
            orders.append((keys, order))
        } else {
            orders[nextSlot] = (keys, order)
            nextSlot = (nextSlot + 1) % Self.remembered
        }
        return order
    }

    private static func write(_ value: RecordValue, into output: ByteBuffer) {
        switch value {
        case .scalar(let scalar):
            append(#"{"v":"#, to: output)
            if case .string(let string) = scalar {
                write(string: string, into: output)
            } else {
                var bytes: [UInt8] = []
                scalar.serialize(into: &bytes)
                bytes.withUnsafeBufferPointer { output.append($0.baseAddress!, count: $0.count) }
            }
        case .link(let id):
            append(#"{"__ref":"#, to: output)
            write(string: id.rawValue, into: output)
        case .list(let items):
            append(#"{"__list":["#, to: output)
            var first = true
            for item in items {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(item, into: output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    private static func append(_ text: StaticString, to output: ByteBuffer) {
        output.append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends `string` quoted and escaped as JSONSerializer escapes it: `"` and `\` with a
    /// backslash, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; every other
    /// byte (UTF-8 included) as it is.
    static func write(string: String, into output: ByteBuffer) {
        var string = string
        string.withUTF8 { bytes in
            let count = bytes.count
            // Room for the worst case, every byte as `\u00XX`, and the quotes.
            output.reserve(count * 6 + 2)
            var out = output.end
            out[0] = UInt8(ascii: "\"")
            out += 1
            guard let base = bytes.baseAddress else {
                out[0] = UInt8(ascii: "\"")
                output.advance(to: out + 1)
                return
            }
            var runStart = 0
            var position = 0
            while true {
                // Eight bytes at a time: the lowest flagged byte of a word is the first to escape.
                var found = false
                while position + 8 <= count {
                    let flags = escapeFlags(UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)))
                    if flags != 0 {
                        position += flags.trailingZeroBitCount >> 3
                        found = true
                        break
                    }
                    position += 8
                }
                // The last few bytes one by one.
                if !found {
                    while position < count {
                        let byte = base[position]
                        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                            found = true
                            break
                        }
                        position += 1
                    }
                    if !found { break }
                }
                let run = position - runStart
                out.update(from: base + runStart, count: run)
                out += run
                let byte = base[position]
                out[0] = UInt8(ascii: "\\")
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
                case 0x0A: out[1] = UInt8(ascii: "n")
                case 0x0D: out[1] = UInt8(ascii: "r")
                case 0x09: out[1] = UInt8(ascii: "t")
                case 0x08: out[1] = UInt8(ascii: "b")
                case 0x0C: out[1] = UInt8(ascii: "f")
                default:
                    out[1] = UInt8(ascii: "u")
                    out[2] = UInt8(ascii: "0")
                    out[3] = UInt8(ascii: "0")
                    out[4] = hexDigits.utf8Start[Int(byte >> 4)]
                    out[5] = hexDigits.utf8Start[Int(byte & 0xF)]
                    out += 4
                }
                out += 2
                position += 1
                runStart = position
            }
            let run = count - runStart
            out.update(from: base + runStart, count: run)
            out += run
            out[0] = UInt8(ascii: "\"")
            output.advance(to: out + 1)
        }
    }

    /// The high bit of each byte of `word` (little-endian) that is below 0x20, `"` (0x22) or
    /// `\` (0x5C); zero when none is. Bytes of 0x80 and above (UTF-8 beyond ASCII) never match.
    /// Only the lowest flag is exact (a borrow can flag a byte above a match), which is the
    /// one used.
    @inline(__always)
    static func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        return below0x20 | hasQuote | hasBackslash
    }
}

/// A growable run of bytes that the writer fills through a pointer: records are bound to
/// SQLite statements straight from it.
final class ByteBuffer {
    private(set) var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 64 << 10) {
        self.capacity = capacity
        start = Self.allocate(capacity)
    }

    deinit { free(start) }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory for \(capacity) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Where the next byte goes.
    var end: UnsafeMutablePointer<UInt8> { start + count }

    /// Makes room for `extra` more bytes past `count`.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        // `realloc` moves large blocks by remapping their pages, not by copying them.
        let newCapacity = max(needed, capacity * 2)
        guard let memory = realloc(start, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes") }
        start = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    /// Marks the bytes up to `end` (written after ``reserve(_:)``) as part of the buffer.
    @inline(__always)
    func advance(to end: UnsafeMutablePointer<UInt8>) {
        count = end - start
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafePointer<UInt8>, count extra: Int) {
        reserve(extra)
        (start + count).update(from: bytes, count: extra)
        count += extra
    }

    func append(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            if let base = bytes.baseAddress { append(base, count: bytes.count) }
        }
    }

    /// Empties the buffer; keeps its memory unless it grew past `limit` bytes.
    func removeAll(keepingUpTo limit: Int) {
        count = 0
        if capacity > limit {
            free(start)
            capacity = 64 << 10
            start = Self.allocate(capacity)
        }
    }
}
