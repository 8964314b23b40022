import Foundation
import Testing

@testable import BatonCodegen

/// Seed 003's `CustomJSON` (Apollo iOS 0.x): a custom scalar over `[String: Any]`, decoded by
/// `init(jsonValue:)` from Foundation values. Baton's custom scalars read its own `JSONValue`
/// (`CustomScalarType`, `Sendable`), so the seed's enum does not compile with Baton (SeedTypeCheckTests
/// holds it as written). The documented one-line equivalent: map the scalar to `JSONValue` in
/// baton.json, and take Foundation's `[String: Any]` or `[Any]` from it with `foundationValue`.
@Suite("Seed 003: CustomJSON's one-line equivalent", .ownThread)
struct ApolloCustomJSONTests {
    static let schema = """
        schema { query: Query }
        type Query { payload: JSON, payloads: [JSON!] }
        scalar JSON
        """

    @Test("\"customScalars\": {\"JSON\": \"JSONValue\"} generates the scalar as JSONValue, read as Apollo's [String: Any] in one line")
    func jsonScalarMappedToJSONValue() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", Self.schema)
        try generation.write("Payload.graphql", "query Payload { payload payloads }")
        let configuration = try CodegenConfiguration.parse(
            #"{"schema": "schema.graphqls", "documents": ["Payload.graphql"], "customScalars": {"JSON": "JSONValue"}}"#,
            path: generation.path("baton.json"))
        let output = try generation.generate(
            schemaPaths: [generation.path("schema.graphqls")],
            options: GenerationOptions(customScalars: configuration.customScalars))
        let schemaFile = try #require(output.files.first { $0.contents.contains("typealias JSON =") })
        #expect(schemaFile.contents.contains("public typealias JSON = JSONValue"))
        try await TypeCheck.generated(
            output, moduleName: "PayloadAPI",
            uses: [
                "UsesPayload.swift": """
                    import BatonAPI

                    enum CustomJSON {
                        case dictionary([String: Any])
                        case array([Any])
                    }

                    func read(_ data: PayloadQuery.Data) -> CustomJSON? {
                        // The one line: Apollo's `value as? [String: Any]`, from Baton's JSONValue.
                        if let dict = data.payload?.foundationValue as? [String: Any] { return .dictionary(dict) }
                        if let array = data.payload?.foundationValue as? [Any] { return .array(array) }
                        return nil
                    }

                    func readEach(_ data: PayloadQuery.Data) -> [JSONValue]? { data.payloads }
                    """
            ])
    }
}
