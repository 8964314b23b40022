import Testing

@testable import BatonCodegen
import BatonTestSupport

@Suite("Generator smoke", .ownThread)
struct GeneratorSmokeTests {
    @Test func emptyDocumentsGiveOnlySchemaMetadata() throws {
        let schema = try SchemaLoader.load(sources: [("type Query { a: Int }", "schema.graphqls")])
        let output = try CodeGenerator.generate(schema: schema, sources: [])
        #expect(output.files.map(\.relativePath) == ["Schema/SchemaMetadata.swift"])
    }
}
