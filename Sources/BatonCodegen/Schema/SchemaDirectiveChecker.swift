import GraphQL

/// Finds directives an SDL document uses but does not declare, and arguments a directive does
/// not define, with their places: GraphQLSwift's schema builder reports them in one message
/// without a location.
enum SchemaDirectiveChecker {
    /// The directives every schema has, with their arguments.
    static let builtIn: [String: Set<String>] = [
        "include": ["if"], "skip": ["if"], "deprecated": ["reason"], "specifiedBy": ["url"], "oneOf": [],
    ]

    static func errors(in definitions: [any Definition]) -> [CodegenError] {
        var declared = builtIn
        for case let directive as DirectiveDefinition in definitions {
            declared[directive.name.value] = Set(directive.arguments.map(\.name.value))
        }
        var errors: [CodegenError] = []
        func check(_ directives: [Directive]) {
            for directive in directives {
                guard let arguments = declared[directive.name.value] else {
                    errors.append(CodegenError("Unknown directive \"@\(directive.name.value)\".", at: .of(directive)))
                    continue
                }
                for argument in directive.arguments where !arguments.contains(argument.name.value) {
                    errors.append(CodegenError("Unknown argument \"\(argument.name.value)\" on directive \"@\(directive.name.value)\".", at: .of(argument)))
                }
            }
        }
        func inputValues(_ values: [InputValueDefinition]) {
            for value in values { check(value.directives) }
        }
        func fields(_ fields: [FieldDefinition]) {
            for field in fields {
                check(field.directives)
                inputValues(field.arguments)
            }
        }
        for definition in definitions {
            switch definition {
            case let schema as SchemaDefinition: check(schema.directives)
            case let schema as SchemaExtensionDefinition: check(schema.definition.directives)
            case let scalar as ScalarTypeDefinition: check(scalar.directives)
            case let scalar as ScalarExtensionDefinition: check(scalar.directives)
            case let object as ObjectTypeDefinition:
                check(object.directives)
                fields(object.fields)
            case let object as TypeExtensionDefinition:
                check(object.definition.directives)
                fields(object.definition.fields)
            case let interface as InterfaceTypeDefinition:
                check(interface.directives)
                fields(interface.fields)
            case let interface as InterfaceExtensionDefinition:
                check(interface.definition.directives)
                fields(interface.definition.fields)
            case let union as UnionTypeDefinition: check(union.directives)
            case let union as UnionExtensionDefinition: check(union.definition.directives)
            case let enumType as EnumTypeDefinition:
                check(enumType.directives)
                for value in enumType.values { check(value.directives) }
            case let enumType as EnumExtensionDefinition:
                check(enumType.definition.directives)
                for value in enumType.definition.values { check(value.directives) }
            case let input as InputObjectTypeDefinition:
                check(input.directives)
                inputValues(input.fields)
            case let input as InputObjectExtensionDefinition:
                check(input.definition.directives)
                inputValues(input.definition.fields)
            case let directive as DirectiveDefinition:
                inputValues(directive.arguments)
            default:
                break
            }
        }
        return errors
    }

    /// A GraphQLSwift error without a place, split into its messages (it joins several with a
    /// blank line), each placed at the first use in `sources` of the name it quotes (`"@foo"`,
    /// `"Foo"`), else at the start of the first file.
    static func locate(_ message: String, in sources: [(text: String, path: String)]) -> [CodegenError] {
        message.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { part in
            var location = SourceLocation(path: sources.first?.path ?? "<schema>", line: 1, column: 1)
            let quoted = part.split(separator: "\"", omittingEmptySubsequences: false)
            if quoted.count >= 3 {
                let name = String(quoted[1])
                for source in sources {
                    if let found = firstUse(of: name, in: source.text) {
                        location = SourceLocation(path: source.path, line: found.line, column: found.column)
                        break
                    }
                }
            }
            return CodegenError(part, at: location)
        }
    }

    /// The line and column of the first occurrence of `name` as a whole word.
    static func firstUse(of name: String, in text: String) -> (line: Int, column: Int)? {
        guard !name.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        let needle = Array(name.utf8)
        func isWord(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        var line = 1
        var lineStart = 0
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            } else if bytes[index] == needle[0], Array(bytes[index..<index + needle.count]) == needle,
                index == 0 || !isWord(bytes[index - 1]) || needle[0] == UInt8(ascii: "@"),
                index + needle.count == bytes.count || !isWord(bytes[index + needle.count])
            {
                return (line, index - lineStart + 1)
            }
            index += 1
        }
        return nil
    }
}
