import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Relay's fragment arguments (`@argumentDefinitions`/`@arguments`) and `@refetchable`.
@Suite("Relay fragments", .ownThread)
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
        #expect(swift.contains("extension TodoText: BatonAPI.GraphQLRefetchableFragment {"))
        #expect(swift.contains("public typealias RefetchQuery = TodoTextRefetchQuery"))
        #expect(swift.contains("public static let refetchRoot: BatonAPI.RefetchRoot = .node"))
        #expect(file(output, "Operations/TodoTextRefetchQuery.swift") != nil)
    }

    @Test func refetchableNeedsAReachableType() throws {
        #expect(
            try errors(["f.graphql": "fragment F on Review @refetchable(queryName: \"FRefetch\") { stars }\n"])
                == "$DIR/f.graphql:1:22: error: @refetchable fragment \"F\" must be on Query, on the type of Query.viewer, or on a type with an id that Query.node(id:) returns")
    }

    @Test func refetchableWithoutIDGetsIDAddedToWhatIsSentButNotToItsAccessors() throws {
        let output = try generate(["f.graphql": "fragment F on Todo @refetchable(queryName: \"FRefetch\") { text }\n"])
        let body = try #require(document(output, "FRefetch"))
        #expect(body.contains("fragment F on Todo { __typename id text }"))
        let swift = try #require(file(output, "Fragments/F.swift"))
        #expect(swift.contains(".field(\"id\", type: .nonNull(.scalar(\"ID\"))),"))
        #expect(!swift.contains("public var id:"))
        #expect(swift.contains("public var text: Swift.String"))
    }

    @Test func paginationGetsThePageInfoItReadsAddedWithoutAccessors() throws {
        let text = """
            fragment F on User @refetchable(queryName: "FPagination") @argumentDefinitions(n: {type: "Int"}, c: {type: "String"}) {
              todos(first: $n, after: $c) @connection(key: "F_todos") { edges { node { id } } pageInfo { hasNextPage } }
            }
            """
        let output = try generate(["f.graphql": text])
        let body = try #require(document(output, "FPagination"))
        #expect(body.contains("pageInfo { __typename hasNextPage } pageInfo { __typename endCursor }"))
        let swift = try #require(file(output, "Fragments/F.swift"))
        #expect(swift.contains("extension F: BatonAPI.PaginatedFragment {"))
        // The user's pageInfo shows hasNextPage only; endCursor is sent and stored.
        #expect(swift.contains("public var hasNextPage: Swift.Bool"))
        #expect(!swift.contains("public var endCursor"))
        #expect(swift.contains(".field(\"endCursor\""))
    }

    @Test func backwardPaginationGetsStartCursorAndHasPreviousPage() throws {
        let text = """
            fragment F on User @refetchable(queryName: "FPagination") @argumentDefinitions(n: {type: "Int"}, c: {type: "String"}) {
              todos(last: $n, before: $c) @connection(key: "F_todos") { edges { node { id } } }
            }
            """
        let body = try #require(document(try generate(["f.graphql": text]), "FPagination"))
        #expect(body.contains("pageInfo { __typename startCursor hasPreviousPage }"))
        #expect(!body.contains("endCursor"))
    }

    @Test func refetchableOnAnInterfaceWhoseImplementationsAllImplementNodeQueriesNode() throws {
        let extra = "interface Task { title: String }\nextend type Todo implements Task\nextend type Todo { title: String }\n"
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("extra.graphqls", extra)
        try generation.write("f.graphql", "fragment T on Task @refetchable(queryName: \"TRefetch\") { title }\n")
        let output = try generation.generate(schemaPaths: [TestPaths.exampleSchema.path, generation.path("extra.graphqls")])
        let body = try #require(output.manifest.operations.first { $0.name == "TRefetch" }?.body)
        #expect(body.contains("node(id: $id)"))
        // Task has no id field: the id comes through Node.
        #expect(body.contains("fragment T on Task { __typename ... on Node { id } title }"))
        let swift = try #require(output.files.first { $0.relativePath == "Fragments/T.swift" }?.contents)
        #expect(!swift.contains("public var asNode"))
        #expect(swift.contains("public static let refetchRoot: BatonAPI.RefetchRoot = .node"))
    }

    @Test func aliasOnSpreadsAndInlineFragmentsNamesTheirAccessors() throws {
        let output = try generate([
            "q.graphql": """
                query A { hero { ...HeroName @alias(as: "nameParts") ... on Human @alias(as: "person") { height } ...HeroID @alias } }
                fragment HeroName on Character { name }
                fragment HeroID on Human { id }
                """
        ])
        let body = try #require(document(output, "A"))
        #expect(!body.contains("@alias"))
        let swift = try #require(file(output, "Operations/AQuery.swift"))
        #expect(swift.contains("public var nameParts: HeroName { HeroName(_dataDict: __data) }"))
        #expect(swift.contains("public var heroID: HeroID? {"))
        #expect(swift.contains("public var person: Person? { _asInlineFragment() }"))
        // An aliased fragment's fields are read through the alias only.
        #expect(!swift.contains("public var name: Swift.String?"))
        #expect(!swift.contains("public var fragments:"))
    }

    @Test func aRequiredFragmentArgumentNoSpreadPassesIsAnError() throws {
        #expect(
            try errors(["f.graphql": Self.todoFragment, "q.graphql": "query A {\n  viewer { ...Todos_user @arguments(count: 2) }\n}\n"])
                == """
                $DIR/q.graphql:2:12: error: fragment "Todos_user" needs its argument "done" (Boolean!, no default): pass it with @arguments(done: …)
                $DIR/f.graphql:1:89: note: "done" defined here
                """)
    }

    @Test func providedVariablesAreOperationVariablesOfTheirOwn() throws {
        let files = [
            "f.graphql": "fragment P on User @argumentDefinitions(flag: {type: \"Boolean!\", provider: \"Features.flag\"}) { id email @include(if: $flag) }\n",
            "q.graphql": "query Q { viewer { ...P } }\n",
        ]
        let output = try generate(files)
        let body = try #require(document(output, "Q"))
        #expect(body.hasPrefix("query Q($__relay_internal__pv__Featuresflag: Boolean!) { viewer { __typename ...P_"))
        #expect(body.contains("@include(if: $__relay_internal__pv__Featuresflag)"))
        // No provider mapped: the operation takes the value.
        let swift = try #require(file(output, "Operations/QQuery.swift"))
        #expect(swift.contains("public init(featuresflag: Swift.Bool)"))
        #expect(swift.contains("[\"__relay_internal__pv__Featuresflag\": featuresflag]"))
        // Mapped to a Swift type: its static value, read when the variables are.
        let generation = try Generation()
        defer { generation.remove() }
        for (name, text) in files { try generation.write(name, text) }
        var options = GenerationOptions()
        options.providedVariables = ["Features.flag": "FeatureFlags.NewNames"]
        let mapped = try #require(try generation.generate(options: options).files.first { $0.relativePath == "Operations/QQuery.swift" }?.contents)
        #expect(mapped.contains("public init() {}"))
        #expect(mapped.contains("[\"__relay_internal__pv__Featuresflag\": (FeatureFlags.NewNames.value as Swift.Bool)]"))
    }

    @Test func aRefetchableFragmentWithAProvidedVariableRefetchesWithTheProviders() throws {
        let output = try generate([
            "f.graphql": "fragment P on User @refetchable(queryName: \"PRefetch\") @argumentDefinitions(flag: {type: \"Boolean!\", provider: \"Flag\"}) { id email @include(if: $flag) }\n"
        ])
        let body = try #require(document(output, "PRefetch"))
        // User is Query.viewer's type: refetched through viewer, the provider's variable declared.
        #expect(body.hasPrefix("query PRefetch($__relay_internal__pv__Flag: Boolean!) { viewer { __typename ...P_"))
        #expect(body.contains("@include(if: $__relay_internal__pv__Flag)"))
        // Mapped, the provider's value goes with the defaults pagination and refetching send.
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write(
            "f.graphql",
            "fragment P on User @refetchable(queryName: \"PRefetch\") @argumentDefinitions(flag: {type: \"Boolean!\", provider: \"Flag\"}) { id email @include(if: $flag) }\n")
        var options = GenerationOptions()
        options.providedVariables = ["Flag": "Flags.Beta"]
        let swift = try #require(try generation.generate(options: options).files.first { $0.relativePath == "Fragments/P.swift" }?.contents)
        #expect(swift.contains("public static var argumentDefaults: BatonAPI.JSONObject { [\"__relay_internal__pv__Flag\": (Flags.Beta.value as Swift.Bool).variableJSON ?? .null] }"))
    }

    @Test func aProvidedVariableCannotBePassedOrDefaulted() throws {
        let fragment = "fragment P on User @argumentDefinitions(flag: {type: \"Boolean!\", provider: \"Flag\"}) { email @include(if: $flag) }\n"
        #expect(
            try errors(["f.graphql": fragment, "q.graphql": "query Q { viewer { ...P @arguments(flag: true) } }\n"])
                == "$DIR/q.graphql:1:36: error: \"flag\" of fragment \"P\" is a provided variable; its provider gives it, @arguments cannot")
        #expect(
            try errors(["f.graphql": "fragment P on User @argumentDefinitions(flag: {type: \"Boolean\", provider: \"Flag\", defaultValue: true}) { id }\n"])
                == "$DIR/f.graphql:1:65: error: a provided variable (flag) cannot have a defaultValue")
    }
}
