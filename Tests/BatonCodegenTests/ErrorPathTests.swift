import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Every input error is a typed error printed as `path:line:column: error: message`.
@Suite("Error paths", .ownThread)
struct ErrorPathTests {
    func errors(_ files: [String: String], schemaPaths: [String]? = nil) throws -> String {
        let generation = try Generation()
        defer { generation.remove() }
        for (name, text) in files { try generation.write(name, text) }
        return generation.errors(schemaPaths: schemaPaths ?? [TestPaths.exampleSchema.path])
    }

    @Test func syntaxError() throws {
        #expect(try errors(["a.graphql": "query A {\n  hero {\n    name\n"]) == "$DIR/a.graphql:4:1: error: syntax error: Expected Name, found <EOF>")
    }

    @Test func unknownField() throws {
        #expect(
            try errors(["a.graphql": "query A {\n  hero {\n    nam\n  }\n}\n"])
                == "$DIR/a.graphql:3:5: error: Cannot query field \"nam\" on type \"Character\". Did you mean \"name\"?")
    }

    @Test func unknownType() throws {
        #expect(
            try errors(["a.graphql": "query A($e: Episod) {\n  hero(episode: $e) { name }\n}\n"])
                == "$DIR/a.graphql:1:13: error: Unknown type \"Episod\". Did you mean \"Episode\"?")
    }

    @Test func wrongVariableType() throws {
        #expect(
            try errors(["a.graphql": "query A($e: String) {\n  hero(episode: $e) { name }\n}\n"])
                == """
                $DIR/a.graphql:1:9: error: Variable "$e" of type "String" used in position expecting type "Episode".
                $DIR/a.graphql:2:17: note: also here
                """)
    }

    @Test func duplicateOperationNamesBothPlaces() throws {
        #expect(
            try errors(["a.graphql": "query A { hero { name } }\n", "b.graphql": "query B { hero { id } }\n\nquery A { hero { id } }\n"])
                == """
                $DIR/b.graphql:3:1: error: duplicate operation name "A"
                $DIR/a.graphql:1:1: note: "A" first defined here
                """)
    }

    @Test func duplicateFragmentNamesBothPlaces() throws {
        #expect(
            try errors([
                "a.graphql": "query A { hero { ...F } }\nfragment F on Character { name }\n",
                "b.graphql": "\n  fragment F on Character { id }\n",
            ])
                == """
                $DIR/b.graphql:2:3: error: duplicate fragment name "F"
                $DIR/a.graphql:2:1: note: "F" first defined here
                """)
    }

    @Test func anOperationAndAFragmentMayShareAName() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("a.graphql", "query HeroDetails { hero { ...HeroDetails } }\nfragment HeroDetails on Character { name }\n")
        let output = try generation.generate()
        #expect(output.files.map(\.relativePath).contains("Operations/HeroDetailsQuery.swift"))
        #expect(output.files.map(\.relativePath).contains("Fragments/HeroDetails.swift"))
    }

    @Test func missingFragment() throws {
        #expect(try errors(["a.graphql": "query A {\n  hero { ...Missing }\n}\n"]) == "$DIR/a.graphql:2:13: error: Unknown fragment \"Missing\".")
    }

    @Test func impossibleTypeCondition() throws {
        #expect(
            try errors(["a.graphql": "query A { hero { ... on Starship { name } } }\n"])
                == "$DIR/a.graphql:1:18: error: Fragment cannot be spread here as objects of type \"Character\" can never be of type \"Starship\".")
    }

    @Test func anonymousOperation() throws {
        #expect(try errors(["a.graphql": "{ hero { name } }\n"]) == "$DIR/a.graphql:1:1: error: an operation needs a name to be generated")
    }

    @Test func conflictingAliases() throws {
        #expect(
            try errors(["a.graphql": "query A { hero { n: name n: id } }\n"])
                == "$DIR/a.graphql:1:26: error: \"n\" selects both \"name\" and \"id\"; use different aliases")
    }

    /// Valid GraphQL is never refused for its names (issue 28): `query HeroQuery` and `query Hero`
    /// get distinct Swift types (`HeroQuery`, `HeroQueryQuery`; RealAppNameTests type-checks them).
    @Test func operationsWhoseSwiftNamesWouldClashAreNotAnError() throws {
        #expect(try errors(["a.graphql": "query HeroQuery { hero { name } }\nquery Hero { hero { id } }\n"]) == "(no error)")
    }

    /// A fragment named like a schema type is `EpisodeFragment` (RealAppNameTests type-checks it).
    @Test func fragmentNamedLikeASchemaTypeIsNotAnError() throws {
        #expect(
            try errors(["a.graphql": "query A($e: Episode) { hero(episode: $e) { ...Episode } }\nfragment Episode on Character { name }\n"])
                == "(no error)")
    }

    @Test func errorsInSeveralFilesAreAllReported() throws {
        let text = try errors(["a.graphql": "query A { hero { nope } }\n", "b.graphql": "query B { nothing }\n"])
        #expect(text.split(separator: "\n").count == 2)
        #expect(text.contains("$DIR/a.graphql:1:18: error: Cannot query field \"nope\""))
        #expect(text.contains("$DIR/b.graphql:1:11: error: Cannot query field \"nothing\" on type \"Query\"."))
    }

    @Test func swiftLiteralErrorsHaveTheSwiftFilesLines() throws {
        let swift = """
            import BatonAPI

            let heroQuery = graphql(\"\"\"
                query HeroName {
                  hero { nam }
                }
                \"\"\")
            """
        #expect(
            try errors(["Hero.swift": swift])
                == "$DIR/Hero.swift:5:14: error: Cannot query field \"nam\" on type \"Character\". Did you mean \"name\"?")
    }

    @Test func swiftLiteralSyntaxErrorAndInterpolation() throws {
        #expect(
            try errors(["A.swift": "let a = 1\nlet q = graphql(\"query A { hero { name }\")\n"])
                == "$DIR/A.swift:3:1: error: syntax error: Expected Name, found <EOF>")
        #expect(
            try errors(["B.swift": "let q = graphql(\"\"\"\n  query B { hero(episode: \\(e)) { name } }\n  \"\"\")\n"])
                == "$DIR/B.swift:2:27: error: string interpolation is not allowed in a graphql literal")
        #expect(try errors(["C.swift": "let q = graphql(\"\"\"\n  query C { hero { name } }\n"]) == "$DIR/C.swift:1:17: error: unterminated graphql literal")
    }

    @Test func schemaSyntaxError() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", "type Query {\n  a: Int\n  b Int\n}\n")
        #expect(
            generation.errors(schemaPaths: [generation.path("schema.graphqls")])
                == "$DIR/schema.graphqls:3:5: error: syntax error: Expected :, found Name \"Int\"")
    }

    @Test func schemaWithAnUnknownType() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", "type Query {\n  a: Nope\n}\n")
        #expect(generation.errors(schemaPaths: [generation.path("schema.graphqls")]) == "$DIR/schema.graphqls:2:6: error: Unknown type \"Nope\".")
    }

    @Test func badIntrospectionJSONSyntax() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.json", "{\n  \"data\": {\n    \"__schema\": [1, 2,]\n  }\n}\n")
        #expect(
            generation.errors(schemaPaths: [generation.path("schema.json")])
                == "$DIR/schema.json:3:23: error: unexpected character ']' in JSON")
    }

    @Test func badIntrospectionJSONStructure() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("missing.json", "{\"data\": {}}")
        #expect(
            generation.errors(schemaPaths: [generation.path("missing.json")])
                == "$DIR/missing.json:1:10: error: invalid introspection result: \"data\" has no \"__schema\"")
        try generation.write(
            "kind.json",
            """
            {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "a", "args": [], "type": {"kind": "SCALAR", "name": "Int"}}]},
              {"kind": "SPACESHIP", "name": "Ship"}
            ]}}
            """)
        #expect(
            generation.errors(schemaPaths: [generation.path("kind.json")])
                == "$DIR/kind.json:4:12: error: invalid introspection result: unknown type kind \"SPACESHIP\" of type Ship")
        try generation.write(
            "typeref.json",
            """
            {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "a", "args": [], "type": {"kind": "NON_NULL", "ofType": null}}]}
            ]}}
            """)
        #expect(
            generation.errors(schemaPaths: [generation.path("typeref.json")])
                == "$DIR/typeref.json:3:39: error: invalid introspection result: NON_NULL type without \"ofType\"")
    }

    @Test func missingDocumentFile() throws {
        do {
            _ = try DocumentCollector.collect(globs: ["/nonexistent/baton/a.graphql"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "error: no such document file: /nonexistent/baton/a.graphql")
        }
    }

    @Test func badConfiguration() throws {
        let generation = try Generation()
        defer { generation.remove() }
        let path = generation.path("baton.json")
        #expect(throws: CodegenError("unknown key \"schemas\" (expected schema, documents, output, namespace, operationManifest, customScalars, providedVariables, layout, selectionSetInitializers, testMocks)", at: SourceLocation(path: path, line: 2, column: 14))) {
            try CodegenConfiguration.parse("{\n  \"schemas\": \"a\"\n}", path: path)
        }
        #expect(throws: CodegenError("\"documents\" must hold strings, not a number", at: SourceLocation(path: path, line: 1, column: 36))) {
            try CodegenConfiguration.parse("{\"schema\": \"s\", \"documents\": [\"a\", 3]}", path: path)
        }
        #expect(throws: CodegenError("expected ',' or '}' in the JSON object", at: SourceLocation(path: path, line: 1, column: 16))) {
            try CodegenConfiguration.parse("{\"schema\": \"s\" \"x\"}", path: path)
        }
    }
}
