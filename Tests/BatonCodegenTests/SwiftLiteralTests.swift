import Foundation
import Testing

@testable import BatonCodegen

/// Documents written as `graphql("""…""")` in Swift files.
@Suite("Swift literals")
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
        #expect(query.contents.contains("public var appearsIn: [GraphQLEnum<Episode>?] { __data[\"appearsIn\"] }"))
        #expect(output.files.contains { $0.relativePath == "Fragments/HeroParts.swift" })
    }
}
