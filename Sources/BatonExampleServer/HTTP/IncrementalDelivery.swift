import Foundation
import GraphQL
import Hummingbird
import OrderedCollections

/// The two formats of incremental (`@defer`/`@stream`) responses the server speaks, chosen by
/// the request's `Accept` header.
enum IncrementalFormat: Sendable {
    /// The GraphQL spec draft (graphql-js 17): `pending`, `incremental` with ids, `completed`.
    case specDraft
    /// Apollo's `deferSpec=20220824`: `incremental: [{data | items, path, label}]`.
    case deferSpec20220824

    /// The format of the first `multipart/mixed` range of an `Accept` header: `deferSpec=20220824`
    /// picks Apollo's format; any other (`incrementalDeliverySpec=…`, `incrementalSpec=…`, none)
    /// the spec draft. Nil when the header accepts no `multipart/mixed`.
    static func negotiate(accept: String?) -> IncrementalFormat? {
        guard let accept else { return nil }
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "multipart/mixed" else { continue }
            if parts.dropFirst().contains(where: { $0.replacingOccurrences(of: " ", with: "") == "deferspec=20220824" }) {
                return .deferSpec20220824
            }
            return .specDraft
        }
        return nil
    }

    var contentType: String {
        switch self {
        case .specDraft: return "multipart/mixed; boundary=\"-\"; incrementalDeliverySpec=3283f8a"
        case .deferSpec20220824: return "multipart/mixed; boundary=\"-\"; deferSpec=20220824"
        }
    }
}

/// `@defer` and `@stream` for an executor that has neither (GraphQLSwift 4.3.0): the document is
/// executed with the directives cut out of its text, and the result is then split along them
/// into an initial payload and later ones (each deferred fragment's fields; each streamed list
/// item after `initialCount`), sent as separate `multipart/mixed` parts a little apart.
struct IncrementalDelivery {
    /// The pause between parts, so clients really receive them separately.
    static let pause: Duration = .milliseconds(30)

    let document: Document
    let variables: [String: Map]
    let operationName: String?

    /// A later payload.
    enum Payload {
        case deferred(path: [Map], label: String?, data: OrderedDictionary<String, Map>)
        case streamed(path: [Map], label: String?, items: [Map], startIndex: Int)
    }

    /// The source without its `@defer` and `@stream` directives; nil when it has none.
    static func strippingDirectives(from source: String, document: Document) -> String? {
        let bytes = Array(source.utf8)
        var ranges: [Range<Int>] = []
        /// From `@`: the name, then the arguments in parentheses up to the matching `)`, skipping
        /// strings (the parser's own location of a directive covers only its `@`).
        func directiveRange(from start: Int) -> Range<Int> {
            var position = start + 1
            while position < bytes.count, bytes[position] == UInt8(ascii: "_") || (bytes[position] >= 0x30 && bytes[position] <= 0x39)
                || (bytes[position] | 0x20 >= 0x61 && bytes[position] | 0x20 <= 0x7A)
            {
                position += 1
            }
            var look = position
            while look < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x2C].contains(bytes[look]) { look += 1 }
            guard look < bytes.count, bytes[look] == UInt8(ascii: "(") else { return start..<position }
            var inString = false
            look += 1
            while look < bytes.count {
                let byte = bytes[look]
                if inString {
                    if byte == UInt8(ascii: "\\") { look += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: ")") {
                    return start..<(look + 1)
                }
                look += 1
            }
            return start..<bytes.count
        }
        func visit(_ selectionSet: SelectionSet?) {
            guard let selectionSet else { return }
            for selection in selectionSet.selections {
                let directives: [Directive]
                switch selection {
                case let field as Field:
                    directives = field.directives
                    visit(field.selectionSet)
                case let fragment as InlineFragment:
                    directives = fragment.directives
                    visit(fragment.selectionSet)
                case let spread as FragmentSpread:
                    directives = spread.directives
                default:
                    directives = []
                }
                for directive in directives where ["defer", "stream"].contains(directive.name.value) {
                    if let loc = directive.loc, loc.start < bytes.count { ranges.append(directiveRange(from: loc.start)) }
                }
            }
        }
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition { visit(operation.selectionSet) }
            if let fragment = definition as? FragmentDefinition { visit(fragment.selectionSet) }
        }
        guard !ranges.isEmpty else { return nil }
        var stripped = bytes
        for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) where range.upperBound <= stripped.count {
            stripped.replaceSubrange(range, with: [UInt8(ascii: " ")])
        }
        return String(decoding: stripped, as: UTF8.self)
    }

    /// Splits executed data into the initial data and the later payloads, in delivery order.
    func split(_ data: OrderedDictionary<String, Map>) -> (initial: OrderedDictionary<String, Map>, payloads: [Payload]) {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        guard let operation = operations.first(where: { operationName == nil || $0.name?.value == operationName }) else {
            return (data, [])
        }
        var payloads: [Payload] = []
        let initial = split(operation.selectionSet, object: data, path: [], payloads: &payloads)
        return (initial, payloads)
    }

    private func split(
        _ selectionSet: SelectionSet, object: OrderedDictionary<String, Map>, path: [Map], payloads: inout [Payload]
    ) -> OrderedDictionary<String, Map> {
        var fields: [Field] = []
        var deferred: [(label: String?, selectionSet: SelectionSet)] = []
        collect(selectionSet, fields: &fields, deferred: &deferred)

        var initial: OrderedDictionary<String, Map> = [:]
        var initialKeys: Set<String> = []
        for field in fields { initialKeys.insert(field.alias?.value ?? field.name.value) }
        for (key, value) in object where initialKeys.contains(key) {
            let selected = fields.filter { ($0.alias?.value ?? $0.name.value) == key }
            var kept = value
            if case .array(let items) = value, let stream = selected.lazy.compactMap({ self.directive("stream", in: $0.directives) }).first {
                let initialCount = max(0, intArgument("initialCount", of: stream) ?? 0)
                if items.count > initialCount {
                    kept = .array(Array(items[..<initialCount]))
                    payloads.append(
                        .streamed(
                            path: path + [.string(key)], label: stringArgument("label", of: stream),
                            items: Array(items[initialCount...]), startIndex: initialCount))
                }
            }
            let subselections = selected.compactMap(\.selectionSet)
            if !subselections.isEmpty {
                kept = split(kept, subselections: subselections, path: path + [.string(key)], payloads: &payloads)
            }
            initial[key] = kept
        }

        for group in deferred {
            var groupFields: [Field] = []
            var nested: [(label: String?, selectionSet: SelectionSet)] = []
            collect(group.selectionSet, fields: &groupFields, deferred: &nested, flattenDeferred: true)
            let keys = Set(groupFields.map { $0.alias?.value ?? $0.name.value })
            guard object.keys.contains(where: keys.contains) else { continue }  // type condition did not match
            var data: OrderedDictionary<String, Map> = [:]
            for (key, value) in object where keys.contains(key) && !initialKeys.contains(key) {
                data[key] = value
            }
            payloads.append(.deferred(path: path, label: group.label, data: data))
        }
        return initial
    }

    /// Splits the objects inside a field's value (an object or a list of them).
    private func split(_ value: Map, subselections: [SelectionSet], path: [Map], payloads: inout [Payload]) -> Map {
        switch value {
        case .dictionary(let object):
            var result = object
            for selectionSet in subselections {
                result = split(selectionSet, object: result, path: path, payloads: &payloads)
            }
            return .dictionary(result)
        case .array(let items):
            return .array(
                items.enumerated().map { index, item in
                    split(item, subselections: subselections, path: path + [.number(Number(index))], payloads: &payloads)
                })
        default:
            return value
        }
    }

    /// The fields a selection set selects at its level (through fragments that are not deferred)
    /// and its deferred fragments; `flattenDeferred` takes deferred fragments' fields as well.
    private func collect(
        _ selectionSet: SelectionSet, fields: inout [Field], deferred: inout [(label: String?, selectionSet: SelectionSet)],
        flattenDeferred: Bool = false
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                fields.append(field)
            case let fragment as InlineFragment:
                if !flattenDeferred, let directive = directive("defer", in: fragment.directives) {
                    deferred.append((stringArgument("label", of: directive), fragment.selectionSet))
                } else {
                    collect(fragment.selectionSet, fields: &fields, deferred: &deferred, flattenDeferred: flattenDeferred)
                }
            case let spread as FragmentSpread:
                guard
                    let definition = document.definitions.lazy.compactMap({ $0 as? FragmentDefinition })
                        .first(where: { $0.name.value == spread.name.value })
                else { continue }
                if !flattenDeferred, let directive = directive("defer", in: spread.directives) {
                    deferred.append((stringArgument("label", of: directive), definition.selectionSet))
                } else {
                    collect(definition.selectionSet, fields: &fields, deferred: &deferred, flattenDeferred: flattenDeferred)
                }
            default:
                break
            }
        }
    }

    /// The directive `name` when it applies (its `if` is not false).
    private func directive(_ name: String, in directives: [Directive]) -> Directive? {
        guard let directive = directives.first(where: { $0.name.value == name }) else { return nil }
        if let condition = directive.arguments.first(where: { $0.name.value == "if" })?.value {
            if let literal = condition as? BooleanValue, !literal.value { return nil }
            if let variable = condition as? Variable, variables[variable.name.value]?.bool == false { return nil }
        }
        return directive
    }

    private func stringArgument(_ name: String, of directive: Directive) -> String? {
        (directive.arguments.first { $0.name.value == name }?.value as? StringValue)?.value
    }

    private func intArgument(_ name: String, of directive: Directive) -> Int? {
        let value = directive.arguments.first { $0.name.value == name }?.value
        if let literal = value as? IntValue { return Int(literal.value) }
        if let variable = value as? Variable { return variables[variable.name.value]?.int }
        return nil
    }

    // MARK: The response

    /// The `multipart/mixed` response: the initial payload, then the later ones.
    func response(
        data: OrderedDictionary<String, Map>?, errors: [GraphQLError], format: IncrementalFormat
    ) -> Response {
        let (initial, payloads) = data.map { split($0) } ?? ([:], [])
        var parts: [Map] = []
        var first: OrderedDictionary<String, Map> = ["data": data == nil ? .null : .dictionary(initial)]
        if !errors.isEmpty {
            first["errors"] = (try? JSONDecoder().decode(Map.self, from: GraphQLResponseBody.encode(data: nil, includesData: false, errors: errors)))?
                .dictionary?["errors"]
        }
        switch format {
        case .specDraft:
            if !payloads.isEmpty {
                first["pending"] = .array(
                    payloads.enumerated().map { id, payload in
                        var entry: OrderedDictionary<String, Map> = ["id": .string(String(id))]
                        switch payload {
                        case .deferred(let path, let label, _), .streamed(let path, let label, _, _):
                            entry["path"] = .array(path)
                            if let label { entry["label"] = .string(label) }
                        }
                        return .dictionary(entry)
                    })
            }
            parts.append(.dictionary(first))
            for (id, payload) in payloads.enumerated() {
                let completed: Map = .array([.dictionary(["id": .string(String(id))])])
                switch payload {
                case .deferred(_, _, let data):
                    parts.append(
                        .dictionary([
                            "incremental": .array([.dictionary(["id": .string(String(id)), "data": .dictionary(data)])]),
                            "completed": completed,
                        ]))
                case .streamed(_, _, let items, _):
                    for (index, item) in items.enumerated() {
                        var part: OrderedDictionary<String, Map> = [
                            "incremental": .array([.dictionary(["id": .string(String(id)), "items": .array([item])])])
                        ]
                        if index == items.count - 1 { part["completed"] = completed }
                        parts.append(.dictionary(part))
                    }
                }
            }
        case .deferSpec20220824:
            parts.append(.dictionary(first))
            for payload in payloads {
                switch payload {
                case .deferred(let path, let label, let data):
                    var entry: OrderedDictionary<String, Map> = ["data": .dictionary(data), "path": .array(path)]
                    if let label { entry["label"] = .string(label) }
                    parts.append(.dictionary(["incremental": .array([.dictionary(entry)])]))
                case .streamed(let path, let label, let items, let startIndex):
                    for (offset, item) in items.enumerated() {
                        var entry: OrderedDictionary<String, Map> = [
                            "items": .array([item]), "path": .array(path + [.number(Number(startIndex + offset))]),
                        ]
                        if let label { entry["label"] = .string(label) }
                        parts.append(.dictionary(["incremental": .array([.dictionary(entry)])]))
                    }
                }
            }
        }
        let bodies: [Data] = parts.enumerated().map { index, part in
            guard case .dictionary(var object) = part else { return Data() }
            object["hasNext"] = .bool(index < parts.count - 1)
            return (try? Self.encoder.encode(Map.dictionary(object))) ?? Data(#"{"hasNext":false}"#.utf8)
        }
        let body = ResponseBody { writer in
            // Each chunk ends with the delimiter after its part, so a client knows the part is
            // complete without waiting for the next one.
            for (index, json) in bodies.enumerated() {
                if index > 0 { try await Task.sleep(for: Self.pause) }
                var chunk = ByteBuffer(string: index == 0 ? "\r\n---\r\n" : "\r\n")
                chunk.writeString("content-type: application/json; charset=utf-8\r\n\r\n")
                chunk.writeBytes(json)
                chunk.writeString(index == bodies.count - 1 ? "\r\n-----\r\n" : "\r\n---")
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: format.contentType], body: body)
    }

    private static var encoder: GraphQLJSONEncoder {
        let encoder = GraphQLJSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
