import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Schemas and documents from public projects outside the codegen corpus (Apollo Kotlin's
/// compiler and integration fixtures) that Baton failed on, each reduced to GraphQL of our own:
/// they generate Swift that type-checks.
@Suite("Real-world schemas and documents", .ownThread)
struct RealAppSchemaTests {
    func generate(schema: String, _ document: String, namespace: String? = nil) throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", schema)
        try generation.write("documents.graphql", document)
        return try generation.generate(schemaPaths: [generation.path("schema.graphqls")], options: GenerationOptions(namespace: namespace))
    }

    func file(_ output: GeneratedOutput, _ path: String) -> String {
        output.files.first { $0.relativePath == path }?.contents ?? ""
    }

    /// Apollo Kotlin's `escaping` test: schema types, an operation and a fragment named like Swift
    /// keywords (`input do`, `scalar in`, `enum is`) are declared and referred to in backticks.
    @Test(arguments: [nil, "API"] as [String?])
    func schemaTypesNamedLikeSwiftKeywords(namespace: String?) async throws {
        let output = try generate(
            schema: """
                type Query { repeat(where: do!, as: in, kind: is): repeat }
                type repeat { if: ID guard: in kind: is self: repeat }
                input do { if: ID as: in }
                scalar in
                enum is { Any Type self }
                """,
            """
            query while($where: do!, $as: in, $kind: is = Type) { repeat(where: $where, as: $as, kind: $kind) { ...switch } }
            fragment switch on repeat { if guard kind self { if } }
            """,
            namespace: namespace)
        #expect(output.files.contains { $0.contents.contains("public struct `do`: BatonAPI.InputObject") })
        try await TypeCheck.generated(output)
    }

    /// Apollo Kotlin's `enum_field` test: enum values are case-sensitive, so `BOTTOM` and `bottom`
    /// are two values; the one spelled `bottom` keeps the case name and `BOTTOM` takes its own.
    @Test func enumValuesThatDifferOnlyInCase() async throws {
        let output = try generate(
            schema: """
                type Query { gravity: Gravity, side(gravity: Gravity): String }
                enum Gravity { TOP BOTTOM bottom NEW_HOPE newHope }
                """,
            "query Sides($gravity: Gravity = BOTTOM) { gravity side(gravity: $gravity) }\n")
        let swift = file(output, "Schema/Enums/Gravity.swift")
        #expect(swift.contains(#"case BOTTOM = "BOTTOM""#))
        #expect(swift.contains(#"case bottom = "bottom""#))
        #expect(swift.contains(#"case NEW_HOPE = "NEW_HOPE""#))
        #expect(swift.contains(#"case newHope = "newHope""#))
        try await TypeCheck.generated(output)
    }

    /// Apollo Kotlin's `simple_fragment` and `antlr_tokens` tests: descriptions on operations,
    /// fragments and variable definitions (GraphQL, September 2025) are accepted and not sent; a
    /// string default value is not one of them, and errors after them keep their lines.
    @Test func descriptionsOnOperationsFragmentsAndVariables() async throws {
        let schema = """
            type Query { item(id: ID!, label: String, tags: [String]): Item }
            type Item { id: ID! name(format: String): String }
            """
        let output = try generate(
            schema: schema,
            #"""
            # A comment "with quotes"
            """
            The item, by id.
            """
            query Item(
              """
              Which item.
              """
              $id: ID!
              "Its label." $label: String = "none" $tags: [String] = ["a" "b"]
            ) {
              item(id: $id, label: $label, tags: $tags) { ...ItemName }
            }

            "The name, formatted."
            fragment ItemName on Item { id name(format: "long") }
            """#)
        let operation = file(output, "Operations/ItemQuery.swift")
        #expect(!operation.contains("The item, by id."))
        #expect(!operation.contains("Which item."))
        #expect(!operation.contains("Its label."))
        #expect(operation.contains(#"$label: String = \"none\""#) || operation.contains(#"$label: String = "none""#))
        #expect(!file(output, "Fragments/ItemName.swift").contains("The name, formatted."))
        try await TypeCheck.generated(output)

        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", schema)
        try generation.write("documents.graphql", "\"\"\"\nDoc.\n\"\"\"\nquery Q(\"Doc.\" $id: ID!) {\n  item(id: $id) { missing }\n}\n")
        #expect(generation.errors(schemaPaths: [generation.path("schema.graphqls")]).contains("documents.graphql:5:"))
    }

    /// Apollo Kotlin's validation fixtures from graphql-js (`allows different order of args`,
    /// `… of input object fields in arg values`): one field selected twice with the same
    /// arguments in another order is one field, not a conflict.
    @Test func fieldSelectedTwiceWithArgumentsInAnotherOrder() async throws {
        let output = try generate(
            schema: """
                type Query { pick(a: String, b: Int, where: Where): Item }
                type Item { id: ID name: String }
                input Where { x: Int, y: [Int], nested: Where }
                """,
            """
            query Pick($a: String) {
              pick(a: $a, b: 1, where: {x: 1, y: [2], nested: {y: [3], x: 4}}) { id }
              pick(where: {nested: {x: 4, y: [3]}, y: [2], x: 1}, b: 1, a: $a) { name }
            }
            """)
        #expect(file(output, "Operations/PickQuery.swift").contains("public var name: Swift.String?"))
        try await TypeCheck.generated(output)
    }

    /// Apollo Kotlin's `microbenchmark` app: a schema extension file whose lines are all
    /// commented out adds nothing; it is not a syntax error.
    @Test func schemaExtensionFileWithOnlyComments() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", "type Query { track: Track }\ntype Track { id: ID! }\n")
        try generation.write("extra.graphqls", "# extend type Track @typePolicy(keyFields: \"id\")\n")
        try generation.write("q.graphql", "query T { track { id } }\n")
        let output = try generation.generate(schemaPaths: [generation.path("schema.graphqls"), generation.path("extra.graphqls")])
        try await TypeCheck.generated(output)
    }

    /// artsy/force (Relay): test queries marked `@relay_test_operation`, and an
    /// `@argumentDefinitions` type written bare (`{type: Sort, defaultValue: NEWEST}`), which
    /// relay-compiler takes as it takes `"Sort"`. The directive is not sent.
    @Test func relayTestOperationAndABareArgumentDefinitionType() async throws {
        let output = try generate(
            schema: """
                type Query { me: Me }
                type Me { items(first: Int, sort: Sort): [Item!] }
                type Item { id: ID! }
                enum Sort { NEWEST OLDEST }
                """,
            """
            fragment List_me on Me @argumentDefinitions(first: {type: "Int", defaultValue: 5}, sort: {type: Sort, defaultValue: NEWEST}) {
              items(first: $first, sort: $sort) { id }
            }
            query ListTestQuery($sort: Sort) @relay_test_operation { me { ...List_me @arguments(sort: $sort) } }
            """)
        let body = try #require(output.manifest.operations.first { $0.name == "ListTestQuery" }?.body)
        #expect(!body.contains("relay_test_operation"))
        #expect(body.contains("items(first: 5, sort: $sort)"))
        try await TypeCheck.generated(output)
    }

    /// artsy/force: image crops aliased `_1x1`, `_16x9` (a name may not start with a digit, so
    /// the underscore does the job) gave nested structs named `1x1`.
    @Test func aliasesThatAreAnUnderscoreAndDigits() async throws {
        let output = try generate(
            schema: """
                type Query { image: Image }
                type Image { cropped(width: Int!, height: Int!): Crop }
                type Crop { src: String }
                """,
            "query Crops { image { _1x1: cropped(width: 10, height: 10) { src } _16x9: cropped(width: 16, height: 9) { src } } }\n")
        #expect(file(output, "Operations/CropsQuery.swift").contains("public struct _1x1: BatonAPI.SelectionSet"))
        try await TypeCheck.generated(output)
    }
}
