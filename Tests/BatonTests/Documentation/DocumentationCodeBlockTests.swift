import BatonTestSupport
import Foundation
import Testing

/// The code blocks of README.md and the DocC articles, compiled so that none can rot.
///
/// The rule: a ```` ```swift ```` block that imports something is a whole program and is
/// type-checked (as a `main.swift`) against the built modules and `MyAPI`, the module the README
/// has the reader generate (its `graphql` block and the client app tutorial's, against the
/// example server's schema); a Swift
/// block that starts with `// swift-tools-version` is a package manifest, and is skipped, as are
/// blocks in other languages (`sh`, `text`, `graphql`, `json`), Swift blocks without an import,
/// which continue the text around them, and blocks marked ```` ```swift fragment ```` (a SwiftUI
/// app's `@main`, a backend Baton does not depend on, an app's own generated mocks module).
@Suite("README and DocC code blocks compile", .ownThread)
struct DocumentationCodeBlockTests {
    struct Block: CustomStringConvertible {
        let file: String
        let line: Int
        let language: String
        /// The info string's other words: `fragment` marks a block that is not a whole program.
        let marks: [String]
        let code: String

        var description: String { "\(file):\(line)" }
        var isProgram: Bool {
            language == "swift" && !marks.contains("fragment") && !code.hasPrefix("// swift-tools-version")
                && code.split(separator: "\n").contains { $0.hasPrefix("import ") }
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
        let generated = folder.appendingPathComponent("Generated")
        let schema = BuiltModules.packageRoot.appendingPathComponent("Sources/BatonExampleServer/Resources/schema.graphqls")
        let generate = try await runProcess(
            build.appendingPathComponent("baton-tool"),
            ["generate", "--schema", schema.path, "--documents", documentURL.path, "--output", generated.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        var files: [String] = []
        let walk = FileManager.default.enumerator(atPath: generated.path)
        while let relative = walk?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(generated.appendingPathComponent(relative).path) }
        }
        let module = try await BuiltModules.swiftc(
            ["-parse-as-library", "-emit-module", "-module-name", "MyAPI",
             "-emit-module-path", folder.appendingPathComponent("MyAPI.swiftmodule").path] + files)
        #expect(module.status == 0, "\(module.errors)")
        return folder
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
        }
    }
}
