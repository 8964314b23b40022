/// Descriptions on operations, fragments and variable definitions (GraphQL, September 2025:
/// `"""Doc""" query Q("The id" $id: ID!) { … }`), which the parser Baton uses does not know yet.
/// They mean nothing to validation or execution, so they are blanked out before parsing, with
/// spaces and the same line breaks so that every location stays the file's, and are not sent.
enum ExecutableDescriptions {
    /// `text` with each description of an operation, fragment or variable definition blanked.
    static func blanked(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var ranges: [Range<Int>] = []
        var braces = 0, parentheses = 0, brackets = 0
        /// The first scalar of the last token outside comments and whitespace (a string after
        /// `=` or `:` is a value, not a description), and whether the parentheses open at the
        /// top level hold an operation's variable definitions.
        var previous: Unicode.Scalar = " "
        var inVariableDefinitions = false
        var pending: Range<Int>?
        var index = 0

        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }

        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r", ",", "\u{FEFF}":
                index += 1
                continue
            case "#":
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
                continue
            default:
                break
            }
            // A description so far waits for the token after it.
            let waiting = pending
            pending = nil
            if scalar == "\"" {
                let start = index
                if index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                    index += 3
                    while index < scalars.count {
                        if scalars[index] == "\\", index + 3 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"",
                            scalars[index + 3] == "\""
                        {
                            index += 4
                        } else if scalars[index] == "\"", index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                            index += 3
                            break
                        } else {
                            index += 1
                        }
                    }
                } else {
                    index += 1
                    while index < scalars.count, scalars[index] != "\"", scalars[index] != "\n", scalars[index] != "\r" {
                        index += scalars[index] == "\\" ? 2 : 1
                    }
                    index = min(index + 1, scalars.count)
                }
                let topLevel = braces == 0 && parentheses == 0 && brackets == 0
                let variable = inVariableDefinitions && braces == 0 && parentheses == 1 && brackets == 0 && previous != "=" && previous != ":"
                if topLevel || variable { pending = start..<index }
                previous = "\""
                continue
            }
            if isNameScalar(scalar) {
                let start = index
                while index < scalars.count, isNameScalar(scalars[index]) { index += 1 }
                // The name is made only after a description, to see whether a definition follows.
                if let waiting, braces == 0, parentheses == 0,
                    ["query", "mutation", "subscription", "fragment"].contains(String(String.UnicodeScalarView(scalars[start..<index])))
                {
                    ranges.append(waiting)
                }
                previous = scalar
                continue
            }
            if scalar == "$", let waiting { ranges.append(waiting) }
            switch scalar {
            case "{": braces += 1
            case "}": braces -= 1
            case "[": brackets += 1
            case "]": brackets -= 1
            case "(":
                if braces == 0, parentheses == 0 { inVariableDefinitions = true }
                parentheses += 1
            case ")":
                parentheses -= 1
                if parentheses == 0 { inVariableDefinitions = false }
            default: break
            }
            previous = scalar
            index += 1
        }
        guard !ranges.isEmpty else { return text }
        var result = scalars
        for range in ranges {
            for position in range where result[position] != "\n" && result[position] != "\r" { result[position] = " " }
        }
        return String(String.UnicodeScalarView(result))
    }
}
