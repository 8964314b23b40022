import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

@Suite("Typed variables of @refetchable fragments", .ownThread)
struct FragmentVariablesTests {
    func fragmentFile(_ files: [String: String], _ name: String) throws -> String {
        let generation = try Generation()
        defer { generation.remove() }
        for (file, text) in files { try generation.write(file, text) }
        let output = try generation.generate()
        return try #require(output.files.first { $0.relativePath == "Fragments/\(name).swift" }?.contents)
    }

    @Test func aNodeRefetchTakesTheIDFromTheObjectNotFromTheVariables() throws {
        let swift = try fragmentFile(
            ["f.graphql": "fragment TodoText on Todo @refetchable(queryName: \"TodoTextRefetchQuery\") { id text complete @skip(if: $hideDone) }\n"],
            "TodoText")
        #expect(swift.contains("public struct Variables: BatonAPI.FragmentVariables {"))
        #expect(swift.contains("public var hideDone: Swift.Bool\n"))
        #expect(swift.contains("public init(hideDone: Swift.Bool) {"))
        #expect(swift.contains("public var variables: BatonAPI.GraphQLVariables { [\"hideDone\": hideDone] }"))
        let variables = try #require(swift.range(of: "public struct Variables").map { String(swift[$0.lowerBound...]) })
        #expect(!variables.contains("id:"))
    }

    @Test func argumentDefinitionsGiveTheInitializersDefaults() throws {
        let text = """
            fragment F on User @refetchable(queryName: "FPagination") @argumentDefinitions(n: {type: "Int", defaultValue: 5}, c: {type: "String"}) {
              todos(first: $n, after: $c) @connection(key: "F_todos") { edges { node { id } } }
            }
            """
        let swift = try fragmentFile(["f.graphql": text], "F")
        #expect(
            swift.contains(
                "public init(n: BatonAPI.GraphQLNullable<Swift.Int> = .some(5), c: BatonAPI.GraphQLNullable<Swift.String> = nil) {"))
        #expect(swift.contains("public var variables: BatonAPI.GraphQLVariables { [\"n\": n, \"c\": c] }"))
    }

    @Test func aFragmentWithoutVariablesHasEmptyOnes() throws {
        let swift = try fragmentFile(["f.graphql": "fragment F on Query @refetchable(queryName: \"FRefetch\") { __typename }\n"], "F")
        #expect(swift.contains("public init() {"))
        #expect(swift.contains("public var variables: BatonAPI.GraphQLVariables { [:] }"))
    }
}
