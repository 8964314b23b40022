import BatonExampleServer
import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// `baton.json`, the `baton` command line and the operation manifest.
@Suite("Configuration and command line")
struct ConfigurationTests {
    @Test func batonJSONPathsAreRelativeToItsFolder() throws {
        let configuration = try CodegenConfiguration.parse(
            """
            {
              "schema": ["schema.graphqls", "/abs/extension.graphqls"],
              "documents": "graphql/**/*.graphql",
              "output": "Generated",
              "namespace": "API",
              "operationManifest": "manifest.json",
              "customScalars": {"DateTime": "Foundation.Date"},
              "layout": "per-document"
            }
            """, path: "/project/baton.json")
        #expect(configuration.schemaPaths == ["/project/schema.graphqls", "/abs/extension.graphqls"])
        #expect(configuration.documentGlobs == ["/project/graphql/**/*.graphql"])
        #expect(configuration.outputDirectory == "/project/Generated")
        #expect(configuration.namespace == "API")
        #expect(configuration.operationManifestPath == "/project/manifest.json")
        #expect(configuration.customScalars == ["DateTime": "Foundation.Date"])
        #expect(configuration.fileLayout == .perDocument)
    }

    @Test func manifestHasApollosFormat() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("a.graphql", "query HeroName { hero { name } }\nmutation Login($email: String!) { login(email: $email) }\n")
        let manifest = try generation.generate().manifest
        let json = try #require(try JSONSerialization.jsonObject(with: Data(manifest.json.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "apollo-persisted-query-manifest")
        #expect(json["version"] as? Int == 1)
        let operations = try #require(json["operations"] as? [[String: String]])
        #expect(operations.map { $0["name"] } == ["HeroName", "Login"])
        #expect(operations.map { $0["type"] } == ["query", "mutation"])
        #expect(operations[0]["body"] == "query HeroName { hero { __typename name } }")
        #expect(operations[0]["id"] == OperationRenderer.sha256("query HeroName { hero { __typename name } }"))
        #expect(Set(operations[0].keys) == ["id", "name", "type", "body"])
    }

    @Test func commandLineGeneratesAndReportsErrorsWithExitStatus() async throws {
        let baton = try #require(TestPaths.batonExecutable, "needs the built baton executable")
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("graphql/Hero.graphql", "query HeroName($episode: Episode) { hero(episode: $episode) { name } }\n")
        let output = generation.path("Out")
        let manifest = generation.path("manifest.json")
        let run = try await runProcess(
            baton,
            [
                "generate", "--schema", TestPaths.exampleSchema.path, "--documents", generation.path("graphql") + "/*.graphql",
                "--output", output, "--operation-manifest", manifest, "--namespace", "API", "--custom-scalar", "Upload=String",
                "--layout", "per-definition",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: output + "/Operations/HeroNameQuery.swift"))
        #expect(FileManager.default.fileExists(atPath: output + "/Schema/Enums/Episode.swift"))
        #expect(FileManager.default.fileExists(atPath: manifest))
        let again = try await runProcess(
            baton,
            [
                "generate", "--schema", TestPaths.exampleSchema.path, "--documents", generation.path("graphql") + "/*.graphql", "--output", output,
                "--namespace", "API", "--layout", "per-definition",
            ])
        #expect(again.stdout.contains("0 written"))

        try generation.write("graphql/Bad.graphql", "query Bad { hero { nope } }\n")
        let failed = try await runProcess(baton, ["generate", "--schema", TestPaths.exampleSchema.path, "--documents", generation.path("graphql") + "/*.graphql", "--output", output])
        #expect(failed.status == 1)
        #expect(failed.stderr == generation.path("graphql/Bad.graphql") + ":1:20: error: Cannot query field \"nope\" on type \"Character\". Did you mean \"name\"?\n")
    }

    @Test func commandLineReadsBatonJSONWhenGivenNoFlags() async throws {
        let baton = try #require(TestPaths.batonExecutable, "needs the built baton executable")
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("Me.graphql", "query Me { me { email } }\n")
        try generation.write(
            "baton.json", "{\"schema\": \"\(TestPaths.exampleSchema.path)\", \"documents\": \"*.graphql\", \"output\": \"Generated\"}")
        let run = try await runProcess(baton, ["generate"], in: generation.directory)
        #expect(run.status == 0, "\(run.stderr)")
        // The default layout: a file per ~40 definitions.
        #expect(FileManager.default.fileExists(atPath: generation.path("Generated/GraphQLDefinitions00.swift")))
        #expect(!FileManager.default.fileExists(atPath: generation.path("Generated/Operations")))
    }

    /// Under the build plugin the documents come from the plugin, so `baton.json` may leave them
    /// out; the command line then needs `--documents`, and says so when it has none.
    @Test func documentsAreOptionalInBatonJSON() async throws {
        let configuration = try CodegenConfiguration.parse(#"{"schema": "schema.graphqls"}"#, path: "/project/baton.json")
        #expect(configuration.documentGlobs.isEmpty)
        #expect(configuration.schemaPaths == ["/project/schema.graphqls"])

        let baton = try #require(TestPaths.batonExecutable, "needs the built baton executable")
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("graphql/Me.gql", "query Me { me { email } }\n")
        try generation.write("graphql/baton.json", "{\"schema\": \"\(TestPaths.exampleSchema.path)\"}")
        let config = generation.path("graphql/baton.json")
        let none = try await runProcess(baton, ["generate", "--config", config, "--output", generation.path("Out")])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no documents"), "\(none.stderr)")
        let run = try await runProcess(
            baton, ["generate", "--config", config, "--output", generation.path("Out"), "--layout", "per-document", "--documents", generation.path("graphql/Me.gql")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: generation.path("Out/Me.gql.swift")))
    }

    /// A custom scalar with no Swift type becomes `String`: generation says so, naming the scalar
    /// and how to map it, and still succeeds. A mapped one (and `Upload`) gets no warning.
    @Test func anUnmappedCustomScalarIsWarnedAbout() async throws {
        let baton = try #require(TestPaths.batonExecutable, "needs the built baton executable")
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", "scalar JSON\nscalar Date\nscalar Upload\ntype Query { settings: JSON, today: Date, echo(file: Upload): String }\n")
        try generation.write("graphql/Settings.graphql", "query Settings { settings today echo(file: \"a\") }\n")
        let arguments = [
            "generate", "--schema", generation.path("schema.graphqls"), "--documents", generation.path("graphql") + "/*.graphql",
            "--output", generation.path("Out"),
        ]
        let unmapped = try await runProcess(baton, arguments)
        #expect(unmapped.status == 0, "\(unmapped.stderr)")
        let lines = unmapped.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(unmapped.stderr)")
        #expect(lines.first?.hasPrefix(generation.path("schema.graphqls") + ": warning: custom scalar Date has no Swift type") == true)
        #expect(lines.last?.contains("warning: custom scalar JSON has no Swift type") == true)
        #expect(unmapped.stderr.contains("--custom-scalar JSON=MyType"))

        let mapped = try await runProcess(baton, arguments + ["--custom-scalar", "JSON=String", "--custom-scalar", "Date=String"])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stderr.isEmpty, "\(mapped.stderr)")
    }

    @Test func fetchSchemaDownloadsTheExampleServersSchema() async throws {
        let server = try await ExampleServer.start()
        do {
            let result = try await SchemaFetcher(url: server.url, headers: [("X-Test", "1")]).fetch()
            let sdl = try result.sdl()
            #expect(sdl.contains("type Query"))
            #expect(sdl.contains("interface Character"))
            #expect(sdl.contains("union SearchResult"))
            // The fetched schema generates the same operations as the SDL file.
            let generation = try Generation()
            defer { generation.remove() }
            try generation.write("a.graphql", "query HeroName($episode: Episode) { hero(episode: $episode) { name ... on Human { height } } }\n")
            try generation.write("schema.json", result.introspectionJSON)
            let fromServer = try generation.generate(schemaPaths: [generation.path("schema.json")])
            let fromFile = try generation.generate()
            #expect(fromServer.files.first { $0.relativePath == "Operations/HeroNameQuery.swift" } == fromFile.files.first { $0.relativePath == "Operations/HeroNameQuery.swift" })
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func fetchSchemaCommandWritesSDLOrJSON() async throws {
        let baton = try #require(TestPaths.batonExecutable, "needs the built baton executable")
        let server = try await ExampleServer.start()
        let generation = try Generation()
        defer { generation.remove() }
        let sdl = try await runProcess(baton, ["fetch-schema", "--url", server.url.absoluteString, "--output", generation.path("schema.graphqls"), "-H", "Authorization: token"])
        let json = try await runProcess(baton, ["fetch-schema", "--url", server.url.absoluteString, "--output", generation.path("schema.json")])
        await server.stop()
        #expect(sdl.status == 0, "\(sdl.stderr)")
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try String(contentsOfFile: generation.path("schema.graphqls"), encoding: .utf8).contains("type Mutation"))
        #expect(try String(contentsOfFile: generation.path("schema.json"), encoding: .utf8).contains("\"__schema\""))
        let refused = try await runProcess(baton, ["fetch-schema", "--url", "http://127.0.0.1:1/graphql", "--output", generation.path("x.json")])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: cannot reach http://127.0.0.1:1/graphql"))
    }

    /// A typed optimistic response needs the mutation's initializers: they come without opting
    /// in; queries get none unless asked; `false` turns them all off.
    @Test func mutationsHaveInitializersByDefault() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("Ops.graphql", """
            mutation Upvote($postId: Int!) { upvotePost(postId: $postId) { id votes } }
            query Hero { hero { name } }
            """)
        func source(_ name: String, _ options: GenerationOptions) throws -> String {
            try #require(try generation.generate(options: options).files.first { $0.relativePath.contains(name) }).contents
        }
        #expect(try source("UpvoteMutation", GenerationOptions()).contains("public init(upvotePost:"))
        #expect(try !source("HeroQuery", GenerationOptions()).contains("public init(hero:"))
        var off = GenerationOptions()
        off.selectionSetInitializers = .none
        #expect(try !source("UpvoteMutation", off).contains("public init(upvotePost:"))
        let configuration = try CodegenConfiguration.parse(#"{"schema": "s.graphqls", "selectionSetInitializers": false}"#, path: "baton.json")
        #expect(configuration.selectionSetInitializers == .none)
        #expect(try CodegenConfiguration.parse(#"{"schema": "s.graphqls"}"#, path: "baton.json").selectionSetInitializers == .default)
    }

}
