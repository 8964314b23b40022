import struct Foundation.Data

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONValue {
    /// Parses one JSON text (RFC 8259) from UTF-8 bytes. Whitespace may surround the value;
    /// anything else after it is an error. Integers that fit in `Int` stay integers.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            JSONParser.parse(UnsafeRawBufferPointer(buffer))
        }
        if let result {
            self = try result.get()
        } else {
            let copy = Array(bytes)
            self = try copy.withUnsafeBytes { JSONParser.parse($0) }.get()
        }
    }

    /// Parses one JSON text from `Data`.
    public init(parsing data: Data) throws(JSONParseError) {
        self = try data.withUnsafeBytes { JSONParser.parse($0) }.get()
    }

    /// Parses one JSON text from a string.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        self = try text.withUTF8 { JSONParser.parse(UnsafeRawBufferPointer($0)) }.get()
    }
}

/// A recursive-descent parser straight over UTF-8 bytes.
package struct JSONParser: ~Copyable {
    /// Deeper nesting is an error rather than a stack overflow.
    static let maximumDepth = 512

    let bytes: UnsafeRawBufferPointer
    package internal(set) var position = 0
    var depth = 0
    /// Reused buffer for strings with escapes.
    private var scratch: [UInt8] = []
    /// The members of the objects and the elements of the lists being parsed, innermost last:
    /// each object or list gets arrays of its exact size once it is complete, instead of
    /// arrays grown member by member.
    private var pendingKeys: [String] = []
    private var pendingValues: [JSONValue] = []
    /// Key lists already made: objects with the same keys in the same order (the objects of a
    /// list, mostly) share one array.
    private var shapes: [[String]] = []
    private static let maximumShapes = 64

    package init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(bytes: bytes)
        do throws(JSONParseError) {
            parser.skipWhitespace()
            let value = try parser.parseValue()
            parser.skipWhitespace()
            if parser.position < bytes.count {
                throw parser.error(expected: "end of input")
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    // MARK: Errors

    func error(expected: String, at offset: Int? = nil) -> JSONParseError {
        let offset = offset ?? position
        return JSONParseError(offset: offset, expected: expected, found: describeByte(at: offset))
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: Values

    @inline(__always)
    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    package mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(expected: "a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseList()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error(expected: "a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<count {
            guard position + offset < bytes.count, bytes[position + offset] == start[offset] else {
                throw error(expected: "'\(literal)'", at: position + offset)
            }
        }
        position += count
    }

    mutating func enterNesting() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error(expected: "at most \(Self.maximumDepth) levels of nesting")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        guard try open(UInt8(ascii: "{"), closing: UInt8(ascii: "}")) else { return .object(JSONObject()) }
        let base = pendingKeys.count
        let valueBase = pendingValues.count
        var hasDuplicate = false
        repeat {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error(expected: "a string key")
            }
            let key = try parseString()
            try readColon()
            let value = try parseValue()
            if !hasDuplicate && pendingKeys.count - base < JSONObject.indexThreshold && pendingKeys[base...].contains(key) {
                hasDuplicate = true
            }
            pendingKeys.append(key)
            pendingValues.append(value)
        } while try next(closing: UInt8(ascii: "}"))
        let count = pendingKeys.count - base
        defer {
            pendingKeys.removeLast(count)
            pendingValues.removeLast(count)
        }
        let values = Array(pendingValues[valueBase...])
        if hasDuplicate || (count > JSONObject.indexThreshold && Set(pendingKeys[base...]).count != count) {
            return .object(JSONObject(zip(pendingKeys[base...], values)))
        }
        return .object(JSONObject(uniqueKeys: sharedKeys(from: base), values: values))
    }

    /// The pending keys from `base` on as an array, shared with earlier objects that had the same keys.
    private mutating func sharedKeys(from base: Int) -> [String] {
        let keys = pendingKeys[base...]
        for shape in shapes where shape.count == keys.count && shape.elementsEqual(keys) {
            return shape
        }
        let shape = Array(keys)
        if shapes.count < Self.maximumShapes { shapes.append(shape) }
        return shape
    }

    private mutating func parseList() throws(JSONParseError) -> JSONValue {
        guard try open(UInt8(ascii: "["), closing: UInt8(ascii: "]")) else { return .list([]) }
        let base = pendingValues.count
        repeat {
            pendingValues.append(try parseValue())
        } while try next(closing: UInt8(ascii: "]"))
        defer { pendingValues.removeLast(pendingValues.count - base) }
        return .list(Array(pendingValues[base...]))
    }

    // MARK: Strings

    package mutating func parseString() throws(JSONParseError) -> String {
        let quote = position
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes.
        var nonASCII = false
        position = plainRunEnd(from: position, nonASCII: &nonASCII)
        guard position < bytes.count else {
            throw JSONParseError(offset: bytes.count, expected: "'\"' closing the string opened at byte \(quote)", found: "end of input")
        }
        if bytes[position] == UInt8(ascii: "\"") {
            let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
            position += 1
            return try makeString(slice, at: start, checkUTF8: nonASCII)
        }
        if bytes[position] < 0x20 { throw error(expected: "a string character (control characters must be escaped)") }
        // Slow path: copy what we have, then decode escapes.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return try scratch.withUnsafeBytes { buffer in
                    // Escapes are decoded to valid UTF-8: only raw bytes beyond ASCII need a check.
                    Result { () throws(JSONParseError) in try makeString(buffer, at: start, checkUTF8: nonASCII) }
                }.get()
            }
            if byte < 0x20 { throw error(expected: "a string character (control characters must be escaped)") }
            if byte != UInt8(ascii: "\\") {
                // A run of plain bytes at once.
                let runStart = position
                position = plainRunEnd(from: position, nonASCII: &nonASCII)
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<position]))
                continue
            }
            position += 1
            guard position < bytes.count else { break }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHexQuad()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate should be followed by an escaped low surrogate.
                    if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    {
                        let save = position
                        position += 2
                        let low = try parseHexQuad()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            position = save
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}")
            default:
                throw error(expected: "an escape character (one of \"\\/bfnrtu)", at: position - 1)
            }
        }
        throw JSONParseError(offset: bytes.count, expected: "'\"' closing the string opened at byte \(quote)", found: "end of input")
    }

    /// The position of the first byte from `start` on that ends a run of plain string bytes: `"`,
    /// `\`, a control character, or the end of the input. Sets `nonASCII` when the run holds a
    /// byte of 0x80 or above. Reads eight bytes at a time.
    @inline(__always)
    func plainRunEnd(from start: Int, nonASCII: inout Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = start
        var seen: UInt64 = 0  // the bits of every byte of the run
        while position + 8 <= count {
            let word = UInt64(littleEndian: (base + position).loadUnaligned(as: UInt64.self))
            // The high bit of each byte below 0x20, `"` or `\`; the lowest flagged byte is exact.
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let flags =
                ((word &- ones &* 0x20) & ~word & highs) | ((quote &- ones) & ~quote & highs)
                | ((backslash &- ones) & ~backslash & highs)
            if flags != 0 {
                let plain = flags.trailingZeroBitCount >> 3
                if plain > 0 { seen |= word & (UInt64.max >> (64 - plain * 8)) }
                if seen & highs != 0 { nonASCII = true }
                return position + plain
            }
            seen |= word
            position += 8
        }
        while position < count {
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            seen |= UInt64(byte)
            position += 1
        }
        if seen & highs != 0 { nonASCII = true }
        return position
    }

    /// The string of `slice`; with `checkUTF8`, an error unless it is valid UTF-8. ASCII, by far
    /// the most common case, needs no check beyond the scan.
    private func makeString(_ slice: UnsafeRawBufferPointer, at start: Int, checkUTF8: Bool) throws(JSONParseError) -> String {
        if !checkUTF8 { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validUTF8: slice) else {
            throw JSONParseError(offset: start, expected: "a string of valid UTF-8", found: "invalid UTF-8")
        }
        return string
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error(expected: "4 hexadecimal digits") }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(expected: "a hexadecimal digit")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { scratch.append($0) }
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error(expected: "a digit") }
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error(expected: "'.', 'e' or the end of the number (no leading zeros)")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) {
                let digit = UInt64(bytes[position] - UInt8(ascii: "0"))
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                if o1 || o2 { overflow = true }
                magnitude = sum
                position += 1
            }
        }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error(expected: "a digit after '.'") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error(expected: "a digit in the exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if isInteger && !overflow {
            if negative {
                if magnitude <= UInt64(Int.max) { return .int(-Int(magnitude)) }
                if magnitude == UInt64(Int.max) + 1 { return .int(Int.min) }
            } else if magnitude <= UInt64(Int.max) {
                return .int(Int(magnitude))
            }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text) else {
            throw JSONParseError(offset: start, expected: "a number", found: text)
        }
        // `1e400` would read as infinity, which JSON cannot hold: it would be written back as null.
        guard double.isFinite else {
            throw JSONParseError(offset: start, expected: "a number within the range of a Double", found: text)
        }
        return .double(double)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// One JSON value inside a larger buffer, with the parser's own string scanning: for formats
/// Baton builds out of JSON values (the store's stored records), which walk their own structure
/// and parse each value in place instead of building a tree of the whole.
@_spi(BatonStorage)
public enum JSONScanner {
    /// The value that starts at `offset` (no whitespace before it), moving `offset` past it;
    /// `nil` when it is not valid JSON.
    public static func value(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> JSONValue? {
        JSONParser.value(in: bytes, at: &offset)
    }

    /// The string whose opening quote is at `offset`, moving `offset` past its closing quote;
    /// `nil` when there is no valid string there.
    public static func string(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> String? {
        JSONParser.string(in: bytes, at: &offset)
    }
}

extension String {
    /// The string of `bytes` when they are valid UTF-8, else `nil`. `String(decoding:)` repairs
    /// invalid UTF-8 and is far faster than `String(validating:)`, which checks scalar by scalar:
    /// the bytes are valid exactly when nothing was repaired.
    @_spi(BatonStorage)
    public init?(validUTF8 bytes: UnsafeRawBufferPointer) {
        var string = String(decoding: bytes, as: UTF8.self)
        let unchanged = string.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        guard unchanged else { return nil }
        self = string
    }
}

extension JSONParser {
    fileprivate static func value(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> JSONValue? {
        scan(bytes, at: &offset) { parser throws(JSONParseError) in try parser.parseValue() }
    }

    fileprivate static func string(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> String? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        return scan(bytes, at: &offset) { parser throws(JSONParseError) in try parser.parseString() }
    }

    /// Runs `parse` from `offset`, moving `offset` past what it read; `nil` on an error.
    private static func scan<T>(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int, _ parse: (inout JSONParser) throws(JSONParseError) -> T
    ) -> T? {
        var parser = JSONParser(bytes: bytes)
        parser.position = offset
        do throws(JSONParseError) {
            let result = try parse(&parser)
            offset = parser.position
            return result
        } catch {
            return nil
        }
    }
}
