import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// `@catch`, `@required`, and `@semanticNonNull` read under `@throwOnFieldError` (issue 29): each
/// field's `__selections` entry carries its `errorHandling`, and its accessor's type says what a
/// read can give (Relay's typing): not optional where a null cannot reach it, a `Result` under
/// `@catch(to: RESULT)`. The generated code and app code reading it type-check.
@Suite("Field error directives in generated code", .ownThread)
struct FieldErrorDirectiveRenderingTests {
    static let schema = """
        directive @semanticNonNull(levels: [Int] = [0]) on FIELD_DEFINITION
        type Query { me: User users: [User] }
        type User {
          id: ID!
          name: String @semanticNonNull
          nicknames: [String] @semanticNonNull(levels: [0, 1])
          email: String
          age: Int
          best: User @semanticNonNull
        }
        """

    static let documents = """
        query Profile @throwOnFieldError {
          me { id name nicknames email @catch(to: RESULT) age @required(action: LOG) best { name } }
        }
        query Loose { me { name email @catch(to: NULL) age @catch best @required(action: NONE) { id } } }
        fragment UserBits on User { name @required(action: THROW) email @catch }
        query WithBits { users { ...UserBits } }
        """

    func generate() throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", Self.schema)
        try generation.write("profile.graphql", Self.documents)
        return try generation.generate(schemaPaths: [generation.path("schema.graphqls")])
    }

    func file(_ output: GeneratedOutput, _ name: String) throws -> String {
        try #require(
            output.files.first { $0.relativePath.split(separator: "/").last.map(String.init)?.hasPrefix(name + ".") ?? false },
            "\(output.files.map(\.relativePath))"
        ).contents
    }

    @Test func throwOnFieldErrorMakesSemanticNonNullFieldsNotOptional() throws {
        let profile = try file(try generate(), "ProfileQuery")
        #expect(profile.contains("public var name: Swift.String { __data[\"name\"] }"))
        #expect(profile.contains("public var nicknames: [Swift.String] { __data[\"nicknames\"] }"))
        #expect(profile.contains("public var best: Best { __data[\"best\"] }"))
        // Not semantically non-null: optional still.
        #expect(profile.contains("public var me: Me? { __data[\"me\"] }"))
        #expect(
            profile.contains(
                #".field("name", type: .scalar("String"), errorHandling: BatonAPI.FieldErrorHandling(throwsOnFieldError: true, semanticNonNullLevels: [0]))"#))
        #expect(profile.contains("semanticNonNullLevels: [0, 1]"))
    }

    @Test func catchToResultIsAResultAndCatchToNullIsOptional() throws {
        let output = try generate()
        let profile = try file(output, "ProfileQuery")
        #expect(profile.contains("public var email: Result<Swift.String?, BatonAPI.GraphQLFieldError> { __data[\"email\"] }"))
        #expect(profile.contains("catchTarget: .result, throwsOnFieldError: true"))
        let loose = try file(output, "LooseQuery")
        #expect(loose.contains("public var email: Swift.String? { __data[\"email\"] }"))
        #expect(loose.contains("catchTarget: .null"))
        // `@catch` without `to:` is `RESULT`, as Relay's default.
        #expect(loose.contains("public var age: Result<Swift.Int?, BatonAPI.GraphQLFieldError> { __data[\"age\"] }"))
        // Without `@throwOnFieldError`, `@semanticNonNull` changes nothing.
        #expect(loose.contains("public var name: Swift.String? { __data[\"name\"] }"))
    }

    @Test func requiredFieldsAreNotOptional() throws {
        let output = try generate()
        let profile = try file(output, "ProfileQuery")
        #expect(profile.contains("public var age: Swift.Int { __data[\"age\"] }"))
        #expect(profile.contains("required: .log"))
        let loose = try file(output, "LooseQuery")
        #expect(loose.contains("public var best: Best { __data[\"best\"] }"))
        #expect(loose.contains("required: .silent"))
        let bits = try file(output, "UserBits")
        #expect(bits.contains("public var name: Swift.String { __data[\"name\"] }"))
        #expect(bits.contains("required: .`throw`"))
    }

    @Test func directivesStayOutOfWhatIsSent() throws {
        let output = try generate()
        for operation in output.manifest.operations {
            for directive in ["@catch", "@required", "@throwOnFieldError"] {
                #expect(!operation.body.contains(directive), "\(operation.name): \(operation.body)")
            }
        }
    }

    /// The generated code compiles with app code that reads each kind of accessor.
    @Test func generatedCodeAndItsReadersTypeCheck() async throws {
        let uses = """
            import BatonAPI

            func show(_ profile: ProfileQuery.Data, _ loose: LooseQuery.Data, _ bits: WithBitsQuery.Data) -> [String] {
                var lines: [String] = []
                if let me = profile.me {
                    lines.append(me.name)
                    lines += me.nicknames
                    lines.append(me.best.name)
                    lines.append(String(me.age))
                    switch me.email {
                    case .success(let email): lines.append(email ?? "no email")
                    case .failure(let error): lines.append(error.message + " at " + (error.path?.description ?? ""))
                    }
                }
                if let me = loose.me {
                    lines.append(me.email ?? "-")
                    lines.append(me.best.id)
                    if case .success(let age?) = me.age { lines.append(String(age)) }
                }
                for user in bits.users ?? [] {
                    if let bits = user?.fragments.userBits { lines.append(bits.name) }
                }
                return lines
            }
            """
        try await TypeCheck.generated(try generate(), uses: ["Uses.swift": uses])
    }
}
