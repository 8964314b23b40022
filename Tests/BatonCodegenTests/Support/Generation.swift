import Foundation

@testable import BatonCodegen

/// Writes documents to a temporary folder and generates them against a schema; returns the
/// output, or the printed errors with the folder's path replaced by `$DIR`.
struct Generation {
    let directory: URL

    init() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    func write(_ name: String, _ text: String) throws {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Generates every `.graphql` and `.swift` file in the folder.
    func generate(schemaPaths: [String] = [TestPaths.exampleSchema.path], options: GenerationOptions = GenerationOptions()) throws -> GeneratedOutput {
        let schema = try SchemaLoader.load(paths: schemaPaths)
        let sources = try DocumentCollector.collect(globs: [directory.path + "/**/*.graphql", directory.path + "/**/*.swift"])
        return try CodeGenerator.generate(schema: schema, sources: sources, options: options)
    }

    /// The errors of a generation that must fail, as printed.
    func errors(schemaPaths: [String] = [TestPaths.exampleSchema.path]) -> String {
        do {
            _ = try generate(schemaPaths: schemaPaths)
            return "(no error)"
        } catch let errors as CodegenErrors {
            return errors.description.replacingOccurrences(of: directory.path, with: "$DIR")
        } catch {
            return "unexpected error: \(error)"
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
