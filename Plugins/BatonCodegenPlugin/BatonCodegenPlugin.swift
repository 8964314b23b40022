import Foundation
import PackagePlugin

/// Runs `baton generate` for a target that has a `graphql/baton.json` (which names the schema):
/// the `.graphql` and `.gql` documents in `graphql/` and the `graphql("""…""")` literals in the
/// target's Swift files become Swift compiled into the target, in the grouped layout (a file per
/// ~40 definitions) with a file count fixed beforehand, so the outputs are known before the
/// generator runs.
///
/// The plugin gives the generator its documents itself, so `baton.json` needs no `"documents"`
/// (one there is not used). A schema file inside `graphql/` is never taken for a document,
/// whatever its extension: `schema.graphqls` is the usual name, `schema.graphql` works too.
/// Test mocks (`"testMocks"`) belong to another target, so the plugin never writes them:
/// `baton generate --config …/baton.json --only-test-mocks` does.
@main
struct BatonCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let directory = URL(fileURLWithPath: String(describing: target.directory)).appendingPathComponent("graphql")
        let config = directory.appendingPathComponent("baton.json")
        guard FileManager.default.fileExists(atPath: config.path) else {
            Diagnostics.warning("BatonCodegenPlugin: \(target.name) has no graphql/baton.json; nothing to generate")
            return []
        }
        // The schema files the configuration names: inputs (editing them regenerates), never documents.
        var schemas: [URL] = []
        if let data = FileManager.default.contents(atPath: config.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            let paths = (object["schema"] as? [String]) ?? [(object["schema"] as? String)].compactMap { $0 }
            schemas = paths.map { path in
                (path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)).standardizedFileURL
            }
        }
        let schemaPaths = Set(schemas.map(\.path))
        let documents = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".gql") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
            .filter { !schemaPaths.contains($0.standardizedFileURL.path) }
        // Swift files of the target with `graphql("…")` literals are documents too.
        let literalFiles = ((target as? SourceModuleTarget)?.sourceFiles(withSuffix: ".swift").map(\.url) ?? [])
            .filter { file in
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { return false }
                return text.range(of: #"(^|[^A-Za-z0-9_])graphql\( *""#, options: .regularExpression) != nil
            }
            .sorted { $0.path < $1.path }
        guard !documents.isEmpty || !literalFiles.isEmpty else {
            Diagnostics.warning(
                "BatonCodegenPlugin: \(target.name) has no .graphql or .gql documents in graphql/ and no graphql(\"\"\"…\"\"\") literals; nothing to generate")
            return []
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        // The grouped layout (BatonCodegen's GroupedLayout, which a plugin cannot import): ~40
        // definitions a file, since each frontend job of a debug build parses every file of the
        // module. The file count is fixed here, from a count of the definitions, so that the
        // outputs are known before the generator runs.
        let definitions = (documents + literalFiles).reduce(0) { $0 + Self.definitionCount(in: $1) }
        let fileCount = max(1, (definitions + Self.definitionsPerFile - 1) / Self.definitionsPerFile)
        let outputs = (0..<fileCount).map { output.appendingPathComponent(Self.fileName($0, of: fileCount)) }
        return [
            .buildCommand(
                displayName: "Generating GraphQL types for \(target.name)",
                executable: try context.tool(named: "baton").url,
                arguments: [
                    "generate", "--config", config.path, "--output", output.path, "--layout", "grouped", "--file-count", String(fileCount),
                    "--skip-test-mocks",
                ]
                    + (documents + literalFiles).flatMap { ["--documents", $0.path] },
                inputFiles: [config] + documents + literalFiles + schemas,
                outputFiles: outputs
            )
        ]
    }

    /// `GroupedLayout.definitionsPerFile`.
    static let definitionsPerFile = 40

    /// `GroupedLayout.fileName(_:of:)`: `GraphQLDefinitions07.swift`.
    static func fileName(_ index: Int, of count: Int) -> String {
        let digits = max(2, String(count - 1).count)
        let number = String(index)
        return "GraphQLDefinitions" + String(repeating: "0", count: digits - number.count) + number + ".swift"
    }

    /// About how many operations and fragments a file defines (the lines that start with
    /// `query`, `mutation`, `subscription` or `fragment`): only the file count depends on it.
    static func definitionCount(in file: URL) -> Int {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return 1 }
        var count = 0
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.drop { $0 == " " || $0 == "\t" || $0 == "\"" }.prefix { $0.isLetter }
            if words == "query" || words == "mutation" || words == "subscription" || words == "fragment" { count += 1 }
        }
        return max(1, count)
    }
}
