import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// What Relay's conveniences add to the selections (a `@refetchable` fragment's `id`, a
/// `@connection`'s `pageInfo`) has no accessor but is an initializer parameter, so data built in
/// Swift still satisfies the selections; the code type-checks in Swift 6 mode.
@Suite("Initializers with Relay's additions", .ownThread)
struct RelayAdditionInitializerTests {
    @Test func addedFieldsAreParameters() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write(
            "a.graphql",
            """
            fragment TodoLine on Todo @refetchable(queryName: "TodoLineRefetchQuery") { text }
            query Todos { viewer { todos(first: 2) @connection(key: "Todos_todos") { edges { node { ...TodoLine } } } } }
            """)
        var options = GenerationOptions()
        options.selectionSetInitializers = .all
        let output = try generation.generate(options: options)
        let fragment = try #require(output.files.first { $0.relativePath == "Fragments/TodoLine.swift" }).contents
        #expect(fragment.contains("public init(text: Swift.String, id: Swift.String)"))
        let query = try #require(output.files.first { $0.relativePath == "Operations/TodosQuery.swift" }).contents
        #expect(query.contains("public init(edges: [Edge?]? = nil, pageInfo: PageInfo)"))
        #expect(query.contains("public init(text: Swift.String, id: Swift.String)"))  // the node, through the fragment

        let modules = try #require(TestPaths.builtModules, "needs the built BatonAPI module")
        _ = try OutputWriter.write(output.files, to: generation.path("Generated"))
        let files = output.files.map { generation.directory.appendingPathComponent("Generated/" + $0.relativePath).path }
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name", "Relay", "-I", modules.path] + files)
        #expect(result.status == 0, "\(result.stderr.prefix(3000))")
    }
}
