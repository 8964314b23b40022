import BatonCodegen
import BatonTestSupport
import Foundation
import Testing

/// The ```` ```graphql ```` blocks of README.md and the DocC articles, checked by the generator
/// (in-process) against the schema their article is about, so that none can rot.
///
/// - A block of type system definitions only (`type`, `extend type`, `extend schema`, …) is SDL:
///   it must load as a schema extension of its article's schema.
/// - Any other block is a document: it must generate (parse, validate, and everything the
///   generator adds: refetch queries, connections, client fields) against its article's schema
///   with the article's SDL blocks applied. A document may spread the example API's fragments
///   (`...TodoDetails`): the example API's documents come along, but for a file defining a name
///   the block or the article's SDL defines itself.
///
/// An article's schema is the example server's, plus `Context/<Article>.graphqls` when there is
/// one (the local schema an article's client fields are declared in); an article whose
/// `Context/<Article>.api.json` names other schema files (the snippets' own module) uses those
/// instead, without the example API's documents.
@Suite("README and DocC GraphQL blocks validate", .ownThread)
struct DocumentationGraphQLBlockTests {
    typealias Block = DocumentationCodeBlockTests.Block

    static let exampleSchema = BuiltModules.packageRoot.appendingPathComponent("Sources/BatonExampleServer/Resources/schema.graphqls")
    static let exampleDocuments = BuiltModules.packageRoot.appendingPathComponent("Sources/BatonExampleAPI/graphql")

    /// The documents that have graphql blocks.
    static var documents: [String] {
        DocumentationCodeBlockTests.documents.filter { document in
            (try? DocumentationCodeBlockTests.blocks(in: document).contains { $0.language == "graphql" }) == true
        }
    }

    /// Whether every definition of the block is a type system definition or extension.
    static func isSDL(_ block: Block) -> Bool {
        let keywords: Set<String> = ["type", "extend", "schema", "directive", "scalar", "enum", "input", "interface", "union"]
        var depth = 0
        var definitionWords: [String] = []
        for line in block.code.split(separator: "\n") {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if depth == 0, let word = code.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "{" }).first {
                definitionWords.append(String(word))
            }
            depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
        }
        return !definitionWords.isEmpty && definitionWords.allSatisfy { keywords.contains($0) || $0.hasPrefix("\"") }
    }

    /// The names a GraphQL text defines (operations, fragments, types and type extensions).
    static func definedNames(_ text: String) -> Set<String> {
        let pattern = /(?:query|mutation|subscription|fragment|type|input|enum|interface|union|scalar)\s+([A-Za-z_][A-Za-z0-9_]*)/
        return Set(text.matches(of: pattern).map { String($0.output.1) })
    }

    /// The article's schema files: the api.json's, or the example schema and the article's own extension.
    static func schemaFiles(of document: String) throws -> (files: [URL], isExample: Bool) {
        let context = DocumentationCodeBlockTests.context(of: document).deletingPathExtension()
        if let json = try? Data(contentsOf: context.appendingPathExtension("api.json")) {
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let schemas = try #require(object["schema"] as? [String], "\(context.lastPathComponent).api.json: \"schema\"")
            return (schemas.map { BuiltModules.packageRoot.appendingPathComponent($0) }, false)
        }
        let local = context.appendingPathExtension("graphqls")
        return ([exampleSchema] + (FileManager.default.fileExists(atPath: local.path) ? [local] : []), true)
    }

    @Test("Every graphql block of README.md and the DocC articles validates against its article's schema", arguments: documents)
    func graphQLBlocksValidate(_ document: String) throws {
        let blocks = try DocumentationCodeBlockTests.blocks(in: document).filter { $0.language == "graphql" }
        let (files, isExample) = try Self.schemaFiles(of: document)
        let base = try files.map { (text: try String(contentsOf: $0, encoding: .utf8), path: $0.path) }
        let sdl = blocks.filter(Self.isSDL)
        for block in sdl {
            #expect(throws: Never.self, "\(block): as a schema extension") {
                _ = try SchemaLoader.load(sources: base + [(block.code, "\(block)")])
            }
        }
        let schema: LoadedSchema
        do {
            schema = try SchemaLoader.load(sources: base + sdl.map { ($0.code, "\($0)") })
        } catch {
            Issue.record("\(document): its schema with its SDL blocks: \(error)")
            return
        }
        var example: [DocumentSource] = []
        if isExample {
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.exampleDocuments.path).sorted() where name.hasSuffix(".graphql") {
                let url = Self.exampleDocuments.appendingPathComponent(name)
                example.append(DocumentSource(path: url.path, text: try String(contentsOf: url, encoding: .utf8)))
            }
        }
        // What the article's SDL blocks define replaces the example API's own definitions of it.
        let schemaNames = sdl.reduce(into: Set<String>()) { $0.formUnion(Self.definedNames($1.code)) }
        for block in blocks where !Self.isSDL(block) {
            let names = Self.definedNames(block.code).union(schemaNames)
            let others = example.filter { Self.definedNames($0.text).isDisjoint(with: names) }
            do {
                _ = try CodeGenerator.generate(schema: schema, sources: [DocumentSource(path: "\(block)", text: block.code)] + others)
            } catch {
                Issue.record("\(block): \(error)")
            }
        }
    }

    @Test("The block classification: SDL and documents")
    func classification() {
        func block(_ code: String) -> Block { Block(file: "t.md", line: 1, language: "graphql", marks: [], code: code) }
        #expect(Self.isSDL(block("extend type Todo {\n  isSelected: Boolean\n}\ntype DeviceSettings { theme: String }")))
        #expect(Self.isSDL(block("# a comment\nextend schema @link(url: \"u\")")))
        #expect(!Self.isSDL(block("query Hero { hero { name } }")))
        #expect(!Self.isSDL(block("fragment A on User\n  @refetchable(queryName: \"Q\") {\n  id\n}\nquery Q { viewer { ...A } }")))
        #expect(Self.definedNames("query Hero { a }\nfragment B on User { id }") == ["Hero", "B"])
    }
}
