import ArgumentParser
import BatonCodegen
import Foundation

/// `baton generate`: schema + documents → Swift.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generates Swift for the operations and fragments in the documents.",
        discussion: """
            With no flags, reads ./baton.json. Errors print as path:line:column: error: message \
            and make the command exit non-zero.
            """
    )

    @Option(name: .long, help: "The schema: SDL (.graphqls/.graphql) or an introspection result (.json). Repeat for schema extensions.")
    var schema: [String] = []

    @Option(name: .long, help: "A glob of .graphql documents or .swift files with graphql(\"\"\"…\"\"\") literals. Repeatable.")
    var documents: [String] = []

    @Option(name: .long, help: "The folder to write the Swift files to.")
    var output: String?

    @Option(name: .long, help: "Nest the schema's types in this enum.")
    var namespace: String?

    @Option(name: .customLong("operation-manifest"), help: "Write the persisted-query manifest (Apollo's format) here.")
    var operationManifest: String?

    @Option(name: .customLong("custom-scalar"), help: "Map a custom scalar to a Swift type conforming to CustomScalarType: NAME=SwiftType. Repeatable.")
    var customScalars: [String] = []

    @Option(
        name: .customLong("provided-variable"),
        help: "Map a Relay provider (@argumentDefinitions(x: {provider: \"NAME\"})) to a Swift type with a static `value`: NAME=SwiftType. Repeatable.")
    var providedVariables: [String] = []

    @Option(name: .long, help: "per-definition (default), per-document, or grouped (a few files of ~40 definitions: faster to compile for large apps).")
    var layout: String?

    @Option(name: .customLong("file-count"), help: "With --layout grouped: how many files to write (default: one per ~40 definitions).")
    var fileCount: Int?

    @Flag(name: .customLong("selection-set-initializers"), help: "Generate memberwise initializers for every operation's and fragment's data.")
    var selectionSetInitializers = false

    @Option(name: .customLong("test-mocks-output"), help: "Write test mocks (Mock<Type>, for BatonTesting) to this folder.")
    var testMocksOutput: String?

    @Option(name: .customLong("test-mocks-api-module"), help: "The module of the generated operations, which the test mocks import.")
    var testMocksAPIModule: String?

    @Flag(name: .customLong("only-test-mocks"), help: "Write only the test mocks (for operations the build plugin generates).")
    var onlyTestMocks = false

    @Flag(name: .customLong("skip-test-mocks"), help: "Do not write test mocks, whatever baton.json says (the build plugin passes it).")
    var skipTestMocks = false

    @Option(name: .long, help: "A baton.json to read settings from (flags given here override it).")
    var config: String?

    func run() throws {
        do {
            let configuration = try makeConfiguration()
            let summary = onlyTestMocks ? try CodeGenerator.runTestMocksOnly(configuration) : try CodeGenerator.run(configuration)
            // `path: warning: …` on standard error: SwiftPM and Xcode show it as a build warning.
            let warningPath = configuration.schemaPaths.first.map { $0 + ": " } ?? ""
            for warning in summary.warnings {
                FileHandle.standardError.write(Data("\(warningPath)warning: \(warning)\n".utf8))
            }
            print("baton: \(summary.written.count) written, \(summary.unchanged.count) unchanged, \(summary.removed.count) removed in \(onlyTestMocks ? configuration.testMocks?.outputDirectory ?? "" : configuration.outputDirectory)")
        } catch let errors as CodegenErrors {
            FileHandle.standardError.write(Data((errors.description + "\n").utf8))
            throw ExitCode(1)
        } catch let error as CodegenError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }

    func makeConfiguration() throws -> CodegenConfiguration {
        var configuration: CodegenConfiguration
        let usesFlags = !schema.isEmpty || !documents.isEmpty || output != nil
        if let config {
            configuration = try CodegenConfiguration.load(path: config)
        } else if !usesFlags {
            guard FileManager.default.fileExists(atPath: "baton.json") else {
                throw CodegenError("no flags and no baton.json here; give --schema, --documents and --output, or --config")
            }
            configuration = try CodegenConfiguration.load(path: "baton.json")
        } else {
            guard !schema.isEmpty, !documents.isEmpty, output != nil else {
                throw CodegenError("--schema, --documents and --output are all needed (or a baton.json)")
            }
            configuration = CodegenConfiguration(schemaPaths: [], documentGlobs: [], outputDirectory: "")
        }
        if !schema.isEmpty { configuration.schemaPaths = schema }
        if !documents.isEmpty { configuration.documentGlobs = documents }
        if let output { configuration.outputDirectory = output }
        if let namespace { configuration.namespace = namespace }
        if let operationManifest { configuration.operationManifestPath = operationManifest }
        if selectionSetInitializers { configuration.selectionSetInitializers = .all }
        if let testMocksOutput {
            configuration.testMocks = TestMocksConfiguration(
                outputDirectory: testMocksOutput, apiModule: testMocksAPIModule ?? configuration.testMocks?.apiModule)
        } else if let testMocksAPIModule {
            guard configuration.testMocks != nil else { throw CodegenError("--test-mocks-api-module needs --test-mocks-output (or \"testMocks\" in baton.json)") }
            configuration.testMocks?.apiModule = testMocksAPIModule
        }
        if skipTestMocks { configuration.testMocks = nil }
        if let layout {
            guard let value = CodegenConfiguration.FileLayout(rawValue: layout) else {
                throw CodegenError("--layout must be per-definition, per-document or grouped, not \(layout)")
            }
            configuration.fileLayout = value
        }
        if let fileCount {
            guard configuration.fileLayout == .grouped, fileCount >= 1 else {
                throw CodegenError("--file-count takes a number of files (1 or more) and goes with --layout grouped")
            }
            configuration.groupedFileCount = fileCount
        }
        for mapping in customScalars {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CodegenError("--custom-scalar takes NAME=SwiftType, not \(mapping)")
            }
            configuration.customScalars[parts[0]] = parts[1]
        }
        for mapping in providedVariables {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CodegenError("--provided-variable takes NAME=SwiftType, not \(mapping)")
            }
            configuration.providedVariables[parts[0]] = parts[1]
        }
        guard !configuration.documentGlobs.isEmpty else {
            throw CodegenError("no documents: name them with \"documents\" in baton.json or with --documents")
        }
        return configuration
    }
}
