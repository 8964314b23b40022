/// Finds `graphql("""…""")` and `graphql("…")` literals in Swift source. The result keeps the
/// file's layout: every byte outside a literal's contents becomes a space (newlines stay), so the
/// GraphQL parser's lines and columns are the Swift file's.
enum SwiftLiteralExtractor {
    /// The blanked text, or `nil` when the file has no `graphql(` literal.
    static func extract(from swift: String, path: String) throws(CodegenError) -> String? {
        let bytes = Array(swift.utf8)
        var keep = [Bool](repeating: false, count: bytes.count)
        let marker = Array("graphql(".utf8)
        var found = false
        var index = 0
        func location(_ offset: Int) -> SourceLocation {
            var l = 1
            var start = 0
            for i in 0..<offset where bytes[i] == UInt8(ascii: "\n") {
                l += 1
                start = i + 1
            }
            return SourceLocation(path: path, line: l, column: offset - start + 1)
        }
        while index < bytes.count {
            // Comments are skipped: `// graphql("…")` is not a document.
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "/") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                    continue
                }
                if bytes[index + 1] == UInt8(ascii: "*") {
                    var depth = 1
                    index += 2
                    while index < bytes.count, depth > 0 {
                        if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                            depth += 1
                            index += 2
                        } else if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                            depth -= 1
                            index += 2
                        } else {
                            index += 1
                        }
                    }
                    continue
                }
            }
            // `graphql(` not preceded by an identifier character.
            guard bytes[index] == marker[0], index + marker.count <= bytes.count,
                Array(bytes[index..<index + marker.count]) == marker,
                index == 0 || !isIdentifier(bytes[index - 1])
            else {
                index += 1
                continue
            }
            var cursor = index + marker.count
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            found = true
            let isMultiline = cursor + 2 < bytes.count && bytes[cursor + 1] == UInt8(ascii: "\"") && bytes[cursor + 2] == UInt8(ascii: "\"")
            let contentStart = cursor + (isMultiline ? 3 : 1)
            var end = contentStart
            var closed = false
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\\") {
                    if end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "(") {
                        throw CodegenError("string interpolation is not allowed in a graphql literal", at: location(end))
                    }
                    end += 2
                    continue
                }
                if isMultiline {
                    if byte == UInt8(ascii: "\""), end + 2 < bytes.count, bytes[end + 1] == UInt8(ascii: "\""),
                        bytes[end + 2] == UInt8(ascii: "\"")
                    {
                        closed = true
                        break
                    }
                } else {
                    if byte == UInt8(ascii: "\"") { closed = true; break }
                    if byte == UInt8(ascii: "\n") { break }
                }
                end += 1
            }
            guard closed else { throw CodegenError("unterminated graphql literal", at: location(cursor)) }
            for i in contentStart..<min(end, bytes.count) { keep[i] = true }
            index = end + (isMultiline ? 3 : 1)
        }
        guard found else { return nil }
        var output = bytes
        for i in 0..<output.count where !keep[i] && output[i] != UInt8(ascii: "\n") && output[i] != UInt8(ascii: "\r") {
            output[i] = UInt8(ascii: " ")
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
