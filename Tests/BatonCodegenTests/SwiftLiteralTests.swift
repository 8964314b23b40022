import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Documents written as `graphql("""…""")` in Swift files.
@Suite("Swift literals", .ownThread)
struct SwiftLiteralTests {
    @Test func literalsKeepTheSwiftFilesLinesAndColumns() throws {
        let swift = "import BatonAPI\n\nlet q = graphql(\"\"\"\n    query A { hero { name } }\n    \"\"\")\nlet r = graphql(\"fragment F on Character { id }\")\nlet notAQuery = mygraphql(\"x\")\n"
        let text = try #require(try SwiftLiteralExtractor.extract(from: swift, path: "A.swift"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == swift.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(lines[3] == "    query A { hero { name } }")
        #expect(lines[5].trimmingCharacters(in: .whitespaces) == "fragment F on Character { id }")
        #expect(lines[5].firstIndex(of: "f")?.utf16Offset(in: lines[5]) == 17)
        #expect(lines[0].allSatisfy { $0 == " " })
        #expect(lines[6].allSatisfy { $0 == " " })
    }

    @Test func swiftFilesWithoutLiteralsAreSkipped() throws {
        #expect(try SwiftLiteralExtractor.extract(from: "let a = 1\n", path: "A.swift") == nil)
        #expect(try SwiftLiteralExtractor.extract(from: "// graphql(\"x\")\n/* graphql(\"\"\"\n y \"\"\") /* nested */ */\n", path: "A.swift") == nil)
    }

    @Test func literalsAndGraphQLFilesFormOneDocument() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write(
            "Sources/HeroView.swift",
            """
            import BatonAPI

            struct HeroView {
                static let query = graphql(\"\"\"
                    query HeroView($episode: Episode) {
                      hero(episode: $episode) { ...HeroParts }
                    }
                    \"\"\")
            }
            """)
        try generation.write("graphql/HeroParts.graphql", "fragment HeroParts on Character { name appearsIn }\n")
        let output = try generation.generate()
        let query = try #require(output.files.first { $0.relativePath == "Operations/HeroViewQuery.swift" })
        #expect(query.contents.contains("query HeroView($episode: Episode) { hero(episode: $episode) { __typename ...HeroParts } }\n        fragment HeroParts on Character { __typename name appearsIn }"))
        #expect(query.contents.contains("public var appearsIn: [BatonAPI.GraphQLEnum<Episode>?] { __data[\"appearsIn\"] }"))
        #expect(output.files.contains { $0.relativePath == "Fragments/HeroParts.swift" })
    }
}

/// Baton's client directives validate, and reach the metadata.
@Suite("Client directives", .ownThread)
struct ClientDirectiveTests {
    @Test func relayDirectivesValidate() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write(
            "a.graphql",
            """
            query Todos($first: Int, $after: String) {
              viewer { __id ...TodoList @arguments(count: 2) }
              launches(pageSize: $first, after: $after) { launches @stream(initialCount: 1) { id } }
            }
            fragment TodoList on User @refetchable(queryName: "TodoListRefetch") @argumentDefinitions(count: {type: "Int", defaultValue: 10}) {
              todos(first: 3) @connection(key: "TodoList_todos", filters: []) { edges { node { id } } }
            }
            mutation Add($input: AddTodoInput!, $connections: [ID!]!) {
              addTodo(input: $input) { todoEdge @appendEdge(connections: $connections) { cursor } }
            }
            mutation AddNode($input: AddTodoInput!, $connections: [ID!]!) {
              addTodo(input: $input) { todoEdge { node @prependNode(connections: $connections, edgeTypeName: "TodoEdge") { id } } }
            }
            mutation Remove($input: RemoveTodoInput!) {
              removeTodo(input: $input) { deletedTodoID @deleteRecord removed: deletedTodoID @deleteEdge(connections: ["client:root:__TodoList_todos_connection"]) }
            }
            """)
        let output = try generation.generate()
        let fragment = try #require(output.files.first { $0.relativePath == "Fragments/TodoList.swift" }?.contents)
        #expect(fragment.contains("directives: [.connection(key: \"TodoList_todos\", filters: [])]"))
        let addNode = try #require(output.files.first { $0.relativePath == "Operations/AddNodeMutation.swift" }?.contents)
        #expect(addNode.contains("directives: [.prependNode(connections: .variable(\"connections\"), edgeTypeName: \"TodoEdge\")]"))
        let remove = try #require(output.files.first { $0.relativePath == "Operations/RemoveMutation.swift" }?.contents)
        #expect(remove.contains("directives: [.deleteRecord]"))
        #expect(remove.contains("directives: [.deleteEdge(connections: .list([\"client:root:__TodoList_todos_connection\"]))]"))
        let todos = try #require(output.files.first { $0.relativePath == "Operations/TodosQuery.swift" }?.contents)
        #expect(todos.contains(".field(\"__id\", type: .nonNull(.scalar(\"ID\"))),"))
        #expect(todos.contains("public var __id: Swift.String { __data[\"__id\"] }"))
    }

    @Test func perDocumentLayoutAndNamespace() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("HeroName.graphql", "query HeroName($episode: Episode) { hero(episode: $episode) { name } }\n")
        try generation.write("Empty.graphql", "# nothing yet\n")
        let output = try generation.generate(options: GenerationOptions(namespace: "StarWars", fileLayout: .perDocument))
        #expect(output.files.map(\.relativePath) == ["Empty.graphql.swift", "HeroName.graphql.swift", "SchemaTypes.swift"])
        let schemaTypes = try #require(output.files.last?.contents)
        #expect(schemaTypes.contains("public enum StarWars {}"))
        #expect(schemaTypes.contains("extension StarWars {\n    /// The episodes in the Star Wars trilogy\n    public enum Episode: Swift.String, BatonAPI.EnumType {"))
        #expect(schemaTypes.contains("public static let schemaMetadata: BatonAPI.SchemaMetadata = BatonAPI.SchemaMetadata("))
        #expect(output.files[1].contents.contains("public var episode: BatonAPI.GraphQLNullable<BatonAPI.GraphQLEnum<StarWars.Episode>>"))
    }
}
