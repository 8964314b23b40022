import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Introspection results become the same schema as their SDL.
@Suite("Introspection JSON", .ownThread)
struct IntrospectionTests {
    static let starwars = TestPaths.fixtures.appendingPathComponent("apollo/starwars")

    @Test func starWarsJSONGeneratesWhatItsSDLGenerates() throws {
        let sources = try DocumentCollector.collect(globs: [Self.starwars.path + "/**/*.graphql"])
        let fromSDL = try CodeGenerator.generate(
            schema: try SchemaLoader.load(paths: [Self.starwars.appendingPathComponent("schema.graphqls").path]), sources: sources)
        let fromJSON = try CodeGenerator.generate(
            schema: try SchemaLoader.load(paths: [Self.starwars.appendingPathComponent("schema.json").path]), sources: sources)
        #expect(fromSDL.files.count > 40)
        #expect(fromSDL == fromJSON)
    }

    @Test func convertsTypesFieldsArgumentsDefaultsAndDirectives() throws {
        let json = """
            {"data": {"__schema": {
              "queryType": {"name": "Query"}, "mutationType": null, "subscriptionType": null,
              "types": [
                {"kind": "OBJECT", "name": "Query", "description": "Entry \\"points\\"", "interfaces": [], "fields": [
                  {"name": "pets", "description": null, "isDeprecated": false, "deprecationReason": null,
                   "args": [{"name": "first", "description": null, "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": "10"},
                            {"name": "kind", "type": {"kind": "ENUM", "name": "Kind"}, "defaultValue": "CAT"}],
                   "type": {"kind": "NON_NULL", "ofType": {"kind": "LIST", "ofType": {"kind": "INTERFACE", "name": "Pet"}}}},
                  {"name": "old", "args": [], "type": {"kind": "SCALAR", "name": "String"}, "isDeprecated": true, "deprecationReason": "Use pets."}
                ]},
                {"kind": "INTERFACE", "name": "Pet", "fields": [{"name": "name", "args": [], "type": {"kind": "SCALAR", "name": "String"}}], "possibleTypes": [{"kind": "OBJECT", "name": "Cat"}]},
                {"kind": "OBJECT", "name": "Cat", "interfaces": [{"kind": "INTERFACE", "name": "Pet"}], "fields": [{"name": "name", "args": [], "type": {"kind": "SCALAR", "name": "String"}}]},
                {"kind": "UNION", "name": "Any", "possibleTypes": [{"kind": "OBJECT", "name": "Cat"}]},
                {"kind": "ENUM", "name": "Kind", "enumValues": [{"name": "CAT", "isDeprecated": false}, {"name": "DOG", "isDeprecated": true, "deprecationReason": null}]},
                {"kind": "INPUT_OBJECT", "name": "Filter", "inputFields": [{"name": "kind", "type": {"kind": "ENUM", "name": "Kind"}, "defaultValue": "DOG"}]},
                {"kind": "SCALAR", "name": "Date", "specifiedByURL": "https://example.com/date"},
                {"kind": "SCALAR", "name": "String"}, {"kind": "SCALAR", "name": "Int"},
                {"kind": "OBJECT", "name": "__Schema", "fields": []}
              ],
              "directives": [
                {"name": "include", "locations": ["FIELD"], "args": []},
                {"name": "cached", "description": "Cache it.", "isRepeatable": true, "locations": ["FIELD", "QUERY"], "args": [{"name": "ttl", "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": "60"}]}
              ]
            }}}
            """
        let sdl = try IntrospectionConverter.sdl(fromIntrospectionJSON: json, path: "test.json")
        #expect(sdl.contains("schema { query: Query }"))
        #expect(sdl.contains("  pets(first: Int = 10, kind: Kind = CAT): [Pet]!\n"))
        #expect(sdl.contains("  old: String @deprecated(reason: \"Use pets.\")\n"))
        #expect(sdl.contains("type Cat implements Pet {"))
        #expect(sdl.contains("union Any = Cat\n"))
        #expect(sdl.contains("  DOG @deprecated\n"))
        #expect(sdl.contains("  kind: Kind = DOG\n"))
        #expect(sdl.contains("scalar Date @specifiedBy(url: \"https://example.com/date\")"))
        #expect(sdl.contains("directive @cached(ttl: Int = 60) repeatable on FIELD | QUERY"))
        #expect(!sdl.contains("__Schema"))
        #expect(!sdl.contains("directive @include"))
        let schema = try SchemaLoader.load(sources: [(json, "test.json")])
        #expect(schema.schema.getType(name: "Cat") != nil)
        #expect(schema.schema.getDirective(name: "cached") != nil)
        #expect(schema.schema.getDirective(name: "connection") != nil)
    }

    @Test(arguments: ["apollo/introspection_response.json", "apollo/introspection_response_with_defer_directive.json", "shopify-storefront.schema.json"])
    func realIntrospectionResultsLoad(_ name: String) throws {
        let shared = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        let path: URL
        switch name {
        case "shopify-storefront.schema.json": path = shared.appendingPathComponent("shopify/\(name)")
        default: path = shared.appendingPathComponent("apollo/introspection/\(name.dropFirst("apollo/".count))")
        }
        try #require(FileManager.default.fileExists(atPath: path.path), "needs ../shared/fixtures beside the package")
        let schema = try SchemaLoader.load(paths: [path.path])
        #expect(schema.schema.queryType != nil)
    }
}
