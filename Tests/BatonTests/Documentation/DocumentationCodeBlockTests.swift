import BatonTestSupport
import Foundation
import Testing

/// The code blocks of README.md and the DocC articles, compiled so that none can rot.
///
/// The rules:
/// - a ```` ```swift ```` block that imports something is a whole program and is type-checked (as
///   a `main.swift`) against the built modules and `MyAPI`, the module the README has the reader
///   generate (its `graphql` block and the client app tutorial's, against the example server's
///   schema);
/// - any other Swift block continues the text around it: it is type-checked in its article's
///   context, `Context/<Article>.swift` beside this file, which declares what the article's
///   snippets assume (`client`, `store`, a `data` value…). The context's lines before
///   `// MARK: snippet` are the file's top level; after it comes a function whose body is
///   `/* snippet */`: each block becomes one such function (its own scope, so two blocks may both
///   declare `client`), or, when it only declares types and extensions, goes to the top level. All
///   the blocks of an article are type-checked in one compiler run;
/// - a block with imports that uses what another block of its article declares (an app's `@main`
///   over the article's screens) is marked ```` ```swift in-context ````: it is compiled in its
///   article's context like a block without imports (its imports stay at the file's top level);
/// - a Swift block that starts with `// swift-tools-version` is a package manifest: it is
///   type-checked against the toolchain's `PackageDescription` at that tools version;
/// - a block marked ```` ```swift fragment ```` is not compiled: it cannot be (Apollo iOS's API,
///   shown for comparison; an app's `@main`, its test target, a backend Baton does not depend on),
///   and its first line is a comment that says why (`fragmentsSayWhy`);
/// - ```` ```graphql ```` blocks are checked by `DocumentationGraphQLBlockTests`.
@Suite("README and DocC code blocks compile", .ownThread)
struct DocumentationCodeBlockTests {
    struct Block: CustomStringConvertible {
        let file: String
        let line: Int
        let language: String
        /// The info string's other words: `fragment` marks a block that is not compiled.
        let marks: [String]
        let code: String

        var description: String { "\(file):\(line)" }
        var isCompiledSwift: Bool {
            language == "swift" && !marks.contains("fragment") && !code.hasPrefix("// swift-tools-version")
        }
        var isProgram: Bool {
            isCompiledSwift && !marks.contains("in-context") && code.split(separator: "\n").contains { $0.hasPrefix("import ") }
        }
        var isSnippet: Bool { isCompiledSwift && !isProgram }
        /// Whether the block only declares things (types, extensions, functions): it then goes
        /// to the top level of its article's file rather than into a function.
        var onlyDeclares: Bool {
            let keywords = ["import ", "struct ", "final class ", "class ", "enum ", "extension ", "protocol ", "actor ", "func ", "@"]
            let topLevel = code.split(separator: "\n").filter { line in
                guard let first = line.first, !first.isWhitespace else { return false }
                return !line.hasPrefix("//") && !"})]".contains(first)
            }
            return !topLevel.isEmpty && topLevel.allSatisfy { line in keywords.contains { line.hasPrefix($0) } }
        }
    }

    /// The fenced blocks of a Markdown file.
    static func blocks(in relativePath: String) throws -> [Block] {
        let text = try String(contentsOf: BuiltModules.packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
        var blocks: [Block] = []
        var open: (line: Int, language: String, marks: [String], code: [Substring])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if let current = open {
                    blocks.append(Block(
                        file: relativePath, line: current.line, language: current.language, marks: current.marks,
                        code: current.code.joined(separator: "\n")))
                    open = nil
                } else {
                    let info = trimmed.dropFirst(3).split(separator: " ").map(String.init)
                    open = (number + 1, info.first ?? "", Array(info.dropFirst()), [])
                }
            } else if open != nil {
                open?.code.append(line)
            }
        }
        return blocks
    }

    /// README.md and every DocC article.
    static var documents: [String] {
        var paths = ["README.md"]
        let sources = BuiltModules.packageRoot.appendingPathComponent("Sources")
        let walk = FileManager.default.enumerator(atPath: sources.path)
        while let relative = walk?.nextObject() as? String {
            if relative.contains(".docc/") && relative.hasSuffix(".md") { paths.append("Sources/" + relative) }
        }
        return paths.sorted()
    }

    /// `MyAPI`: the README's `graphql` block generated with the build's `baton` against the
    /// example server's schema, compiled into a module.
    ///
    /// Detached: a `Task {}` made by the first test case would inherit its task-locals, among
    /// them `OwnThreadTrait.holdsSlot`, so its child processes would give back and then wait for
    /// an `ownThreads` slot that no one frees: the test cases that hold both slots are the ones
    /// awaiting this task (the suite hung before its first test ended).
    static let myAPI = Task<URL, any Error>.detached {
        let build = try #require(BuiltModules.buildFolder, "needs the built modules (swift build --build-tests)")
        let folder = try BuiltModules.temporaryFolder("myapi")
        // The README's first query and the client app tutorial's documents (both against the
        // example server's schema).
        let readme = try #require(try blocks(in: "README.md").first { $0.language == "graphql" }, "the README's graphql block")
        let tutorial = try blocks(in: "Sources/Baton/Baton.docc/ClientAppTutorial.md").filter { $0.language == "graphql" }
        let documentURL = folder.appendingPathComponent("Hero.graphql")
        try ([readme] + tutorial).map(\.code).joined(separator: "\n").write(to: documentURL, atomically: true, encoding: .utf8)
        let schema = BuiltModules.packageRoot.appendingPathComponent("Sources/BatonExampleServer/Resources/schema.graphqls")
        try await generateModule(
            "MyAPI", schemaPaths: [schema.path], documentPaths: [documentURL.path], in: folder, build: build, label: "README")
        return folder
    }

    /// Generates Swift for `documentPaths` against `schemaPaths` with the built `baton` tool and
    /// compiles it into `module` in `folder` (a module the article's snippets import).
    static func generateModule(
        _ module: String, schemaPaths: [String], documentPaths: [String], in folder: URL, build: URL, label: String
    ) async throws {
        let generated = folder.appendingPathComponent("Generated")
        let generate = try await runProcess(
            build.appendingPathComponent("baton-tool"),
            ["generate", "--output", generated.path]
                + schemaPaths.flatMap { ["--schema", $0] }
                + documentPaths.flatMap { ["--documents", $0] })
        #expect(generate.status == 0, "\(label): \(generate.stderr)")
        var files: [String] = []
        let walk = FileManager.default.enumerator(atPath: generated.path)
        while let relative = walk?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(generated.appendingPathComponent(relative).path) }
        }
        let compiled = try await BuiltModules.swiftc(
            ["-parse-as-library", "-emit-module", "-module-name", module,
             "-emit-module-path", folder.appendingPathComponent("\(module).swiftmodule").path] + files)
        #expect(compiled.status == 0, "\(label): \(compiled.errors)")
    }

    @Test("The README is a five-minute read: at most 12 KB, with the CI's two commands")
    func readmeIsShort() throws {
        let readme = try String(contentsOf: BuiltModules.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.utf8.count <= 12 * 1024)
        let shell = try Self.blocks(in: "README.md").filter { $0.language == "sh" }.map(\.code)
        #expect(shell.contains { $0.contains("swift run baton-demo") && $0.contains("scripts/test") })
    }

    @Test("Every Swift program block of README.md and the DocC articles type-checks", arguments: documents)
    func programBlocksTypeCheck(_ document: String) async throws {
        let programs = try Self.blocks(in: document).filter(\.isProgram)
        guard !programs.isEmpty else { return }
        let myAPI = try await Self.myAPI.value
        for block in programs {
            let result = try await BuiltModules.typecheck(block.code, firstSearchPaths: [myAPI])
            #expect(result.status == 0, "\(block): \(result.errors)")
            #expect(!result.errors.contains("deprecated"), "\(block) uses deprecated API: \(result.errors)")
        }
    }

    /// One file holding every snippet of an article after its context, and where each block's
    /// lines landed in it (to name the block and line a diagnostic is about).
    struct SnippetFile {
        var source: String
        /// Per block: the lines of the generated file that hold its code (1-based).
        var placements: [(block: Block, lines: ClosedRange<Int>)]
        /// Whether the context imports SwiftUI: it is then compiled against the SwiftUI stand-in
        /// and Baton built with its wrappers (`SwiftUIStandInTests.modules`).
        var needsSwiftUI: Bool

        init(context: String, blocks: [Block]) throws {
            let lines = context.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let mark = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// MARK: snippet" },
                                    "the context has no `// MARK: snippet` line")
            let prelude = Array(lines[..<mark])
            let template = Array(lines[(mark + 1)...])
            let hole = try #require(template.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "/* snippet */" },
                                    "the context's snippet function has no `/* snippet */` body")
            var output = prelude
            placements = []
            for block in blocks where block.onlyDeclares {
                output.append("// \(block)")
                let code = block.code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                placements.append((block, (output.count + 1)...(output.count + code.count)))
                output += code
            }
            for block in blocks where !block.onlyDeclares {
                output.append("// \(block)")
                var head = template[..<hole].joined(separator: "\n")
                if let name = head.range(of: "func snippet(") {
                    head.replaceSubrange(name, with: "func snippet_\(block.line)(")
                }
                output += head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let code = block.code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                placements.append((block, (output.count + 1)...(output.count + code.count)))
                output += code
                output += template[(hole + 1)...]
            }
            source = output.joined(separator: "\n") + "\n"
            needsSwiftUI = prelude.contains("import SwiftUI")
        }

        /// `file.swift:LINE:COL: error: …` lines rewritten as `Article.md:LINE: error: …`, the
        /// line being the block's line in its Markdown file.
        func located(_ diagnostics: String) -> String {
            diagnostics.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count == 4, parts[0].hasSuffix(".swift"), let number = Int(parts[1]) else { return String(line) }
                guard let placement = placements.first(where: { $0.lines.contains(number) }) else {
                    return "(the context, line \(number) of the generated file):\(parts[2]):\(parts[3])"
                }
                // The fence is on `block.line`; its code starts on the next line.
                return "\(placement.block.file):\(placement.block.line + 1 + number - placement.lines.lowerBound):\(parts[2]):\(parts[3])"
            }.joined(separator: "\n")
        }
    }

    /// The context of an article's snippets: `Context/<Article>.swift` beside this file.
    static func context(of document: String) -> URL {
        let name = URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Context").appendingPathComponent(name + ".swift")
    }

    /// The operations an article's snippets use that neither `MyAPI` nor `BatonExampleAPI` has
    /// (another schema's, such as Apollo's animal kingdom): `Context/<Article>.api.json` names the
    /// module, its schema files and document globs (relative to the package root), and with
    /// `"articleBlocks": true` takes the article's graphql blocks too (SDL blocks as schema
    /// extensions, the others as documents); they are
    /// generated with the build's `baton` and compiled into that module. `nil` without the file.
    static func articleAPI(_ description: URL, document: String) async throws -> URL? {
        guard let json = try? Data(contentsOf: description) else { return nil }
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "\(description.path): a JSON object")
        let module = try #require(object["module"] as? String, "\(description.path): \"module\"")
        let schemas = try #require(object["schema"] as? [String], "\(description.path): \"schema\", a list of paths")
        let documents = try #require(object["documents"] as? [String], "\(description.path): \"documents\", a list of globs")
        let build = try #require(BuiltModules.buildFolder, "needs the built modules (swift build --build-tests)")
        let folder = try BuiltModules.temporaryFolder(module)
        let root = BuiltModules.packageRoot
        var schemaPaths = schemas.map { root.appendingPathComponent($0).path }
        var documentPaths = documents.map { root.appendingPathComponent($0).path }
        // "articleBlocks": the article's own graphql blocks are the module's schema extensions
        // (SDL blocks) and documents (the others).
        if object["articleBlocks"] as? Bool == true {
            let graphql = try blocks(in: document).filter { $0.language == "graphql" }
            for (sdl, name) in [(true, "Article.graphqls"), (false, "Article.graphql")] {
                let chosen = graphql.filter { DocumentationGraphQLBlockTests.isSDL($0) == sdl }
                guard !chosen.isEmpty else { continue }
                let file = folder.appendingPathComponent(name)
                try chosen.map(\.code).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
                if sdl { schemaPaths.append(file.path) } else { documentPaths.append(file.path) }
            }
        }
        try await generateModule(
            module, schemaPaths: schemaPaths, documentPaths: documentPaths, in: folder, build: build,
            label: description.lastPathComponent)
        return folder
    }

    @Test("Every Swift snippet of README.md and the DocC articles type-checks in its article's context", arguments: documents)
    func snippetsTypeCheck(_ document: String) async throws {
        let snippets = try Self.blocks(in: document).filter(\.isSnippet)
        guard !snippets.isEmpty else { return }
        let contextURL = Self.context(of: document)
        let context = try #require(
            try? String(contentsOf: contextURL, encoding: .utf8),
            "\(document) has Swift blocks without an import (\(snippets.map(\.line))): they need a context, \(contextURL.path)")
        let file = try SnippetFile(context: context, blocks: snippets)
        var searchPaths = [try await Self.myAPI.value]
        if let api = try await Self.articleAPI(contextURL.deletingPathExtension().appendingPathExtension("api.json"), document: document) {
            searchPaths.append(api)
        }
        // SwiftUI's stand-in, and Baton compiled again with its SwiftUI wrappers against it.
        if file.needsSwiftUI { searchPaths.insert(try await SwiftUIStandInTests.modules.value, at: 0) }
        let folder = try BuiltModules.temporaryFolder("snippets")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Named for no module it imports (a file named BatonSQLite.swift would be module BatonSQLite).
        let source = folder.appendingPathComponent("DocumentationSnippets.swift")
        try file.source.write(to: source, atomically: true, encoding: .utf8)
        let result = try await BuiltModules.swiftc(
            ["-parse-as-library", "-typecheck", "-module-name", "DocumentationSnippets", source.path], firstSearchPaths: searchPaths)
        #expect(result.status == 0, "\(file.located(result.errors))")
        #expect(!result.errors.contains("deprecated"), "deprecated API: \(file.located(result.errors))")
    }

    /// The toolchain's `PackageDescription` module: `<runtimeResourcePath>/pm/ManifestAPI`.
    static func manifestAPI() async throws -> URL {
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["swiftc", "-print-target-info"])
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let resources = try #require((object?["paths"] as? [String: Any])?["runtimeResourcePath"] as? String,
                                     "swiftc -print-target-info names no runtimeResourcePath: \(info.stdout)")
        let api = URL(fileURLWithPath: resources).appendingPathComponent("pm/ManifestAPI")
        try #require(FileManager.default.fileExists(atPath: api.appendingPathComponent("PackageDescription.swiftmodule").path),
                     "no PackageDescription module in \(api.path)")
        return api
    }

    @Test("Every package manifest block type-checks against the toolchain's PackageDescription")
    func manifestBlocksTypeCheck() async throws {
        let manifests = try Self.documents.flatMap { try Self.blocks(in: $0) }
            .filter { $0.language == "swift" && !$0.marks.contains("fragment") && $0.code.hasPrefix("// swift-tools-version") }
        #expect(!manifests.isEmpty)
        let api = try await Self.manifestAPI()
        let folder = try BuiltModules.temporaryFolder("manifests")
        defer { try? FileManager.default.removeItem(at: folder) }
        for block in manifests {
            let firstLine = block.code.prefix { $0 != "\n" }
            let version = try #require(firstLine.split(separator: ":").last?.trimmingCharacters(in: .whitespaces), "\(block): its tools version")
            let file = folder.appendingPathComponent("Package.swift")
            try block.code.write(to: file, atomically: true, encoding: .utf8)
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swiftc", "-typecheck", "-swift-version", "6", "-I", api.path, "-package-description-version", version, file.path])
            #expect(result.status == 0, "\(block): \(result.stderr)")
        }
    }

    @Test("A block marked fragment says why in its first line")
    func fragmentsSayWhy() throws {
        for document in Self.documents {
            for block in try Self.blocks(in: document) where block.marks.contains("fragment") {
                #expect(block.code.hasPrefix("//"), "\(block): a fragment's first line is a comment saying why it is not compiled")
            }
        }
    }
}
