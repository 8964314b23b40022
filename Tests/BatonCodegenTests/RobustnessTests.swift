import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Bad input never crashes the generator: every truncation of a valid document or schema is
/// either valid or a located error.
@Suite("Robustness", .ownThread)
struct RobustnessTests {
    static let document = """
        query HeroAndFriends($episode: Episode = EMPIRE, $first: Int) {
          hero(episode: $episode) {
            id ...Parts
            friendsConnection(first: $first) { edges { node { name } } }
            ... on Human { height(unit: FOOT) } ... on Droid { primaryFunction }
          }
        }
        fragment Parts on Character { name appearsIn }
        """

    @Test func everyTruncationOfADocumentIsOutputOrALocatedError() throws {
        let schema = try SchemaLoader.load(paths: [TestPaths.exampleSchema.path])
        let characters = Array(Self.document)
        for length in stride(from: 0, through: characters.count, by: 3) {
            let source = DocumentSource(path: "t.graphql", text: String(characters[..<length]))
            do {
                _ = try CodeGenerator.generate(schema: schema, sources: [source])
            } catch {
                #expect(error.errors.allSatisfy { $0.location?.path == "t.graphql" }, "\(error)")
            }
        }
    }

    @Test func everyTruncationOfASchemaIsASchemaOrALocatedError() throws {
        let sdl = """
            schema { query: Query }
            "A node" interface Node { id: ID! }
            type Query { node(id: ID!): Node search(text: String = "x"): [Result!]! }
            type Thing implements Node @typePolicy(keyFields: "id") { id: ID! kind: Kind list: [[Int!]] }
            union Result = Thing
            enum Kind { A B }
            input Filter { kind: Kind = A, text: String }
            scalar Date
            """
        let characters = Array(sdl)
        for length in stride(from: 0, through: characters.count, by: 2) {
            do {
                _ = try SchemaLoader.load(sources: [(String(characters[..<length]), "s.graphqls")])
            } catch {
                #expect(error.errors.allSatisfy { $0.location != nil }, "\(length): \(error)")
            }
        }
    }

    @Test func everyTruncationOfIntrospectionJSONIsALocatedError() throws {
        let json = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("apollo/starwars/schema.json"), encoding: .utf8)
        let characters = Array(json.prefix(4000))
        for length in stride(from: 0, to: characters.count, by: 7) {
            do {
                _ = try SchemaLoader.load(sources: [(String(characters[..<length]), "s.json")])
                Issue.record("a truncated introspection result loaded")
            } catch {
                #expect(error.errors.allSatisfy { $0.location?.path == "s.json" }, "\(length): \(error)")
            }
        }
    }
}
