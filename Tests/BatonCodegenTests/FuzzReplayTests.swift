import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// The seeds and saved crashing inputs of a fuzz target (`Fuzz/Corpus/<target>/`,
/// `Fuzz/Regressions/<target>/`), by file name.
private func fuzzInputs(_ target: String) throws -> [(name: String, text: String)] {
    let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")
    var inputs: [(name: String, text: String)] = []
    for folder in ["Corpus", "Regressions"] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
        for name in names.sorted() {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            inputs.append(("\(folder)/\(target)/\(name)", String(decoding: data, as: UTF8.self)))
        }
    }
    return inputs
}

/// Replays the codegen fuzz targets' inputs (Fuzz/Regressions/README.md) through the same
/// paths: each generates Swift or fails with located `CodegenErrors`. Seeds named `invalid-…`
/// must fail, the other seeds must generate.
@Suite("Fuzz replay: codegen input", .ownThread)
struct FuzzCodegenReplayTests {
    func expectOutcome(_ result: Result<GeneratedOutput, CodegenErrors>, _ name: String) {
        let mustFail = name.hasPrefix("Corpus/") && name.contains("/invalid-")
        switch result {
        case .success(let output):
            #expect(!mustFail, "\(name) generates but should not")
            #expect(!output.files.isEmpty, "\(name) generates no files")
        case .failure(let errors):
            #expect(mustFail || name.hasPrefix("Regressions/"), "seed \(name) fails: \(errors)")
            #expect(!errors.errors.isEmpty && errors.errors.allSatisfy { !$0.message.isEmpty }, "\(name)")
        }
    }

    @Test func everyDocumentGeneratesOrFailsWithErrors() throws {
        let schema = try SchemaLoader.load(paths: [TestPaths.exampleSchema.path])
        let inputs = try fuzzInputs("fuzz-documents")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 5)
        for input in inputs {
            let result = Result { () throws(CodegenErrors) in
                try CodeGenerator.generate(schema: schema, sources: [DocumentSource(path: "Fuzz.graphql", text: input.text)])
            }
            expectOutcome(result, input.name)
        }
    }

    @Test func everySchemaLoadsAndGeneratesOrFailsWithErrors() throws {
        let document = DocumentSource(path: "Fuzz.graphql", text: "query Fuzz { __typename }")
        let inputs = try fuzzInputs("fuzz-schema")
        #expect(inputs.filter { $0.name.hasPrefix("Corpus/") }.count >= 3)
        for input in inputs {
            let path = input.text.first == "{" ? "Fuzz.json" : "Fuzz.graphqls"
            let result = Result { () throws(CodegenErrors) in
                try CodeGenerator.generate(schema: try SchemaLoader.load(sources: [(input.text, path)]), sources: [document])
            }
            expectOutcome(result, input.name)
        }
    }
}
