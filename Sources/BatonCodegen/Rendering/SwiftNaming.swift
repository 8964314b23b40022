/// How GraphQL names become Swift names.
enum SwiftNaming {
    /// Swift keywords that must be escaped with backticks as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol", "_",
    ]

    /// Type names a nested struct must not take, because generated code refers to them unqualified.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Bool", "Float", "Array", "Optional", "Dictionary", "Set", "Type", "Protocol", "Self",
        "Any", "AnyObject", "Error", "Sendable", "Hashable", "Equatable", "Selection", "Field", "FieldType",
        "TypeCondition", "DataDict", "InputDict", "InputValue", "JSONValue", "JSONObject", "GraphQLEnum",
        "GraphQLNullable", "GraphQLVariables", "SelectionSet", "RootSelectionSet", "InlineFragment", "Fragment", "GraphQLFragment", "GraphQLRefetchableFragment",
        "FragmentContainer", "Fragments", "InclusionCondition", "ClientDirective", "EnumType", "InputObject",
        "CustomScalarType", "GraphQLQuery", "GraphQLMutation", "GraphQLSubscription", "GraphQLOperation",
        "SchemaMetadata", "BatonAPI", "Swift",
    ]

    /// Module names generated code qualifies types with (`BatonAPI.Selection`, `Swift.String`): a
    /// generated top-level type so named would hide the module.
    static let moduleNames: Set<String> = ["BatonAPI", "Swift"]

    /// Names of members that generated types declare (an operation's `Data`, a selection set's
    /// `Fragments`, a refetchable fragment's `RefetchQuery` and `Variables`): inside those types
    /// they hide a top-level type of the same name, which generated code then reaches through `__Name`
    /// (`TypeNames.reference`).
    static let memberTypeNames: Set<String> = ["Data", "Fragments", "RefetchQuery", "Variables"]

    /// An identifier, backticked when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static func capitalized(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    static func lowerFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// The lower-camel name of a fragment's accessor: `CharacterName` → `characterName`,
    /// `URLDetails` → `urlDetails`.
    static func lowerCamel(_ name: String) -> String {
        let characters = Array(name)
        var upperRun = 0
        while upperRun < characters.count, characters[upperRun].isUppercase { upperRun += 1 }
        if upperRun <= 1 { return lowerFirst(name) }
        let lowered = upperRun == characters.count ? upperRun : upperRun - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// The struct name of a field's selections: the response key, capitalized and singular,
    /// without leading underscores unless a digit follows them (`_1x1` stays `_1x1`).
    static func typeName(forResponseKey key: String) -> String {
        let trimmed = key.drop { $0 == "_" }
        return safeIdentifierStart(capitalized(singularize(String(trimmed.isEmpty ? Substring(key) : trimmed))))
    }

    static func singularize(_ word: String) -> String {
        let lower = word.lowercased()
        func drop(_ count: Int, add: String = "") -> String { String(word.dropLast(count)) + add }
        if lower.hasSuffix("ies"), word.count > 3 { return drop(3, add: "y") }
        if lower.hasSuffix("sses") || lower.hasSuffix("ches") || lower.hasSuffix("shes") || lower.hasSuffix("xes")
            || lower.hasSuffix("zzes") || lower.hasSuffix("uses")
        {
            return drop(2)
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") || lower.hasSuffix("species")
            || lower.hasSuffix("series") || lower.hasSuffix("news")
        {
            return word
        }
        if lower.hasSuffix("s"), word.count > 1 { return drop(1) }
        return word
    }

    /// A Swift case name for a GraphQL enum value: `NEW_HOPE` → `newHope`, `NEWHOPE` → `newhope`.
    static func enumCase(_ value: String) -> String {
        let isScreaming = !value.contains { $0.isLowercase }
        if isScreaming {
            let parts = value.split(separator: "_", omittingEmptySubsequences: true).map { $0.lowercased() }
            guard let first = parts.first else { return value }
            let name = first + parts.dropFirst().map { capitalized($0) }.joined()
            let leadingUnderscores = String(value.prefix { $0 == "_" })
            return leadingUnderscores + name
        }
        return lowerFirst(value)
    }

    /// A valid identifier start: names starting with a digit get a leading underscore.
    static func safeIdentifierStart(_ name: String) -> String {
        if let first = name.first, first.isNumber { return "_" + name }
        return name
    }

    /// A Swift string literal.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 { result += "\\u{\(String(scalar.value, radix: 16))}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }

    /// Doc comment lines for a description.
    static func docComment(_ description: String?, indent: String) -> String {
        guard let description, !description.trimmingCharactersInWhitespace.isEmpty else { return "" }
        return description.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let trimmed = String(line).trimmingTrailingWhitespace
                return trimmed.isEmpty ? indent + "///\n" : indent + "/// " + trimmed + "\n"
            }
            .joined()
    }
}

extension String {
    var trimmingCharactersInWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    var trimmingTrailingWhitespace: String {
        String(reversed().drop(while: \.isWhitespace).reversed())
    }
}
