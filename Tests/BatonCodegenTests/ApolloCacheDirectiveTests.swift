import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Apollo's cache directives in a schema extension (issue 28, item 5): Apollo Kotlin's and Apollo
/// iOS's `extra.graphqls` was refused (`Unknown directive "@link"`, `Unknown argument
/// "embeddedFields" on directive "@typePolicy"`, `Unknown directive "@cacheControl"`, …). They
/// load, `@link` renames are followed, and what they say reaches the generated schema metadata.
@Suite("Apollo cache directives", .ownThread)
struct ApolloCacheDirectiveTests {
    static let schema = """
        type Query { book(id: ID!): Book  books: [Book!]!  shelf: Shelf }
        type Book { id: ID!  title: String  author: Author }
        type Author { name: String }
        type Shelf { label: String @cacheControl(maxAge: 30) }
        """

    func load(_ extra: String) throws -> LoadedSchema {
        try SchemaLoader.load(sources: [(Self.schema, "schema.graphqls"), (extra, "extra.graphqls")])
    }

    /// `@typePolicy(keyFields:, embeddedFields:)`, `@fieldPolicy(forField:, keyArgs:)`,
    /// `@cacheControl(maxAge:)` on types and fields, `@cacheControlField(name:, maxAge:)`.
    @Test func apolloCacheDirectivesInASchemaExtensionLoad() throws {
        let loaded = try load(
            """
            extend schema @link(url: "https://specs.apollo.dev/cache/v0.1", import: ["@typePolicy", "@fieldPolicy", "@cacheControl", "@cacheControlField"])
            extend type Book @typePolicy(keyFields: "id", embeddedFields: "author") @cacheControl(maxAge: 60)
            extend type Query @fieldPolicy(forField: "book", keyArgs: "id") @cacheControlField(name: "books", maxAge: 10)
            """)
        let policies = loaded.cachePolicies
        #expect(policies.keyFields == ["Book": ["id"]])
        #expect(policies.embeddedFields == ["Book": ["author"]])
        #expect(policies.keyArgs == ["Query": ["book": ["id"]]])
        #expect(policies.typeMaxAge == ["Book": 60])
        #expect(policies.fieldMaxAge == ["Query": ["books": 10], "Shelf": ["label": 30]])
    }

    /// `import: [{name: "@typePolicy", as: "@key"}]` and, for what is not imported, the link's
    /// namespace (`@c__cacheControl` with `as: "c"`); `forFields` is read like `forField`.
    @Test func linkImportsRenamedOrNamespacedAreFollowed() throws {
        let loaded = try load(
            """
            extend schema @link(url: "https://specs.apollo.dev/cache/v0.1", as: "c", import: [{name: "@typePolicy", as: "@key"}, "@fieldPolicy"])
            extend type Author @key(keyFields: "name") @c__cacheControl(maxAge: 5)
            extend type Query @fieldPolicy(forFields: "book", keyArgs: "id")
            """)
        #expect(loaded.cachePolicies.keyFields == ["Author": ["name"]])
        #expect(loaded.cachePolicies.typeMaxAge == ["Author": 5])
        #expect(loaded.cachePolicies.keyArgs == ["Query": ["book": ["id"]]])
    }

    /// A link URL with a trailing slash, a spec Apollo Kotlin used before (`kotlin_labs`), and
    /// `@cacheControl(inheritMaxAge:)` on a field.
    @Test func olderLinkFormsAndInheritMaxAgeLoad() throws {
        let loaded = try load(
            """
            extend schema @link(url: "https://specs.apollo.dev/cache/v0.1/")
            extend schema @link(url: "https://specs.apollo.dev/kotlin_labs/v0.3", import: ["@typePolicy"])
            extend type Author @typePolicy(embeddedFields: "name") @cache__cacheControl(maxAge: 7)
            type Reader { book: Book @cacheControl(inheritMaxAge: true) }
            """)
        #expect(loaded.cachePolicies.embeddedFields == ["Author": ["name"]])
        #expect(loaded.cachePolicies.typeMaxAge == ["Author": 7])
        #expect(loaded.cachePolicies.inheritMaxAgeFields == ["Reader": ["book"]])
    }

    /// `inheritMaxAge: true` on a type, on a field definition and in `@cacheControlField`: stated
    /// in the generated metadata for the store, which gives those fields the max age of the
    /// field that leads to them (Apollo Server's rule).
    @Test func inheritMaxAgeReachesTheGeneratedMetadata() async throws {
        let loaded = try load(
            """
            extend type Shelf @cacheControl(inheritMaxAge: true)
            extend type Book @cacheControlField(name: "author", inheritMaxAge: true) @cacheControl(maxAge: 60)
            """)
        #expect(loaded.cachePolicies.inheritMaxAgeTypes == ["Shelf"])
        #expect(loaded.cachePolicies.inheritMaxAgeFields == ["Book": ["author"]])
        let sources = [DocumentSource(path: "Q.graphql", text: "query B($id: ID!) { book(id: $id) { id author { name } } shelf { __typename } }")]
        let output = try CodeGenerator.generate(schema: loaded, sources: sources, options: GenerationOptions())
        let metadata = try #require(output.files.first { $0.relativePath.hasSuffix("SchemaMetadata.swift") }).contents
        #expect(metadata.contains(#"inheritMaxAgeTypes: ["Shelf"] as Swift.Set<Swift.String>"#))
        #expect(metadata.contains(#"inheritMaxAgeFields: ["Book": ["author"]] as [Swift.String: Swift.Set<Swift.String>]"#))
        try await TypeCheck.generated(output, moduleName: "InheritMaxAge")
    }

    /// Morty's (Apollo's nullability spec) declarations are not refused.
    @Test func nullabilityDirectivesLoad() throws {
        _ = try load(
            """
            extend schema @link(url: "https://specs.apollo.dev/nullability/v0.4", import: ["@semanticNonNull", "@semanticNonNullField", "@catchByDefault", "CatchTo"]) @catchByDefault(to: NULL)
            extend type Book @semanticNonNullField(name: "title")
            """)
    }

    /// A maxAge that is not an integer is a located error.
    @Test func aMaxAgeThatIsNotAnIntegerIsALocatedError() throws {
        #expect(throws: CodegenErrors.self) {
            _ = try load(#"extend type Book @cacheControl(maxAge: "soon")"#)
        }
    }

    /// The generated `schemaMetadata` carries them, and type-checks.
    @Test func generatedSchemaMetadataStatesTheDirectives() async throws {
        let loaded = try load(
            """
            extend type Book @typePolicy(keyFields: "id", embeddedFields: "author") @cacheControl(maxAge: 60)
            extend type Query @fieldPolicy(forField: "book", keyArgs: "id")
            """)
        let sources = [DocumentSource(path: "Q.graphql", text: "query B($id: ID!) { book(id: $id) { id title author { name } } }")]
        let output = try CodeGenerator.generate(schema: loaded, sources: sources, options: GenerationOptions())
        let metadata = try #require(output.files.first { $0.relativePath.hasSuffix("SchemaMetadata.swift") })
        #expect(metadata.contents.contains(#"embeddedFields: ["Book": ["author"]]"#))
        #expect(metadata.contents.contains(#"keyArgs: ["Query": ["book": ["id"]]]"#))
        #expect(metadata.contents.contains(#"typeMaxAge: ["Book": 60]"#))
        try await TypeCheck.generated(output, moduleName: "CacheDirectives")
    }

    /// The metadata the client scenario `CacheRedirectScenario` (BatonClientTests) writes by
    /// hand is what the generator writes for its schema and extension: the directives reach the
    /// store from the schema with no code of the user's.
    @Test func theMetadataOfTheCacheRedirectScenarioIsWhatTheGeneratorWrites() async throws {
        let schema = "type Query { book(id: ID!): Book  books: [Book!]! }  type Book { id: ID!  title: String  author: Author }  type Author { name: String }"
        let extra = """
            extend schema @link(url: "https://specs.apollo.dev/cache/v0.1", import: ["@typePolicy", "@fieldPolicy"])
            extend type Book @typePolicy(keyFields: "id", embeddedFields: "author")
            extend type Query @fieldPolicy(forField: "book", keyArgs: "id")
            """
        let loaded = try SchemaLoader.load(sources: [(schema, "schema.graphqls"), (extra, "extra.graphqls")])
        let sources = [DocumentSource(path: "Q.graphql", text: "query Book($id: ID!) { book(id: $id) { __typename id title author { __typename name } } }")]
        let output = try CodeGenerator.generate(schema: loaded, sources: sources, options: GenerationOptions())
        let metadata = try #require(output.files.first { $0.relativePath.hasSuffix("SchemaMetadata.swift") }).contents
        let lines = metadata.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for expected in [
            #"embeddedFields: ["Book": ["author"]] as [Swift.String: Swift.Set<Swift.String>],"#,
            #"keyArgs: ["Query": ["book": ["id"]]] as [Swift.String: [Swift.String: [Swift.String]]]"#,
            #""Book": ["id"],"#, "globalIDInterface: nil,", "interfaces: [:],", "unions: [:],",
        ] {
            #expect(lines.contains(expected), "\(expected) in\n\(metadata)")
        }
        try await TypeCheck.generated(output, moduleName: "CacheRedirect")
    }

    /// The metadata `SchemaMaxAgeScenario` (BatonClientTests) writes by hand is what the
    /// generator writes for `@cacheControl` on User and `@cacheControlField` on its email.
    @Test func theMetadataOfTheSchemaMaxAgeScenarioIsWhatTheGeneratorWrites() throws {
        let schema = "type Query { user: User }  type User { id: ID!  name: String  email: String }"
        let extra = #"extend type User @cacheControl(maxAge: 30) @cacheControlField(name: "email", maxAge: 5)"#
        let loaded = try SchemaLoader.load(sources: [(schema, "schema.graphqls"), (extra, "extra.graphqls")])
        let sources = [DocumentSource(path: "Q.graphql", text: "query CachedUser { user { __typename id name email } }")]
        let output = try CodeGenerator.generate(schema: loaded, sources: sources, options: GenerationOptions())
        let metadata = try #require(output.files.first { $0.relativePath.hasSuffix("SchemaMetadata.swift") }).contents
        let lines = metadata.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(#"typeMaxAge: ["User": 30] as [Swift.String: Swift.Int],"#), "\(metadata)")
        #expect(lines.contains(#"fieldMaxAge: ["User": ["email": 5]] as [Swift.String: [Swift.String: Swift.Int]]"#), "\(metadata)")
    }

    /// `@fieldPolicy` naming a field the type lacks, or a key argument the field lacks, and
    /// `@typePolicy(embeddedFields:)` naming a field the type lacks, are located errors.
    @Test func cachePoliciesNamingWhatTheSchemaLacksAreLocatedErrors() throws {
        for (extra, message) in [
            (#"extend type Query @fieldPolicy(forField: "bok", keyArgs: "id")"#, #"@fieldPolicy names "bok", which is not a field of Query"#),
            (#"extend type Query @fieldPolicy(forFields: "book", keyArgs: "isbn")"#, #"@fieldPolicy(keyArgs:) names "isbn", which is not an argument of Query.book"#),
            (#"extend type Book @typePolicy(embeddedFields: "writer")"#, #"@typePolicy(embeddedFields:) names "writer", which is not a field of Book"#),
        ] {
            do {
                _ = try load(extra)
                Issue.record("no error for \(extra)")
            } catch let errors as CodegenErrors {
                let error = try #require(errors.errors.first)
                #expect(error.message == message)
                #expect(error.location?.path == "extra.graphqls")
                #expect(error.location?.line == 1)
            }
        }
    }
}
