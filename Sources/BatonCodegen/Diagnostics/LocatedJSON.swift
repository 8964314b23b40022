/// A JSON value with the line and column it starts at, for input files whose errors must say
/// where they are (introspection results, `baton.json`).
struct LocatedJSON: Sendable {
    indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([LocatedJSON])
        case object([(key: String, value: LocatedJSON)])
    }

    let value: Value
    let line: Int
    let column: Int

    func location(in path: String) -> SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }

    /// The member of an object by key, `nil` when absent or when this is not an object.
    subscript(key: String) -> LocatedJSON? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    var stringValue: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    var arrayValue: [LocatedJSON]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    var kindDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses JSON text; a syntax error names its line and column in `path`.
    static func parse(_ text: String, path: String) throws(CodegenError) -> LocatedJSON {
        var parser = LocatedJSONParser(bytes: Array(text.utf8), path: path)
        return try parser.parseDocument()
    }
}

private struct LocatedJSONParser {
    let bytes: [UInt8]
    let path: String
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0

    init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    var column: Int { index - lineStart + 1 }

    func error(_ message: String) -> CodegenError {
        CodegenError(message, at: SourceLocation(path: path, line: line, column: column))
    }

    mutating func parseDocument() throws(CodegenError) -> LocatedJSON {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    mutating func parseValue() throws(CodegenError) -> LocatedJSON {
        guard index < bytes.count else { throw error("unexpected end of the JSON text") }
        let startLine = line
        let startColumn = column
        func located(_ value: LocatedJSON.Value) -> LocatedJSON {
            LocatedJSON(value: value, line: startLine, column: startColumn)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            depth += 1
            if depth > 512 { throw error("JSON nested too deeply") }
            defer { depth -= 1 }
            index += 1
            var members: [(key: String, value: LocatedJSON)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return located(.object(members))
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a string key in the JSON object")
                }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after the key \"\(key)\"")
                }
                index += 1
                skipWhitespace()
                members.append((key, try parseValue()))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the JSON text in an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw error("expected ',' or '}' in the JSON object")
            }
            return located(.object(members))
        case UInt8(ascii: "["):
            depth += 1
            if depth > 512 { throw error("JSON nested too deeply") }
            defer { depth -= 1 }
            index += 1
            var elements: [LocatedJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return located(.array(elements))
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue())
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the JSON text in an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                throw error("expected ',' or ']' in the JSON array")
            }
            return located(.array(elements))
        case UInt8(ascii: "\""):
            return located(.string(try parseString()))
        case UInt8(ascii: "t"):
            try expectWord("true")
            return located(.bool(true))
        case UInt8(ascii: "f"):
            try expectWord("false")
            return located(.bool(false))
        case UInt8(ascii: "n"):
            try expectWord("null")
            return located(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                    UInt8(ascii: "+"), UInt8(ascii: "-"):
                    index += 1
                default:
                    return located(.number(String(decoding: bytes[start..<index], as: UTF8.self)))
                }
            }
            return located(.number(String(decoding: bytes[start..<index], as: UTF8.self)))
        default:
            throw error("unexpected character '\(String(decoding: [bytes[index]], as: UTF8.self))' in JSON")
        }
    }

    mutating func expectWord(_ word: String) throws(CodegenError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("invalid JSON literal, expected \(word)")
        }
        index += utf8.count
    }

    mutating func parseString() throws(CodegenError) -> String {
        index += 1  // opening quote
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(8)
                case UInt8(ascii: "f"): scalars.append(12)
                case UInt8(ascii: "n"): scalars.append(10)
                case UInt8(ascii: "r"): scalars.append(13)
                case UInt8(ascii: "t"): scalars.append(9)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try parseHex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low &- 0xDC00)
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 1
                    throw error("invalid escape in a JSON string")
                }
            case 0..<0x20:
                throw error("control character in a JSON string")
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated JSON string")
    }

    mutating func parseHex4() throws(CodegenError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape in a JSON string") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape in a JSON string")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
