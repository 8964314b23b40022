import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Relay's document directives (issue 28): accepted by validation, never sent to the server
/// (not in the operation document, the manifest, the persisted-query hash or a fragment's
/// definition), and `@relay(mask: false)` / `@relay(plural: true)` with their meaning.
@Suite("Relay document directives", .ownThread)
struct RelayDocumentDirectiveTests {
    static let clientOnly = [
        "@relay", "@inline", "@raw_response_type", "@preloadable", "@required", "@catch", "@throwOnFieldError", "@refetchable",
        "@argumentDefinitions", "@arguments", "@connection",
    ]

    static let documents = """
        fragment TodoRow on Todo @relay(plural: true) { id text }
        fragment TodoDone on Todo @inline { complete }
        fragment UserCounts on User @throwOnFieldError @catch(to: RESULT) { totalCount completedCount @required(action: LOG) }
        fragment UserEmail on User { email @required(action: THROW) }
        fragment UserTodos on User
          @refetchable(queryName: "UserTodosRefetchQuery", directives: ["@raw_response_type"], preferFetchable: true)
          @argumentDefinitions(count: {type: "Int", defaultValue: 2}) {
          todos(first: $count) @connection(key: "UserTodos_todos", handler: "connection") {
            edges { node { ...TodoRow ...TodoDone } }
          }
        }
        query Me @raw_response_type @preloadable @throwOnFieldError {
          viewer {
            ...UserEmail @relay(mask: false)
            ...UserCounts
            ...UserTodos @arguments(count: 5)
            todos(first: 3) { edges { node { ...TodoRow @relay(mask: false) } } }
          }
        }
        mutation Rename($id: Int!) @raw_response_type @catch { upvotePost(postId: $id) { id votes @required(action: NONE) } }
        """

    func generate() throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("relay.graphql", Self.documents)
        return try generation.generate()
    }

    /// `Unknown directive "@relay"` was the error: every one of Relay's document directives validates.
    @Test func relayDocumentDirectivesValidate() throws {
        let output = try generate()
        #expect(Set(output.manifest.operations.map(\.name)) == ["Me", "Rename", "UserTodosRefetchQuery"])
    }

    /// Client-only directives never reach the server: not in the document, the manifest or the
    /// hash (the id is the SHA-256 of the body sent), nor in a fragment's `fragmentDefinition`.
    @Test func clientOnlyDirectivesAreStrippedFromWhatIsSent() throws {
        let output = try generate()
        for operation in output.manifest.operations {
            for directive in Self.clientOnly {
                #expect(!operation.body.contains(directive), "\(operation.name) sends \(directive): \(operation.body)")
            }
            #expect(operation.id == OperationRenderer.sha256(operation.body))
            let file = try #require(output.files.first { $0.relativePath.hasPrefix("Operations/") && $0.contents.contains("operationName = \"\(operation.name)\"") })
            #expect(file.contents.contains("operationIdentifier = \"\(operation.id)\""))
        }
        for file in output.files where file.relativePath.hasPrefix("Fragments/") {
            let definition = try #require(file.contents.split(separator: "\n").first { $0.contains("fragmentDefinition =") })
            for directive in Self.clientOnly { #expect(!definition.contains(directive), "\(file.relativePath): \(definition)") }
        }
        // What the server needs stays: the spreads and the fragments' fields.
        let me = try #require(output.manifest.operations.first { $0.name == "Me" })
        #expect(me.body.contains("...UserEmail") && me.body.contains("fragment UserEmail on User { __typename email }"))
    }

    /// `@relay(mask: false)`: the fragment's fields are read on the parent; `@relay(plural: true)`:
    /// the fragment is read on each item of a list. App code doing both type-checks.
    @Test func unmaskedAndPluralFragmentsAreReadAsRelayReadsThem() async throws {
        let output = try generate()
        let uses = """
            import BatonAPI

            func read(_ data: MeQuery.Data) -> [String?] {
                let email: String? = data.viewer?.email
                // `@catch` on UserCounts: read through its own accessor, a Result.
                let count: Int? = (try? data.viewer?.fragments.userCounts.get())?.totalCount
                let texts: [String] = (data.viewer?.todos.edges ?? []).compactMap { $0?.node?.text }
                let rows: [TodoRow] = (data.viewer?.todos.edges ?? []).compactMap { $0?.node?.fragments.todoRow }
                let done: [Bool] = (data.viewer?.fragments.userTodos.todos.edges ?? []).compactMap { $0?.node?.fragments.todoDone.complete }
                return [email, count.map(String.init)] + texts + rows.map(\\.text) + done.map { $0 ? "done" : nil }
            }
            """
        try await TypeCheck.generated(output, uses: ["Uses.swift": uses])
    }
}
