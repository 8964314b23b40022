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

    // MARK: @catch on operations, fragments and inline fragments (Relay's places for it)

    static let caughtDocuments = """
        fragment CaughtBits on User @catch { name @required(action: THROW) email }
        fragment NullBits on User @catch(to: NULL) { age }
        query Caught @catch {
          me {
            id
            ...CaughtBits
            ...NullBits
            ... on User @alias(as: "named") @catch { nicknames @required(action: THROW) }
          }
        }
        query Plain { users { id ...CaughtBits } }
        """

    func generate(documents: String) throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", Self.schema)
        try generation.write("caught.graphql", documents)
        return try generation.generate(schemaPaths: [generation.path("schema.graphqls")])
    }

    @Test func catchOnAnOperationAFragmentAndAnAliasedInlineFragmentMakesTheirAccessorsResults() throws {
        let output = try generate(documents: Self.caughtDocuments)
        let caught = try file(output, "CaughtQuery")
        // The operation: its root read catches (see GraphQLResult.catchResult).
        #expect(caught.contains("public static var __catchTarget: BatonAPI.FieldErrorHandling.CatchTarget? { .result }"))
        // The spreads say so, and their accessors hold what was caught.
        #expect(caught.contains(#".fragment("CaughtBits", on: CaughtBits.__parentType, catching: .result, selections: CaughtBits.__selections)"#))
        #expect(caught.contains(#".fragment("NullBits", on: NullBits.__parentType, catching: .null, selections: NullBits.__selections)"#))
        #expect(
            caught.contains(
                #"public var caughtBits: Result<CaughtBits, BatonAPI.GraphQLFieldError> { __data._catchingResult("__caught:fragment:CaughtBits") { () -> CaughtBits in _toFragment() } }"#
            ))
        #expect(caught.contains(#"public var nullBits: NullBits? { __data._catchingNull("__caught:fragment:NullBits") { () -> NullBits? in _toFragment() } }"#))
        // A caught fragment's fields are read through it only, not merged into the parent.
        #expect(!caught.contains("public var name:"))
        #expect(!caught.contains("public var age:"))
        // The aliased inline fragment.
        #expect(caught.contains(#"catching: .result, alias: "named", selections: Named.__selections)"#))
        #expect(caught.contains("public var named: Result<Named, BatonAPI.GraphQLFieldError>? { __data._catchingConditionalResult(\"__caught:inline:named\")"))
        // The fragment's own type catches when read on its own.
        let bits = try file(output, "CaughtBits")
        #expect(bits.contains("public static var __catchTarget: BatonAPI.FieldErrorHandling.CatchTarget? { .result }"))
        let null = try file(output, "NullBits")
        #expect(null.contains("public static var __catchTarget: BatonAPI.FieldErrorHandling.CatchTarget? { .null }"))
    }

    /// Relay's rule: `@catch` on an inline fragment needs `@alias`, or its fields would be read
    /// with the parent's, outside what it catches.
    @Test func catchOnAnInlineFragmentWithoutAliasIsALocatedError() throws {
        do {
            _ = try generate(documents: "query Bad { me { ... on User @catch { name } } }")
            Issue.record("generated")
        } catch let errors as CodegenErrors {
            #expect("\(errors)".contains("@catch on an inline fragment needs @alias"), "\(errors)")
        }
    }

    @Test func caughtAccessorsTypeCheckWithTheirReaders() async throws {
        let uses = """
            import BatonAPI

            func show(_ result: GraphQLResult<CaughtQuery.Data>, _ plain: PlainQuery.Data) -> [String] {
                var lines: [String] = []
                switch result.catchResult {
                case .success(let data)?:
                    if let me = data.me {
                        lines.append(me.id)
                        switch me.fragments.caughtBits {
                        case .success(let bits): lines.append(bits.name + (bits.email ?? ""))
                        case .failure(let error): lines.append(error.message)
                        }
                        lines.append(me.fragments.nullBits?.age.map(String.init) ?? "-")
                        if case .success(let named)? = me.named { lines += named.nicknames.compactMap { $0 } }
                    }
                case .failure(let error)?: lines.append(error.description)
                case nil: break
                }
                for user in plain.users ?? [] {
                    if let user, case .success(let bits) = user.fragments.caughtBits { lines.append(bits.name) }
                }
                return lines
            }
            """
        try await TypeCheck.generated(try generate(documents: Self.caughtDocuments), uses: ["Uses.swift": uses])
    }

    /// Data built with a generated initializer (a mutation's optimistic response, a test, a
    /// preview) holds the fields of the fragments read through accessors of their own (`@catch`,
    /// `@alias`), which are not merged into the struct's: otherwise those accessors would read
    /// fields that are not there.
    @Test func initializersTakeTheFieldsOfCaughtFragments() async throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", Self.schema)
        try generation.write("caught.graphql", Self.caughtDocuments)
        var options = GenerationOptions()
        options.selectionSetInitializers = .all
        let output = try generation.generate(schemaPaths: [generation.path("schema.graphqls")], options: options)
        let caught = try file(output, "CaughtQuery")
        for key in ["name", "email", "age", "nicknames"] {
            #expect(caught.contains("__object[\"\(key)\"]"), "the initializer writes \(key)")
        }
        let uses = """
            import BatonAPI

            func built() -> [String] {
                let me = CaughtQuery.Data.Me(id: "1", name: "Ada", email: nil, age: 36, nicknames: ["A"])
                var lines = [me.id]
                if case .success(let bits) = me.fragments.caughtBits { lines.append(bits.name) }
                if case .success(let named)? = me.named { lines += named.nicknames.compactMap { $0 } }
                return lines
            }
            """
        try await TypeCheck.generated(output, uses: ["Uses.swift": uses])
    }
}
