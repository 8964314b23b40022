import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Each enum case is also a static member of `GraphQLEnum<E>` and `GraphQLNullable<GraphQLEnum<E>>`,
/// so `HeroNameQuery(episode: .empire)` compiles (issue 16, item 9); a case named as a member the
/// wrapper already has (`none`, `null`, `some`, `unknown`, `case`) gets no shorthand there.
@Suite("Enum shorthands", .ownThread)
struct EnumShorthandTests {
    @Test func everyCaseButTheWrappersOwnNamesAndTheyTypeCheck() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write(
            "schema.graphqls",
            "enum Mode { FAST NONE NULL SOME UNKNOWN CASE DEFAULT }\ntype Query { run(mode: Mode, modes: [Mode!]): Mode! }\n")
        try generation.write("Run.graphql", "query Run($mode: Mode, $modes: [Mode!]) { run(mode: $mode, modes: $modes) }\n")
        let output = try generation.generate(schemaPaths: [generation.path("schema.graphqls")])
        let mode = try #require(output.files.first { $0.relativePath == "Schema/Enums/Mode.swift" }?.contents)
        // BatonAPI-qualified, so a user's type named like a BatonAPI one cannot hide them.
        let enumStart = try #require(mode.range(of: "extension BatonAPI.GraphQLEnum where T == Mode {"))
        let nullableStart = try #require(
            mode.range(of: "extension BatonAPI.GraphQLNullable where Wrapped == BatonAPI.GraphQLEnum<Mode> {"))
        let enumPart = String(mode[enumStart.lowerBound..<nullableStart.lowerBound])
        let nullablePart = String(mode[nullableStart.lowerBound...])
        #expect(enumPart.contains("public static var fast: Self { .case(.fast) }"))
        #expect(enumPart.contains("public static var `default`: Self { .case(.`default`) }"))
        #expect(enumPart.contains("static var null:"))
        #expect(enumPart.contains("static var some:"))
        for taken in ["none", "unknown", "`case`"] { #expect(!enumPart.contains("static var \(taken):")) }
        #expect(nullablePart.contains("public static var fast: Self { .some(.case(.fast)) }"))
        #expect(nullablePart.contains("static var unknown:"))
        for taken in ["none", "null", "some"] { #expect(!nullablePart.contains("static var \(taken):")) }

        _ = try OutputWriter.write(output.files, to: generation.path("Generated"))
        try generation.write(
            "Generated/Use.swift",
            """
            import BatonAPI
            let a = RunQuery(mode: .fast, modes: [.fast, .default])
            let b = RunQuery(mode: .some(.fast))
            let c = RunQuery(mode: .some(.case(.none)))
            let d = RunQuery(mode: .null)
            let e = RunQuery(mode: .init(Mode.unknown))
            let f: GraphQLEnum<Mode> = .some
            let g = f == .some && f != .fast

            """)
        let modules = try #require(TestPaths.builtModules, "needs the built BatonAPI module")
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: generation.path("Generated"))
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(generation.path("Generated/" + relative)) }
        }
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path] + files)
        #expect(result.status == 0, "\(result.stderr.prefix(3000))")
    }
}
