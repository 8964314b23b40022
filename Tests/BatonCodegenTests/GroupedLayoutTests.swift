import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// The `grouped` file layout (the command line's default): a few files of ~40 definitions, each
/// definition's file fixed by its name, so an edit rewrites one file.
@Suite("Grouped file layout", .ownThread)
struct GroupedLayoutTests {
    static func write(_ count: Int, into generation: Generation, from first: Int = 0) throws {
        for number in first..<(first + count) {
            try generation.write("Q\(number).graphql", "query Q\(number) { hero { name } }\n")
        }
    }

    static var grouped: GenerationOptions { GenerationOptions(fileLayout: .grouped) }

    @Test func fileCountFollowsTheDefinitionCount() {
        #expect(GroupedLayout.fileCount(definitions: 0) == 1)
        #expect(GroupedLayout.fileCount(definitions: 1) == 1)
        #expect(GroupedLayout.fileCount(definitions: GroupedLayout.definitionsPerFile) == 1)
        #expect(GroupedLayout.fileCount(definitions: GroupedLayout.definitionsPerFile + 1) == 2)
        #expect(GroupedLayout.fileCount(definitions: 1_326) == 34)
        #expect(GroupedLayout.fileName(3, of: 34) == "GraphQLDefinitions03.swift")
        #expect(GroupedLayout.fileName(7, of: 120) == "GraphQLDefinitions007.swift")
    }

    @Test func everyDefinitionIsInExactlyOneFileAndTheSameAsPerDefinition() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try Self.write(90, into: generation)
        let perDefinition = try generation.generate()
        let grouped = try generation.generate(options: Self.grouped)
        #expect(grouped.files.count == GroupedLayout.fileCount(definitions: perDefinition.files.count))
        #expect(grouped.files.map(\.relativePath) == (0..<grouped.files.count).map { GroupedLayout.fileName($0, of: grouped.files.count) })
        let prelude = GeneratedFile.header + "\nimport BatonAPI\n\n"
        let groupedText = grouped.files.map(\.contents).joined()
        for file in perDefinition.files {
            let body = String(file.contents.dropFirst(prelude.count))
            let holders = grouped.files.filter { $0.contents.contains(body) }
            #expect(holders.count == 1, "\(file.relativePath) is in \(holders.count) grouped files")
            #expect(groupedText.components(separatedBy: body).count == 2, "\(file.relativePath) appears more than once")
        }
        #expect(grouped.manifest == perDefinition.manifest)
    }

    /// A definition added where the file count stays the same rewrites only the file it joins.
    @Test func anAddedDefinitionChangesOneFile() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try Self.write(50, into: generation)
        let before = try generation.generate(options: Self.grouped)
        try Self.write(1, into: generation, from: 50)
        let after = try generation.generate(options: Self.grouped)
        #expect(before.files.count == after.files.count)
        let changed = zip(before.files, after.files).filter { $0.0 != $0.1 }
        #expect(changed.count == 1)
        #expect(changed.first?.1.contents.contains("public struct Q50Query") == true)
    }

    /// The build plugin fixes the file count beforehand: files that get no definition are still
    /// written (the plugin declared them as outputs).
    @Test func aGivenFileCountIsKeptEvenWithEmptyFiles() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try Self.write(2, into: generation)
        var options = Self.grouped
        options.groupedFileCount = 9
        let output = try generation.generate(options: options)
        #expect(output.files.map(\.relativePath) == (0..<9).map { GroupedLayout.fileName($0, of: 9) })
        #expect(output.files.allSatisfy { $0.contents.hasPrefix(GeneratedFile.header + "\nimport BatonAPI\n") })
        #expect(output.files.filter { $0.contents.contains("public struct Q") }.count <= 2)
    }

    @Test func batonJSONAndTheCommandLineDefaultToGrouped() throws {
        let configuration = try CodegenConfiguration.parse(#"{"schema": "schema.graphqls"}"#, path: "/project/baton.json")
        #expect(configuration.fileLayout == .grouped)
        let explicit = try CodegenConfiguration.parse(#"{"schema": "schema.graphqls", "layout": "grouped"}"#, path: "/project/baton.json")
        #expect(explicit.fileLayout == .grouped)
        #expect(throws: CodegenError.self) {
            try CodegenConfiguration.parse(#"{"schema": "schema.graphqls", "layout": "per-file"}"#, path: "/project/baton.json")
        }
    }

    /// The grouped files of one app compile as one module (the type-check of a large app's
    /// files is `scripts/bench-codegen`'s).
    @Test func groupedFilesTypeCheck() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try Self.write(45, into: generation)
        try generation.write("Fragments.graphql", "fragment HeroName on Character { name }\nquery WithFragment { hero { ...HeroName } }\n")
        try await TypeCheck.generated(try generation.generate(options: Self.grouped), moduleName: "Grouped")
    }
}
