import Foundation

/// Turns an introspection result (`{"data": {"__schema": …}}` or `{"__schema": …}`) into SDL,
/// since GraphQLSwift has no `buildClientSchema`. Every structural problem is an error at the
/// JSON value that has it.
enum IntrospectionConverter {
    static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    static let builtInDirectives: Set<String> = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]

    static func sdl(fromIntrospectionJSON text: String, path: String) throws(CodegenError) -> String {
        try convert(text, path: path).sdl
    }

    /// SDL made from an introspection result, with the JSON place each part of it came from.
    struct ConvertedSDL {
        let sdl: String
        /// UTF-8 offsets in `sdl` where a type, field, value or directive starts, with the JSON
        /// value it was made from, in order.
        let marks: [(offset: Int, location: SourceLocation)]
        let path: String

        /// The JSON place of a line and column of the SDL: the value the nearest part before it
        /// was made from.
        func jsonLocation(line: Int, column: Int) -> SourceLocation {
            var offset = 0
            var currentLine = 1
            for byte in sdl.utf8 {
                if currentLine == line { break }
                offset += 1
                if byte == UInt8(ascii: "\n") { currentLine += 1 }
            }
            offset += max(0, column - 1)
            var best = SourceLocation(path: path, line: 1, column: 1)
            for mark in marks {
                if mark.offset > offset { break }
                best = mark.location
            }
            return best
        }
    }

    static func convert(_ text: String, path: String) throws(CodegenError) -> ConvertedSDL {
        let root = try LocatedJSON.parse(text, path: path)
        var converter = Converter(path: path)
        let sdl = try converter.convert(root)
        return ConvertedSDL(sdl: sdl, marks: converter.marks, path: path)
    }

    private struct Converter {
        let path: String
        var output = ""
        var marks: [(offset: Int, location: SourceLocation)] = []

        /// Notes that what is written next comes from `value`.
        mutating func mark(_ value: LocatedJSON) {
            marks.append((output.utf8.count, value.location(in: path)))
        }

        init(path: String) { self.path = path }

        func fail(_ message: String, _ value: LocatedJSON) -> CodegenError {
            CodegenError("invalid introspection result: \(message)", at: value.location(in: path))
        }

        func member(_ object: LocatedJSON, _ key: String, context: String) throws(CodegenError) -> LocatedJSON {
            guard case .object = object.value else { throw fail("\(context) must be an object, not \(object.kindDescription)", object) }
            guard let value = object[key] else { throw fail("\(context) has no \"\(key)\"", object) }
            return value
        }

        func string(_ object: LocatedJSON, _ key: String, context: String) throws(CodegenError) -> String {
            let value = try member(object, key, context: context)
            guard let string = value.stringValue else { throw fail("\"\(key)\" of \(context) must be a string, not \(value.kindDescription)", value) }
            return string
        }

        func optionalString(_ object: LocatedJSON, _ key: String, context: String) throws(CodegenError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let string = value.stringValue else { throw fail("\"\(key)\" of \(context) must be a string, not \(value.kindDescription)", value) }
            return string
        }

        func array(_ object: LocatedJSON, _ key: String, context: String, optional: Bool = false) throws(CodegenError) -> [LocatedJSON] {
            guard let value = object[key], !value.isNull else {
                if optional { return [] }
                throw fail("\(context) has no \"\(key)\"", object)
            }
            guard let elements = value.arrayValue else { throw fail("\"\(key)\" of \(context) must be an array, not \(value.kindDescription)", value) }
            return elements
        }

        mutating func convert(_ root: LocatedJSON) throws(CodegenError) -> String {
            guard case .object = root.value else { throw fail("the top level must be an object, not \(root.kindDescription)", root) }
            var schema: LocatedJSON
            if let data = root["data"] {
                schema = try member(data, "__schema", context: "\"data\"")
            } else if let direct = root["__schema"] {
                schema = direct
            } else {
                throw fail("no \"__schema\" (expected {\"data\": {\"__schema\": …}} or {\"__schema\": …})", root)
            }
            guard case .object = schema.value else { throw fail("\"__schema\" must be an object, not \(schema.kindDescription)", schema) }
            let queryType = try rootTypeName(schema, "queryType", required: true)
            let mutationType = try rootTypeName(schema, "mutationType", required: false)
            let subscriptionType = try rootTypeName(schema, "subscriptionType", required: false)
            mark(schema)
            var rootLine = "schema { query: \(queryType ?? "Query")"
            if let mutationType { rootLine += " mutation: \(mutationType)" }
            if let subscriptionType { rootLine += " subscription: \(subscriptionType)" }
            output += rootLine + " }\n\n"
            for type in try array(schema, "types", context: "\"__schema\"") {
                try convertType(type)
            }
            for directive in try array(schema, "directives", context: "\"__schema\"", optional: true) {
                try convertDirective(directive)
            }
            return output
        }

        func rootTypeName(_ schema: LocatedJSON, _ key: String, required: Bool) throws(CodegenError) -> String? {
            guard let value = schema[key], !value.isNull else {
                if required { throw fail("\"__schema\" has no \"\(key)\"", schema) }
                return nil
            }
            return try string(value, "name", context: "\"\(key)\"")
        }

        mutating func describe(_ object: LocatedJSON, indent: String, context: String) throws(CodegenError) {
            guard let description = try optionalString(object, "description", context: context), !description.isEmpty else { return }
            let escaped = description.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
            output += indent + "\"\"\"\n"
            for line in escaped.split(separator: "\n", omittingEmptySubsequences: false) {
                output += indent + line + "\n"
            }
            output += indent + "\"\"\"\n"
        }

        func deprecation(_ object: LocatedJSON, context: String) throws(CodegenError) -> String {
            guard let flag = object["isDeprecated"], case .bool(true) = flag.value else { return "" }
            guard let reason = try optionalString(object, "deprecationReason", context: context) else { return " @deprecated" }
            return " @deprecated(reason: \(quoted(reason)))"
        }

        /// A GraphQL string literal (the document printer's escaping).
        func quoted(_ text: String) -> String { DocumentPrinter.quoted(text) }

        func typeReference(_ value: LocatedJSON, context: String, depth: Int = 0) throws(CodegenError) -> String {
            guard depth < 32 else { throw fail("type reference nested too deeply", value) }
            let kind = try string(value, "kind", context: context)
            switch kind {
            case "NON_NULL":
                let inner = try member(value, "ofType", context: context)
                guard !inner.isNull else { throw fail("NON_NULL type without \"ofType\"", value) }
                let innerKind = try string(inner, "kind", context: context)
                if innerKind == "NON_NULL" { throw fail("NON_NULL of NON_NULL", inner) }
                return try typeReference(inner, context: context, depth: depth + 1) + "!"
            case "LIST":
                let inner = try member(value, "ofType", context: context)
                guard !inner.isNull else { throw fail("LIST type without \"ofType\"", value) }
                return "[" + (try typeReference(inner, context: context, depth: depth + 1)) + "]"
            case "SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT":
                return try string(value, "name", context: context)
            default:
                throw fail("unknown type kind \"\(kind)\"", value)
            }
        }

        mutating func arguments(_ owner: LocatedJSON, key: String, context: String) throws(CodegenError) -> String {
            let args = try array(owner, key, context: context, optional: true)
            if args.isEmpty { return "" }
            var parts: [String] = []
            for arg in args {
                let name = try string(arg, "name", context: "an argument of \(context)")
                var text = "\(name): \(try typeReference(try member(arg, "type", context: "argument \(name)"), context: "argument \(name)"))"
                if let defaultValue = try optionalString(arg, "defaultValue", context: "argument \(name)") {
                    text += " = \(defaultValue)"
                }
                text += try deprecation(arg, context: "argument \(name)")
                parts.append(text)
            }
            return "(" + parts.joined(separator: ", ") + ")"
        }

        func interfaces(_ type: LocatedJSON, context: String) throws(CodegenError) -> String {
            let list = try array(type, "interfaces", context: context, optional: true)
            if list.isEmpty { return "" }
            var names: [String] = []
            for interface in list { names.append(try string(interface, "name", context: "an interface of \(context)")) }
            return " implements " + names.joined(separator: " & ")
        }

        mutating func convertType(_ type: LocatedJSON) throws(CodegenError) {
            let kind = try string(type, "kind", context: "a type")
            let name = try string(type, "name", context: "a type")
            let context = "type \(name)"
            if name.hasPrefix("__") { return }
            mark(type)
            switch kind {
            case "SCALAR":
                if IntrospectionConverter.builtInScalars.contains(name) { return }
                try describe(type, indent: "", context: context)
                var line = "scalar \(name)"
                if let url = try optionalString(type, "specifiedByURL", context: context) { line += " @specifiedBy(url: \(quoted(url)))" }
                output += line + "\n\n"
            case "OBJECT", "INTERFACE":
                try describe(type, indent: "", context: context)
                output += (kind == "OBJECT" ? "type " : "interface ") + name + (try interfaces(type, context: context)) + " {\n"
                let fields = try array(type, "fields", context: context)
                if fields.isEmpty { throw fail("\(context) has no fields", type) }
                for field in fields {
                    let fieldName = try string(field, "name", context: "a field of \(context)")
                    let fieldContext = "field \(name).\(fieldName)"
                    mark(field)
                    try describe(field, indent: "  ", context: fieldContext)
                    output += "  \(fieldName)\(try arguments(field, key: "args", context: fieldContext)): "
                    output += try typeReference(try member(field, "type", context: fieldContext), context: fieldContext)
                    output += try deprecation(field, context: fieldContext) + "\n"
                }
                output += "}\n\n"
            case "UNION":
                try describe(type, indent: "", context: context)
                var members: [String] = []
                for possible in try array(type, "possibleTypes", context: context) {
                    members.append(try string(possible, "name", context: "a possible type of \(context)"))
                }
                if members.isEmpty { throw fail("\(context) has no possible types", type) }
                output += "union \(name) = " + members.joined(separator: " | ") + "\n\n"
            case "ENUM":
                try describe(type, indent: "", context: context)
                output += "enum \(name) {\n"
                let values = try array(type, "enumValues", context: context)
                if values.isEmpty { throw fail("\(context) has no values", type) }
                for value in values {
                    let valueName = try string(value, "name", context: "a value of \(context)")
                    mark(value)
                    try describe(value, indent: "  ", context: "\(name).\(valueName)")
                    output += "  \(valueName)\(try deprecation(value, context: "\(name).\(valueName)"))\n"
                }
                output += "}\n\n"
            case "INPUT_OBJECT":
                try describe(type, indent: "", context: context)
                var header = "input \(name)"
                if let oneOf = type["isOneOf"], case .bool(true) = oneOf.value { header += " @oneOf" }
                output += header + " {\n"
                let fields = try array(type, "inputFields", context: context)
                if fields.isEmpty { throw fail("\(context) has no input fields", type) }
                for field in fields {
                    let fieldName = try string(field, "name", context: "an input field of \(context)")
                    let fieldContext = "input field \(name).\(fieldName)"
                    mark(field)
                    try describe(field, indent: "  ", context: fieldContext)
                    output += "  \(fieldName): " + (try typeReference(try member(field, "type", context: fieldContext), context: fieldContext))
                    if let defaultValue = try optionalString(field, "defaultValue", context: fieldContext) { output += " = \(defaultValue)" }
                    output += try deprecation(field, context: fieldContext) + "\n"
                }
                output += "}\n\n"
            default:
                throw fail("unknown type kind \"\(kind)\" of \(context)", type["kind"] ?? type)
            }
        }

        mutating func convertDirective(_ directive: LocatedJSON) throws(CodegenError) {
            let name = try string(directive, "name", context: "a directive")
            if IntrospectionConverter.builtInDirectives.contains(name) { return }
            let context = "directive @\(name)"
            var locations: [String] = []
            for location in try array(directive, "locations", context: context) {
                guard let text = location.stringValue else { throw fail("a location of \(context) must be a string", location) }
                locations.append(text)
            }
            if locations.isEmpty { throw fail("\(context) has no locations", directive) }
            mark(directive)
            try describe(directive, indent: "", context: context)
            var line = "directive @\(name)\(try arguments(directive, key: "args", context: context))"
            if let repeatable = directive["isRepeatable"], case .bool(true) = repeatable.value { line += " repeatable" }
            output += line + " on " + locations.joined(separator: " | ") + "\n\n"
        }
    }
}
