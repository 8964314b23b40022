import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// The codegen fuzz targets' paths (`fuzz-documents`, `fuzz-schema`) in the normal test build,
/// over inputs mutated from their corpora by a seeded generator for a few seconds each
/// (``FuzzSmoke``): typed `CodegenErrors` or generated files, never a trap. **Not
/// coverage-guided fuzzing**: what CI runs; `scripts/fuzz` is the coverage-guided run.
@Suite("Fuzz smoke: codegen input (seeded mutations, not coverage-guided)", .serialized, .ownThread)
struct FuzzCodegenSmokeTests {
    static func outcome(_ result: Result<GeneratedOutput, CodegenErrors>) -> String? {
        switch result {
        case .success: return nil
        case .failure(let errors):
            return !errors.errors.isEmpty && errors.errors.allSatisfy({ !$0.message.isEmpty }) ? nil : "errors without messages"
        }
    }

    @Test func documents() throws {
        let schema = try SchemaLoader.load(paths: [TestPaths.exampleSchema.path])
        FuzzSmoke.run("fuzz-documents", seed: 7, maxLength: 4 << 10) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            return Self.outcome(
                Result { () throws(CodegenErrors) in
                    try CodeGenerator.generate(schema: schema, sources: [DocumentSource(path: "Fuzz.graphql", text: text)])
                })
        }
    }

    @Test func schemas() {
        let document = DocumentSource(path: "Fuzz.graphql", text: "query Fuzz { __typename }")
        FuzzSmoke.run("fuzz-schema", seed: 8, maxLength: 64 << 10) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            let path = text.first == "{" ? "Fuzz.json" : "Fuzz.graphqls"
            return Self.outcome(
                Result { () throws(CodegenErrors) in
                    try CodeGenerator.generate(schema: try SchemaLoader.load(sources: [(text, path)]), sources: [document])
                })
        }
    }
}
