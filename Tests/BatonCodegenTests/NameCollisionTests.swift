import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Generated code compiles whatever the user's names: fragments, operations and schema types
/// named like every public type of BatonAPI (read from its sources, so new ones are covered),
/// like Swift's, and like the members generated types declare.
@Suite("Name collisions", .ownThread)
struct NameCollisionTests {
    /// The top-level public types BatonAPI declares.
    static func batonAPITypeNames() throws -> [String] {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources/BatonAPI")
        var names: Set<String> = []
        let pattern = try Regex(#"^public (?:final |indirect )*(?:struct|enum|protocol|typealias|class|actor) ([A-Za-z_][A-Za-z0-9_]*)"#)
            .anchorsMatchLineEndings()
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names.sorted()
    }

    static let swiftNames = ["String", "Int", "Double", "Bool", "Optional", "Array", "Dictionary", "Sendable", "Hashable", "Error"]
    static let memberNames = ["Data", "Fragments", "RefetchQuery"]

    func typecheck(_ output: GeneratedOutput) async throws {
        try await TypeCheck.generated(output)
    }

    @Test func theListOfBatonAPITypesIsRead() throws {
        let names = try Self.batonAPITypeNames()
        #expect(names.count > 40)
        #expect(Set(names).isSuperset(of: ["Selection", "GraphQLFragment", "GraphQLRefetchableFragment", "DataDict", "SelectionSet", "JSONValue", "GraphQLQuery"]))
    }

    @Test func fragmentsAndOperationsNamedLikeBatonAPIAndSwiftTypesCompile() async throws {
        let names = try Self.batonAPITypeNames() + Self.swiftNames + Self.memberNames
        var document = "query UsesEveryName($episode: Episode) {\n  hero(episode: $episode) {\n"
        for name in names { document += "    ...\(name)\n" }
        document += "  }\n}\n"
        for (offset, name) in names.enumerated() {
            // Some fragments nest a field, so nested structs meet the names too.
            let body = offset.isMultiple(of: 3) ? "name friends { name ...\(names[(offset + 1) % names.count]) }" : "name"
            document += "fragment \(name) on Character { \(body) }\n"
            // An operation named the same (`query Selection` is SelectionQuery); one named
            // `…Query` keeps its name, which the fragment already has.
            if !["Query", "Mutation", "Subscription"].contains(where: name.hasSuffix) {
                document += "query \(name) { hero { ...\(name) } }\n"
            }
        }
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("names.graphql", document)
        let output = try generation.generate()
        #expect(output.files.contains { $0.relativePath == "Fragments/Selection.swift" })
        #expect(output.files.contains { $0.relativePath == "Operations/DataDictQuery.swift" })
        // One module, one file per name: the schema's metadata file steps aside for the fragment.
        #expect(output.files.contains { $0.relativePath == "Fragments/SchemaMetadata.swift" })
        #expect(output.files.contains { $0.relativePath == "Schema/SchemaMetadata+Schema.swift" })
        try await typecheck(output)
    }

    @Test func schemaTypesNamedLikeBatonAPITypesCompile() async throws {
        let schema = """
            schema { query: Query }
            type Query { pick(kind: Selection, input: DataDict, raw: JSONValue, data: Data, page: Fragments): Result }
            type Result { kind: Selection data: Data raw: JSONValue }
            enum Selection { ONE TWO }
            enum Data { X }
            input DataDict { a: Int, nested: InputDict }
            input InputDict { b: Selection }
            input Fragments { c: Int }
            scalar JSONValue
            """
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", schema)
        try generation.write(
            "q.graphql",
            "query Pick($kind: Selection, $input: DataDict, $raw: JSONValue, $data: Data, $page: Fragments) { pick(kind: $kind, input: $input, raw: $raw, data: $data, page: $page) { kind data raw } }\n"
        )
        let output = try generation.generate(schemaPaths: [generation.path("schema.graphqls")])
        try await typecheck(output)
    }

    /// A fragment named like a module generated code refers to steps aside: `BatonAPIFragment`.
    @Test func aFragmentNamedLikeAModuleGeneratedCodeUsesTakesTheFragmentSuffix() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("f.graphql", "fragment BatonAPI on Character { name }\nfragment Swift on Character { id }\nquery Q { hero { ...BatonAPI ...Swift } }\n")
        let output = try generation.generate()
        let paths = Set(output.files.map(\.relativePath))
        #expect(paths.isSuperset(of: ["Fragments/BatonAPIFragment.swift", "Fragments/SwiftFragment.swift"]))
        try await typecheck(output)
    }
}
