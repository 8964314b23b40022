import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Client schema extensions (issue 28 item 4): Relay's (`extend type` and client-only types in
/// a `.graphql` file among the documents) and Apollo's (`@client` on a field declared by a
/// schema extension). Client fields are typed in the generated Swift like any other, marked
/// `isClientOnly` for the store, and never sent: not in the document, the manifest or the
/// persisted-query hash.
@Suite("Client schema extensions", .ownThread)
struct ClientSchemaExtensionTests {
    static let clientSchema = """
        extend type Todo {
          isSelected: Boolean
          note(language: String): String
        }
        type LocalSettings {
          theme: String
          fontSize: Int!
        }
        extend type Query {
          localSettings: LocalSettings
          selectedCount: Int
        }
        """

    static let documents = """
        query TodoWithSelection($id: ID!, $language: String) {
          node(id: $id) { id ... on Todo { text isSelected note(language: $language) } }
        }
        query Settings { localSettings { theme fontSize } selectedCount }
        fragment TodoFlags on Todo { isSelected }
        query FlagsOnly($id: ID!) { node(id: $id) { ... on Todo { ...TodoFlags } } }
        fragment SettingsFields on LocalSettings { theme }
        query MixedRoot { viewer { id } localSettings { ...SettingsFields } }
        """

    func generate(documents: String = Self.documents) throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("clientSchema.graphql", Self.clientSchema)
        try generation.write("operations.graphql", documents)
        return try generation.generate()
    }

    func body(_ output: GeneratedOutput, _ name: String) throws -> String {
        try #require(output.manifest.operations.first { $0.name == name }).body
    }

    func file(_ output: GeneratedOutput, _ path: String) throws -> String {
        try #require(output.files.first { $0.relativePath == path }).contents
    }

    /// Apollo Client apps select `@client` fields no schema declares (local resolvers answer
    /// them): a typed client cannot type them, and the error says where to declare them.
    @Test func anUndeclaredClientFieldSaysWhereToDeclareIt() throws {
        do {
            _ = try generate(documents: "query User { viewer { id } authenticated @client }")
            Issue.record("an undeclared @client field generated")
        } catch let errors as CodegenErrors {
            let message = try #require(errors.errors.first?.description)
            #expect(message.contains(#"Cannot query field "authenticated" on type "Query"."#))
            #expect(message.contains("extend type Query { authenticated: String }"), "\(message)")
            #expect(message.contains("operations.graphql:1:"), "\(message)")
        }
    }

    /// Relay's `SkipClientExtensionsTransform`: client fields leave the document with their
    /// arguments' variables; what the server needs stays.
    @Test func clientFieldsAreStrippedFromTheDocumentSent() throws {
        let output = try generate()
        let sent = try body(output, "TodoWithSelection")
        #expect(sent == "query TodoWithSelection($id: ID!) { node(id: $id) { __typename id ... on Todo { text } } }")
    }

    /// A selection set that stripping empties gets `__typename`, as Relay prints it: a fragment
    /// of client fields only, spread on a server type, is still a valid fragment.
    @Test func aSelectionSetLeftEmptyGetsTypename() throws {
        let output = try generate()
        let sent = try body(output, "FlagsOnly")
        #expect(sent.contains("...TodoFlags"))
        #expect(sent.contains("fragment TodoFlags on Todo { __typename }"))
        #expect(!sent.contains("isSelected"))
        // The fragment's own definition is the one sent too.
        #expect(try file(output, "Fragments/TodoFlags.swift").contains(#"fragmentDefinition = "fragment TodoFlags on Todo { __typename }""#))
    }

    /// Fields and fragments of a client-only type leave with the client field that reaches them.
    @Test func clientTypesAndTheirFragmentsAreNotSent() throws {
        let output = try generate()
        #expect(try body(output, "MixedRoot") == "query MixedRoot { viewer { __typename id } }")
    }

    /// The manifest and the persisted-query id are those of the stripped document; a query of
    /// client fields only is never sent, so it is not in the manifest (Relay gives it no text).
    @Test func manifestAndHashAreOfTheStrippedDocument() throws {
        let output = try generate()
        #expect(Set(output.manifest.operations.map(\.name)) == ["TodoWithSelection", "FlagsOnly", "MixedRoot"])
        for operation in output.manifest.operations {
            #expect(operation.id == OperationRenderer.sha256(operation.body))
            let generated = try file(output, "Operations/\(operation.name)Query.swift")
            #expect(generated.contains("operationIdentifier = \"\(operation.id)\""))
            for clientField in ["isSelected", "note(", "localSettings", "selectedCount", "SettingsFields"] {
                #expect(!operation.body.contains(clientField), "\(operation.name) sends \(clientField)")
            }
        }
        let settings = try file(output, "Operations/SettingsQuery.swift")
        #expect(settings.contains("query Settings { __typename }"))
    }

    /// Client fields are typed like any other field and carry `isClientOnly` for the store; so
    /// do the fields of a client-only type. App code reading them type-checks.
    @Test func clientFieldsAreTypedAndMarked() async throws {
        let output = try generate()
        let todo = try file(output, "Operations/TodoWithSelectionQuery.swift")
        #expect(todo.contains(#".field("isSelected", type: .scalar("Boolean"), isClientOnly: true)"#))
        #expect(todo.contains(#".field("text", type: .nonNull(.scalar("String")))"#))
        #expect(todo.contains("public var isSelected: Swift.Bool?"))
        let settings = try file(output, "Operations/SettingsQuery.swift")
        #expect(settings.contains(#".field("fontSize", type: .nonNull(.scalar("Int")), isClientOnly: true)"#))
        let uses = """
            import BatonAPI

            func read(_ todo: TodoWithSelectionQuery.Data, _ settings: SettingsQuery.Data) -> [String?] {
                let selected: Bool? = todo.node?.asTodo?.isSelected
                let note: String? = todo.node?.asTodo?.note
                let size: Int? = settings.localSettings?.fontSize
                let count: Int? = settings.selectedCount
                return [selected.map { "\\($0)" }, note, size.map(String.init), count.map(String.init)]
            }
            """
        try await TypeCheck.generated(output, uses: ["Uses.swift": uses])
    }

    /// Apollo's way: the field is declared by a schema extension given with the schema, and
    /// `@client` on the field makes it (and all under it) client-only.
    @Test func apolloClientDirectiveMarksALocalField() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("local.graphqls", "extend type Todo { isInCart: Boolean }")
        try generation.write(
            "cart.graphql", "query Cart($id: ID!) { node(id: $id) { ... on Todo { id isInCart @client } } }")
        let output = try generation.generate(schemaPaths: [TestPaths.exampleSchema.path, generation.path("local.graphqls")])
        let sent = try body(output, "Cart")
        #expect(sent == "query Cart($id: ID!) { node(id: $id) { __typename ... on Todo { id } } }")
        let cart = try file(output, "Operations/CartQuery.swift")
        #expect(cart.contains(#".field("isInCart", type: .scalar("Boolean"), isClientOnly: true)"#))
        #expect(!cart.contains("@client"))
    }

    /// An extension that does not fit the server's schema is a located error, not a crash.
    @Test func anExtensionRedefiningAServerFieldIsALocatedError() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("clientSchema.graphql", "extend type Todo {\n  text: String\n}")
        try generation.write("q.graphql", "query Q { viewer { id } }")
        let errors = generation.errors()
        #expect(errors.contains("text"), "\(errors)")
        #expect(errors.contains("$DIR/clientSchema.graphql"), "\(errors)")
    }

    /// A mutation that selects only client fields would be sent with an empty selection set
    /// (only the server answers a mutation): a located error that says what to write instead.
    /// A query of client fields only is fine: the store answers it (`aQueryOfClientFieldsOnly…`).
    @Test func aMutationOfClientFieldsOnlyIsALocatedError() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("clientSchema.graphql", "extend type Mutation {\n  markSeen: Boolean\n}")
        try generation.write("m.graphql", "query Fine { viewer { id } }\nmutation MarkSeen { markSeen }")
        let errors = generation.errors()
        #expect(errors.contains(#"mutation "MarkSeen" selects only client-only fields"#), "\(errors)")
        #expect(errors.contains("local cache mutation"), "\(errors)")
        #expect(errors.contains("m.graphql:2:"), "\(errors)")
    }

    @Test func aQueryOfClientFieldsOnlyIsNotSentAndNotInTheManifest() throws {
        let output = try generate()
        #expect(!output.manifest.operations.contains { $0.name == "Settings" })
        #expect(output.files.contains { $0.contents.contains("SettingsQuery") })
    }

    /// Documents with no type system definitions generate exactly as before.
    @Test func withoutExtensionsNothingChanges() throws {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("q.graphql", "query Q { viewer { id email } }")
        let output = try generation.generate()
        #expect(try body(output, "Q") == "query Q { viewer { __typename id email } }")
        #expect(!output.files.contains { $0.contents.contains("isClientOnly") })
    }
}
