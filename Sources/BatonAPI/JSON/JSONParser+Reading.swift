#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a JSON text piece by piece, for a walk that knows what it expects (the store's
/// executor reading a response straight from its bytes, as Apollo Kotlin's executor reads a
/// `JsonReader`): members and elements one at a time, keys as bytes to compare, values parsed
/// whole where the walk wants them as they are.
extension JSONParser {
    /// The byte at the reading position, `nil` at the end of the input.
    package var nextByte: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Whether the reading position is at the end of the input, whitespace aside.
    package mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return position >= bytes.count
    }

    /// Moves back to `position` at nesting `depth` (both as read before), to read a value again.
    package mutating func rewind(to position: Int, depth: Int) {
        self.position = position
        self.depth = depth
    }

    /// The nesting of the reading position.
    package var nesting: Int { depth }

    /// Reads `{` and the whitespace after it: `true` when a member follows, `false` for `{}`
    /// (read whole).
    package mutating func openObject() throws(JSONParseError) -> Bool {
        try open(UInt8(ascii: "{"), closing: UInt8(ascii: "}"))
    }

    /// After a member's value: reads `,` (`true`: another member follows) or `}` (`false`).
    package mutating func nextMember() throws(JSONParseError) -> Bool {
        try next(closing: UInt8(ascii: "}"))
    }

    /// Reads a member's key and the `:` after it, and gives the key's bytes; `nil`, reading
    /// nothing, when the key has escapes (read it with ``parseString()``).
    package mutating func memberKey() throws(JSONParseError) -> UnsafeRawBufferPointer? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error(expected: "a string key") }
        let start = position + 1
        var nonASCII = false
        let end = plainRunEnd(from: start, nonASCII: &nonASCII)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        position = end + 1
        try readColon()
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Reads a member's key and the `:` after it when the key is exactly `utf8` (written without
    /// escapes), and gives whether it was; reads nothing when it is not.
    package mutating func memberKey(_ utf8: UnsafeRawBufferPointer) throws(JSONParseError) -> Bool {
        let start = position + 1
        let end = start + utf8.count
        guard end < bytes.count, bytes[position] == UInt8(ascii: "\""), bytes[end] == UInt8(ascii: "\"") else { return false }
        guard utf8.count == 0 || memcmp(bytes.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0 else { return false }
        position = end + 1
        try readColon()
        return true
    }

    /// Reads the `:` after a key, with the whitespace around it.
    @inline(__always)
    package mutating func readColon() throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error(expected: "':'") }
        position += 1
        skipWhitespace()
    }

    /// Reads `[` and the whitespace after it: `true` when an element follows, `false` for `[]`
    /// (read whole).
    package mutating func openList() throws(JSONParseError) -> Bool {
        try open(UInt8(ascii: "["), closing: UInt8(ascii: "]"))
    }

    /// After an element: reads `,` (`true`: another element follows) or `]` (`false`).
    package mutating func nextElement() throws(JSONParseError) -> Bool {
        try next(closing: UInt8(ascii: "]"))
    }

    /// Reads `opening` (`{` or `[`) and the whitespace after it: `true` when a member or element
    /// follows, `false` when `closing` does (read too).
    @inline(__always)
    mutating func open(_ opening: UInt8, closing: UInt8) throws(JSONParseError) -> Bool {
        guard position < bytes.count, bytes[position] == opening else {
            throw error(expected: "'\(Character(Unicode.Scalar(opening)))'")
        }
        try enterNesting()
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == closing {
            position += 1
            depth -= 1
            return false
        }
        return true
    }

    /// After a member's or an element's value: reads `,` and the whitespace after it (`true`:
    /// another follows) or `closing` (`false`: the object or list ends).
    @inline(__always)
    mutating func next(closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error(expected: "',' or '\(Character(Unicode.Scalar(closing)))'") }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: ",") {
            skipWhitespace()
            return true
        }
        if byte == closing {
            depth -= 1
            return false
        }
        throw error(expected: "',' or '\(Character(Unicode.Scalar(closing)))'", at: position - 1)
    }
}
