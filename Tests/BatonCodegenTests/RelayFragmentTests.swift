import Foundation
import Testing

@testable import BatonCodegen

/// Relay's fragment arguments (`@argumentDefinitions`/`@arguments`) and `@refetchable`.
@Suite("Relay fragments")
struct RelayFragmentTests {
    func generate(_ files: [String: String]) throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        for (name, text) in files { try generation.write(name, text) }
        return try generation.generate()
    }

    func errors(_ files: [String: String]) throws -> String {
        let generation = try Generation()
        defer { generation.remove() }
        for (name, text) in files { try generation.write(name, text) }
        return generation.errors()
    }

    func document(_ output: GeneratedOutput, _ name: String) -> String? {
        output.manifest.operations.first { $0.name == name }?.body
    }

    func file(_ output: GeneratedOutput, _ path: String) -> String? {
        output.files.first { $0.relativePath == path }?.contents
    }

    static let todoFragment = """
        fragment Todos_user on User @argumentDefinitions(count: {type: "Int", defaultValue: 3}, done: {type: "Boolean!"}) {
          todos(first: $count) { edges { node { id complete @include(if: $done) } } }
        }
        """

    @Test func spreadsWithDifferentArgumentsGetTheirOwnCopies() throws {
        let output = try generate([
            "f.graphql": Self.todoFragment,
            "q.graphql": """
                query Two($n: Int, $d: Boolean!) {
                  viewer { a: id ...Todos_user @arguments(count: $n, done: $d) }
                  other: viewer { id ...Todos_user @arguments(done: true) }
                }
                """,
        ])
        let body = try #require(document(output, "Two"))
        let lines = body.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("query Two($n: Int, $d: Boolean!) { "))
        // One copy with the operation's variables, one with the literal and the default.
        #expect(lines.contains { $0.contains("todos(first: $n)") && $0.contains("@include(if: $d)") })
        #expect(lines.contains { $0.contains("todos(first: 3)") && $0.contains("@include(if: true)") })
        let names = lines.dropFirst().map { $0.split(separator: " ")[1] }
        #expect(Set(names).count == 2 && names.allSatisfy { $0.hasPrefix("Todos_user_") })
        // The same copy is named the same way every time (deterministic ids).
        #expect(try document(generate(["f.graphql": Self.todoFragment, "q.graphql": "query One { viewer { id ...Todos_user @arguments(done: true) } }"]), "One")?
            .contains(String(names[1])) == true)
        // The metadata substitutes the values at the spread.
        let swift = try #require(file(output, "Operations/TwoQuery.swift"))
        #expect(swift.contains(#"Todos_user.__selections._applyingFragmentArguments(["count": .variable("n"), "done": .variable("d")])"#))
        #expect(swift.contains(#"Todos_user.__selections._applyingFragmentArguments(["count": 3, "done": true])"#))
    }

    @Test func anArgumentTheFragmentDoesNotDefineIsAnError() throws {
        let printed = try errors(["f.graphql": Self.todoFragment, "q.graphql": "query A {\n  viewer { ...Todos_user @arguments(done: true, size: 2) }\n}\n"])
        #expect(
            printed
                == "$DIR/q.graphql:2:49: error: fragment \"Todos_user\" has no argument \"size\" in its @argumentDefinitions")
    }

    @Test func argumentDefinitionsNeedATypeString() throws {
        #expect(
            try errors(["f.graphql": "fragment F on User @argumentDefinitions(count: 3) { id }\n"])
                == "$DIR/f.graphql:1:41: error: @argumentDefinitions(count: …) needs an object with a \"type\" string, like {type: \"Int\", defaultValue: 10}")
        let badType = try errors(["f.graphql": "fragment F on User @argumentDefinitions(count: {type: \"[Int\"}) { id }\n"])
        #expect(
            badType
                == "$DIR/f.graphql:1:55: error: \"[Int\" is not a GraphQL type")
    }

    @Test func refetchableOnANodeTypeQueriesNodeByID() throws {
        let output = try generate([
            "f.graphql": """
                fragment TodoText on Todo @refetchable(queryName: "TodoTextRefetchQuery") { id text complete @skip(if: $hideDone) }
                """
        ])
        #expect(
            document(output, "TodoTextRefetchQuery")
                == "query TodoTextRefetchQuery($hideDone: Boolean!, $id: ID!) { node(id: $id) { __typename ...TodoText } }\n"
                + "fragment TodoText on Todo { __typename id text complete @skip(if: $hideDone) }")
        let swift = try #require(file(output, "Fragments/TodoText.swift"))
        #expect(swift.contains("extension TodoText: RefetchableFragment {"))
        #expect(swift.contains("public typealias RefetchQuery = TodoTextRefetchQuery"))
        #expect(swift.contains("public static let refetchRoot: RefetchRoot = .node"))
        #expect(file(output, "Operations/TodoTextRefetchQuery.swift") != nil)
    }

    @Test func refetchableNeedsAReachableType() throws {
        #expect(
            try errors(["f.graphql": "fragment F on Review @refetchable(queryName: \"FRefetch\") { stars }\n"])
                == "$DIR/f.graphql:1:22: error: @refetchable fragment \"F\" must be on Query, on the type of Query.viewer, or on a type with an id that Query.node(id:) returns")
        #expect(
            try errors(["f.graphql": "fragment F on Todo @refetchable(queryName: \"FRefetch\") { text }\n"])
                == "$DIR/f.graphql:1:20: error: @refetchable fragment \"F\" on Todo must select id")
    }

    @Test func paginationNeedsPageInfo() throws {
        let text = """
            fragment F on User @refetchable(queryName: "FPagination") @argumentDefinitions(n: {type: "Int"}, c: {type: "String"}) {
              todos(first: $n, after: $c) @connection(key: "F_todos") { edges { node { id } } }
            }
            """
        #expect(
            try errors(["f.graphql": text])
                == "$DIR/f.graphql:2:3: error: the @connection of \"F\" must select pageInfo { endCursor hasNextPage } to paginate forward")
    }
}
