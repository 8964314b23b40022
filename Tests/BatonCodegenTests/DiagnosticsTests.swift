import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Every diagnostic says where, one per line: unknown directives and directive arguments in
/// schemas (SDL and introspection JSON) and documents.
@Suite("Diagnostics", .ownThread)
struct DiagnosticsTests {
    func schemaErrors(_ name: String, _ text: String, documents: [String: String] = [:]) throws -> String {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write(name, text)
        for (file, document) in documents { try generation.write(file, document) }
        return generation.errors(schemaPaths: [generation.path(name)])
    }

    func documentErrors(_ files: [String: String]) throws -> String {
        let generation = try Generation()
        defer { generation.remove() }
        for (name, text) in files { try generation.write(name, text) }
        return generation.errors()
    }

    @Test func unknownDirectivesInSDLEachHaveTheirPlace() throws {
        #expect(
            try schemaErrors("schema.graphqls", "type Query {\n  a: Int @foo\n  b: Int @bar(x: 1)\n}\n")
                == """
                $DIR/schema.graphqls:2:10: error: Unknown directive "@foo".
                $DIR/schema.graphqls:3:10: error: Unknown directive "@bar".
                """)
    }

    @Test func unknownArgumentsOfSchemaDirectivesHaveTheirPlace() throws {
        #expect(
            try schemaErrors("schema.graphqls", "directive @cached(ttl: Int) on FIELD_DEFINITION\ntype Query {\n  a: Int @cached(tll: 1)\n  b: Int @deprecated(because: \"x\")\n}\n")
                == """
                $DIR/schema.graphqls:3:18: error: Unknown argument "tll" on directive "@cached".
                $DIR/schema.graphqls:4:22: error: Unknown argument "because" on directive "@deprecated".
                """)
    }

    @Test func errorsOfAnIntrospectionResultArePlacedInTheJSON() throws {
        let json = """
            {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "a", "args": [], "type": {"kind": "SCALAR", "name": "Int"}},
                {"name": "b", "args": [], "type": {"kind": "OBJECT", "name": "Missing"}}]}
            ]}}
            """
        #expect(try schemaErrors("schema.json", json) == "$DIR/schema.json:4:5: error: Unknown type \"Missing\".")
    }

    @Test func unknownArgumentOfAFieldsDirectiveIsTheDirectives() throws {
        #expect(
            try documentErrors(["a.graphql": "query A {\n  hero {\n    name @include(if: true, bogus: 1)\n  }\n}\n"])
                == "$DIR/a.graphql:3:29: error: Unknown argument \"bogus\" on directive \"@include\".")
    }

    @Test func unknownArgumentsOfFragmentLevelDirectivesAreErrors() throws {
        let text = """
            fragment F on User @refetchable(queryName: "FRefetch", bogus: 1) {
              id
              ... on User @include(if: true, bogus: 2) { email }
            }
            """
        #expect(
            try documentErrors(["f.graphql": text])
                == """
                $DIR/f.graphql:1:56: error: Unknown argument "bogus" on directive "@refetchable".
                $DIR/f.graphql:3:34: error: Unknown argument "bogus" on directive "@include".
                """)
    }

    @Test func anUnknownDirectiveInADocumentIsOneErrorNotOnePerArgument() throws {
        #expect(
            try documentErrors(["a.graphql": "query A {\n  hero {\n    name @notADirective(to: NULL)\n  }\n}\n"])
                == "$DIR/a.graphql:3:10: error: Unknown directive \"@notADirective\".")
    }

    @Test func everyDiagnosticLineSaysWhere() throws {
        let printed = try schemaErrors("schema.graphqls", "type Query {\n  a: Int @foo\n  b: Int @bar\n  c: Int @baz\n}\n")
        let lines = printed.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("$DIR/schema.graphqls:") && $0.contains(": error: ") })
    }
}
