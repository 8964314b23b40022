import BatonTestSupport
import Foundation
import Testing

/// The GraphQL snippets of ../shared/seeds, as written, one test each: generated with the build's
/// `baton` against the example server's schema and the generated Swift compiled; those the server
/// can run as they are (no client directives, variables given) are also sent to it raw and
/// answered without errors. Those the example API holds as written (Sources/BatonExampleAPI) are
/// also compiled by the build and run through the client by SeedSnippetTests.
///
/// Not here, by their pages' own account: 000's two `AvatarUpload` documents (an illustration of
/// what the multipart spec allows; the page says the second "will not" work and neither names a
/// field), and 003's schema excerpt (part of a schema, with no `Query` type).
@Suite("Seed GraphQL snippets, as written", .ownThread)
struct SeedGraphQLTests {
    struct Snippet: CustomStringConvertible, Sendable {
        let name: String
        let document: String
        /// Fragments the page spreads without showing (defined in the example API too).
        var support: String = ""
        /// Variables to run it with on the example server, or `nil` when it is not run raw.
        var variables: [String: String]?
        var headersNeedLogin = false
        /// Variables as the page writes them in GraphiQL's "Query Variables" (JSON), when it does.
        var variablesJSON: String?

        var description: String { name }
    }

    static let postDetails = """
        fragment PostDetails on Post {
          id
          votes
          title
          author { id firstName lastName }
        }
        """

    static let snippets: [Snippet] = [
        Snippet(name: "000 UpvotePost { id votes }", document: """
            mutation UpvotePost($postId: Int!) {
              upvotePost(postId: $postId) {
                id
                votes
              }
            }
            """, variables: ["postId": "1"]),
        Snippet(name: "000 UpvotePost { ...PostDetails }", document: """
            mutation UpvotePost($postId: Int!) {
              upvotePost(postId: $postId) {
                ...PostDetails
              }
            }
            """, support: postDetails, variables: ["postId": "1"]),
        Snippet(name: "000 CreateReviewForEpisode", document: """
            mutation CreateReviewForEpisode($episode: Episode!, $review: ReviewInput!) {
              createReview(episode: $episode, review: $review) {
                stars
                commentary
              }
            }
            """),
        Snippet(name: "000 UploadFile", document: """
            mutation UploadFile($file:Upload!) {
                singleUpload(file:$file) {
                    id
                }
            }
            """),
        Snippet(name: "002 BookTrips($tripIDs:[ID]!) in GraphiQL, with {\"tripIDs\": [\"25\"]}", document: """
            mutation BookTrips($tripIDs:[ID]!) {
              bookTrips(launchIds:$tripIDs) {
                success
                message
              }
            }
            """, variables: [:], headersNeedLogin: true, variablesJSON: #"{"tripIDs": ["25"]}"#),
        Snippet(name: "002 BookTrip($tripID:ID!)", document: """
            mutation BookTrip($tripID:ID!) {
              bookTrips(launchIds:[$tripID]) {
                success
                message
              }
            }
            """, variables: ["tripID": "launch-25"], headersNeedLogin: true),
        Snippet(name: "003 HeroName", document: """
            query HeroName($episode: Episode) {
              hero(episode: $episode) {
                name
              }
            }
            """, variables: [:]),
        Snippet(name: "003 HeroAndFriendsNames", document: """
            query HeroAndFriendsNames($episode: Episode) {
              hero(episode: $episode) {
                name
                friends {
                  name
                }
              }
            }
            """, variables: [:]),
        Snippet(name: "001 ChangeTodoStatusMutation", document: """
            mutation ChangeTodoStatusMutation($input: ChangeTodoStatusInput!) {
              changeTodoStatus(input: $input) {
                todo {
                  id
                  complete
                }
              }
            }
            """),
        Snippet(name: "001 ToDoItem_item", document: """
            fragment ToDoItem_item on Item {
              id
              text
              complete
            }
            """),
        Snippet(name: "004 AddTodoMutation @prependNode", document: """
            mutation AddTodoMutation($input: AddTodoInput!, $connections: [ID!]!) {
            addTodo(input: $input) {
            todo @prependNode(connections: $connections, edgeTypeName: "TodoEdge") {
            id
            text
            complete
            }
            }
            }
            """),
        Snippet(name: "004 AddTodoMutation @prependEdge", document: """
            mutation AddTodoMutation($input: AddTodoInput!, $connections: [ID!]!) {
            addTodo(input: $input) {
            todoEdge @prependEdge(connections: $connections) {
            cursor
            node {
            id
            text
            complete
            }
            }
            }
            }
            """),
        Snippet(name: "004 RemoveTodoMutation @deleteEdge", document: """
            mutation RemoveTodoMutation($input: RemoveTodoInput!, $connections: [ID!]!) {
            removeTodo(input: $input) {
            deletedTodoID @deleteEdge(connections: $connections)
            }
            }
            """),
        Snippet(name: "004 RemoveTodoMutation @deleteRecord", document: """
            mutation RemoveTodoMutation($input: RemoveTodoInput!) {
            removeTodo(input: $input) {
            deletedTodoID @deleteRecord
            }
            }
            """),
        Snippet(name: "004 ToDoList_user", document: """
            fragment ToDoList_user on User
            @refetchable(queryName: "ToDoListPaginationQuery")
            @argumentDefinitions(
            count: { type: "Int", defaultValue: 100 }
            cursor: { type: "String" }
            ) {
            todos(first: $count, after: $cursor)
            @connection(key: "ToDoList_todos") {
            __id
            edges {
            node {
            id
            ...ToDoItem_todo
            }
            }
            }
            }
            """, support: "fragment ToDoItem_todo on Todo { id text complete }"),
    ]

    @Test("Each seed GraphQL snippet generates Swift that compiles", arguments: snippets)
    func generatesAndCompiles(_ snippet: Snippet) async throws {
        let build = try #require(BuiltModules.buildFolder, "needs the built modules (swift build --build-tests)")
        let folder = try BuiltModules.temporaryFolder("seed-graphql")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("Snippet.graphql")
        try (snippet.document + "\n" + snippet.support + "\n").write(to: document, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Generated")
        let schema = BuiltModules.packageRoot.appendingPathComponent("Sources/BatonExampleServer/Resources/schema.graphqls")
        let generate = try await runProcess(
            build.appendingPathComponent("baton-tool"),
            ["generate", "--schema", schema.path, "--documents", document.path, "--output", output.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        var files: [String] = []
        let walk = FileManager.default.enumerator(atPath: output.path)
        while let relative = walk?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(output.appendingPathComponent(relative).path) }
        }
        let compiled = try await BuiltModules.swiftc(["-parse-as-library", "-typecheck", "-module-name", "SeedAPI"] + files)
        #expect(compiled.status == 0, "\(compiled.errors)")
    }

    @Test("Seed GraphQL snippets the server can run as written are answered without errors",
          arguments: snippets.filter { $0.variables != nil })
    func theExampleServerAnswers(_ snippet: Snippet) async throws {
        try await withExampleServer { server in
            var headers: [String: String] = [:]
            if snippet.headersNeedLogin {
                let login = try await server.graphQLData(#"mutation { login(email: "seeds@example.com") }"#)
                headers["Authorization"] = try #require(login["login"] as? String)
            }
            var variables = (snippet.variables ?? [:]).mapValues { value -> Any in Int(value) ?? value }
            if let json = snippet.variablesJSON {
                variables = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            }
            let response = try await server.graphQLPost(snippet.document + "\n" + snippet.support, variables: variables, headers: headers)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.errors.isEmpty, "\(response.text)")
            #expect(response.data != nil)
            if snippet.variablesJSON != nil, let booked = response.data?["bookTrips"] as? [String: Any] {
                #expect(booked["success"] as? Bool == true, "\(response.text)")
            }
        }
    }
}
