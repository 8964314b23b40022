import Foundation

/// Expands file globs: `*` and `?` within a path component, `**` across folders.
enum Glob {
    /// The files matching the pattern, sorted; a pattern without wildcards is the file itself.
    static func expand(_ pattern: String) throws(CodegenError) -> [String] {
        let fileManager = FileManager.default
        guard pattern.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) else {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: pattern, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw CodegenError("no such document file: \(pattern)")
            }
            return [pattern]
        }
        // The fixed folder before the first wildcard, walked recursively.
        var components = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var base: [String] = []
        while let first = components.first, !first.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) {
            base.append(first)
            components.removeFirst()
        }
        let basePath = base.isEmpty ? "." : (base.joined(separator: "/").isEmpty ? "/" : base.joined(separator: "/"))
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: "^" + regexSource(components.joined(separator: "/")) + "$")
        } catch {
            throw CodegenError("invalid glob: \(pattern)")
        }
        guard let enumerator = fileManager.enumerator(atPath: basePath) else { return [] }
        var matches: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasPrefix(".build") || relative.contains("/.build") || relative.hasPrefix(".git") {
                enumerator.skipDescendants()
                continue
            }
            let range = NSRange(relative.startIndex..., in: relative)
            guard regex.firstMatch(in: relative, range: range) != nil else { continue }
            let full = basePath == "." && !pattern.hasPrefix("./") ? relative : basePath + "/" + relative
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                matches.append(full)
            }
        }
        return matches.sorted()
    }

    static func regexSource(_ glob: String) -> String {
        var result = ""
        var characters = Array(glob)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*":
                if characters.first == "*" {
                    characters.removeFirst()
                    if characters.first == "/" {
                        characters.removeFirst()
                        result += "(?:.*/)?"
                    } else {
                        result += ".*"
                    }
                } else {
                    result += "[^/]*"
                }
            case "?": result += "[^/]"
            case "[": result += "["
            case "]": result += "]"
            default: result += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return result
    }
}
