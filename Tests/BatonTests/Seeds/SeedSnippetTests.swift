import Baton
import BatonExampleAPI
import Foundation
import Testing

// The Swift snippets of ../shared/seeds (Apollo iOS's and Relay.swift's pages Baton was started
// from), embedded here as written, one test each, with only `import Apollo`/`Relay` → Baton and
// `ApolloClient` → `BatonClient` changed. What a snippet assumes of an app (a view controller, a
// bundle, a `print` that the test can read) is a stand-in below, never a changed snippet.
// Snippets that cannot compile without a warning as written (an unused capture, an unused
// binding) and seed 001's SwiftUI view are type-checked by SeedTypeCheckTests instead.
// The suite runs its tests one at a time: they read what the snippets printed, in order.

// MARK: Stand-ins

/// What the snippets printed with an optional value (`print(data.hero?.name)`), in order.
@MainActor
private enum Printed {
    static var lines: [String] = []
}

/// `print` of an optional value, as the snippets write it: recorded in ``Printed`` so the test
/// reads what the snippet saw (and without Swift's "implicitly coerced to Any" warning).
@MainActor
private func print<T>(_ value: T?) {
    let line = value.map { "\($0)" } ?? "nil"
    Printed.lines.append(line)
    Swift.print(line)
}

/// `print` of a line (`print("ID: \(…)")`), recorded in ``Printed`` too.
@MainActor
private func print(_ line: String) {
    Printed.lines.append(line)
    Swift.print(line)
}

extension DefaultStringInterpolation {
    /// An optional in a snippet's interpolation (`"ID: \(graphQLResult.data?.singleUpload.id)"`)
    /// reads as its value or `nil`, as Apollo's readers expect, without a warning.
    fileprivate mutating func appendInterpolation<T>(_ value: T?) {
        appendLiteral(value.map { "\($0)" } ?? "nil")
    }
}

extension Array {
    /// Seed 003's `friends?.flatMap { $0?.name }` (Swift 4's spelling of `compactMap`), without the
    /// standard library's deprecation warning.
    fileprivate func flatMap<T>(_ transform: (Element) throws -> T?) rethrows -> [T] {
        try compactMap(transform)
    }
}

/// Waits (up to 60 s) until `condition` holds: the snippets' handlers run later, on the main
/// actor. Throws when it never does, so that the test stops there: the lines it then reads are
/// not there (returning instead ended a loaded run with an index out of range, which takes the
/// whole test process down).
@MainActor
private func eventually(_ what: String, _ condition: @MainActor () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(60)
    while !condition() {
        guard Date() < deadline else { throw SnippetTimeout(waitingFor: what) }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// A snippet's handler did not run in time.
private struct SnippetTimeout: Error, CustomStringConvertible {
    let waitingFor: String
    var description: String { "timed out waiting for \(waitingFor)" }
}

/// The app around seed 000's snippets ("Mutations"): a view controller with a client named as
/// each snippet names it, `configure(with:)`, and a bundle holding `a.txt`.
@MainActor
private final class MutationsViewController {
    let apollo: BatonClient
    let client: BatonClient
    var configured: [PostDetails?] = []

    init(client: BatonClient) {
        self.apollo = client
        self.client = client
    }

    func configure(with postDetails: PostDetails?) { configured.append(postDetails) }

    /// The app's bundle: `a.txt` is a file in a temporary folder.
    struct Bundle {
        static let main = Bundle()

        func url(forResource name: String?, withExtension ext: String?) -> URL? {
            guard let name, let ext else { return nil }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("baton-seed-\(name).\(ext)")
            try? Data("Hello from seed 000.\n".utf8).write(to: url)
            return url
        }
    }

    func performingAMutation(postId: Int) {
        apollo.perform(mutation: UpvotePostMutation(postId: postId)) { result in
          guard let data = try? result.get().data else { return }
          print(data.upvotePost?.votes)
        }
    }

    func usingFragmentsInMutationResults(postId: Int) {
        client.perform(mutation: UpvotePostMutation(postId: postId)) { result in
          guard let data = try? result.get().data else { return }
          self.configure(with: data.upvotePost?.fragments.postDetails)
        }
    }

    func passingInputObjects() {
        let review = ReviewInput(stars: 5, commentary: "This is a great movie!")
        apollo.perform(mutation: CreateReviewForEpisodeMutation(episode: .jedi, review: review))
    }

    func uploadingFiles() {
        // Create the file to upload
        guard
          let fileURL = Bundle.main.url(forResource: "a",
                                        withExtension: "txt"),
          let file = GraphQLFile(fieldName: "file", // Must be the name of the field the file is being uploaded to
                                 originalName: "a.txt",
                                 mimeType: "text/plain", // <-defaults to "application/octet-stream"
                                 fileURL: fileURL) else {
            // Either the file URL couldn't be created or the file couldn't be created.
            return
        }

        // Actually upload the file
        client.upload(operation: UploadFileMutation(file: "a"), // <-- `Upload` is a custom scalar that's a `String` under the hood.
                      files: [file]) { result in
          switch result {
          case .success(let graphQLResult):
            print("ID: \(graphQLResult.data?.singleUpload.id)")
          case .failure(let error):
            print("error: \(error)")
          }
        }
    }
}

/// The app around seed 002's booking snippets ("Working with Mutations"): `Network.shared.apollo`
/// (a client whose preflight sends the logged-in token, the seed's delegate as Baton's one-line
/// `preflight:`), and a detail view controller that shows alerts.
@MainActor
private final class Network {
    static var shared: Network!
    let apollo: BatonClient

    init(url: URL, token: String) {
        apollo = BatonClient(url: url, preflight: { request in
            request.headerFields[.authorization] = token
            return .send
        })
    }
}

@MainActor
private final class DetailViewController {
    var alerts: [(title: String, message: String)] = []
    var errorsShown: [[GraphQLError]] = []
    var reloads: [Bool] = []

    func showAlert(title: String, message: String) { alerts.append((title, message)) }
    func showAlertForErrors(_ errors: [GraphQLError]) { errorsShown.append(errors) }
    func loadLaunchDetails(forceReload: Bool = false) { reloads.append(forceReload) }

    func book(_ id: GraphQLID) { bookTrip(with: id) }

    /// `bookTrip(with:)` as the tutorial leaves it: its TODO replaced as the page says next, with
    /// `loadLaunchDetails(forceReload: true)` added to the success branch.
    private func bookTrip(with id: GraphQLID) {
      Network.shared.apollo.perform(mutation: BookTripMutation(id: id)) { [weak self] result in
        guard let self = self else {
          return 
        }
        switch result {
        case .success(let graphQLResult):
          if let bookingResult = graphQLResult.data?.bookTrips {
            if bookingResult.success {
              self.showAlert(title: "Success!",
                                           message: bookingResult.message ?? "Trip booked successfully")
              self.loadLaunchDetails(forceReload: true)
            } else {
              self.showAlert(title: "Could not book trip", 
                                           message: bookingResult.message ?? "Unknown failure.")
            }
          }

          if let errors = graphQLResult.errors {
            self.showAlertForErrors(errors)
          }
        case .failure(let error):
          self.showAlert(title: "Network Error",
                         message: error.localizedDescription)
        }
      }
    }

    func cancel(_ id: GraphQLID) { cancelTrip(with: id) }

    private func cancelTrip(with id: GraphQLID) {
      print("Cancel trip \(id)")
    }
}

extension BookTripMutation {
    /// Seed 002's Swift calls `BookTripMutation(id: id)` while its document names the variable
    /// `$tripID` (the live tutorial's document says `$id`): the test supplies the initializer the
    /// Swift side expects.
    fileprivate init(id: GraphQLID) { self.init(tripID: id) }
}

/// The app around seed 003's snippets ("Fetching queries").
@MainActor
private final class FetchingViewController {
    let apollo: BatonClient
    var outcomes: [String] = []

    init(client: BatonClient) { apollo = client }

    func fetchHeroName() {
        apollo.fetch(query: HeroNameQuery(episode: .empire)) { result in
          guard let data = try? result.get().data else { return }
          print(data.hero?.name) // Luke Skywalker
        }
    }

    func fetchHeroNameHandlingErrors() {
        apollo.fetch(query: HeroNameQuery(episode: .empire)) { result in
          switch result {
          case .success(let graphQLResult):
            if let name = graphQLResult.data?.hero?.name {
              print(name) // Luke Skywalker
            } else if let errors = graphQLResult.errors {
              // GraphQL errors
              print(errors)
            }
          case .failure(let error):
            // Network or response format errors
            print(error)
          }
        }
    }

    func fetchHeroAndFriendsNames() {
        apollo.fetch(query: HeroAndFriendsNamesQuery(episode: .empire)) { result in
          guard let data = try? result.get().data else { return }
          print(data.hero?.name) // Luke Skywalker
          print(data.hero?.friends?.flatMap { $0?.name }.joined(separator: ", "))
          // Prints: Han Solo, Leia Organa, C-3PO, R2-D2
        }
    }
}

extension AddTodoInput {
    /// Seed 004 writes `AddTodoInput(/* ... */)`: the test fills in the elided fields.
    fileprivate init() { self.init(text: "Seed 004", userId: "User:1") }
}

// MARK: Tests

// Seed 001's "Providing a convenience API": the extension as written.
extension Mutation.Mutator where Operation == ChangeTodoStatusMutation {
    func commit(id: String, complete: Bool) {
        commit(
            variables: .init(input: .init(
                complete: complete,
                id: id,
                userId: "me"
            )),
            optimisticResponse: [
                "changeTodoStatus": [
                    "todo": [
                        "id": id,
                        "complete": complete,
                    ]
                ]
            ]
        )
    }
}

@Suite("Seed snippets, as written, against the example server", .serialized)
@MainActor
struct SeedSnippetTests {
    @Test("000 Mutations: apollo.perform(mutation: UpvotePostMutation(postId:)) { result in … print(votes) }")
    func seed000PerformingMutations() async throws {
        try await withExampleServer { server in
            let app = MutationsViewController(client: BatonClient(url: server.url))
            let before = Printed.lines.count
            app.performingAMutation(postId: 1)
            try await eventually("the handler to print the votes") { Printed.lines.count > before }
            #expect(Int(Printed.lines[before]) != nil, "printed \(Printed.lines[before])")
        }
    }

    @Test("000 Mutations: fragments in mutation results, self.configure(with: data.upvotePost?.fragments.postDetails)")
    func seed000UsingFragmentsInMutationResults() async throws {
        try await withExampleServer { server in
            let app = MutationsViewController(client: BatonClient(url: server.url))
            app.usingFragmentsInMutationResults(postId: 1)
            try await eventually("configure(with:)") { !app.configured.isEmpty }
            let details = try #require(app.configured.first ?? nil)
            #expect(details.id == 1)
            #expect(details.votes > 0)
        }
    }

    @Test("000 Mutations: apollo.perform(mutation: CreateReviewForEpisodeMutation(episode: .jedi, review: review)) without a handler")
    func seed000PassingInputObjects() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let app = MutationsViewController(client: client)
            app.passingInputObjects()
            var reviews: [String] = []
            let deadline = Date().addingTimeInterval(20)
            while !reviews.contains("This is a great movie!"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
                let result = try await client.fetch(query: ReviewsQuery(episode: .jedi), cachePolicy: .fetchIgnoringCacheData)
                reviews = result.data?.reviews?.compactMap { $0?.commentary } ?? []
            }
            #expect(reviews.contains("This is a great movie!"))
        }
    }

    @Test("000 Mutations: uploading files, guard let file = GraphQLFile(…), client.upload(operation:files:) { result in … }")
    func seed000UploadingFiles() async throws {
        try await withExampleServer { server in
            let app = MutationsViewController(client: BatonClient(url: server.url))
            let before = Printed.lines.count
            app.uploadingFiles()
            try await eventually("the upload's result") { Printed.lines.count > before }
            let line = Printed.lines[before]
            #expect(line.hasPrefix("ID: ") && line != "ID: nil", "printed \(line)")
        }
    }

    @Test("000 Mutations: GraphQLFile(fieldName:originalName:mimeType:fileURL:) can fail, as Apollo's")
    func seed000GraphQLFileIsFailable() {
        #expect(GraphQLFile(fieldName: "file", originalName: "a.txt", mimeType: "text/plain", fileURL: URL(string: "https://example.com/a.txt")!) == nil)
        #expect(GraphQLFile(fieldName: "file", originalName: "a.txt", fileURL: URL(fileURLWithPath: "/tmp/a.txt")) != nil)
    }

    @Test("002 Working with Mutations: bookTrip(with id: GraphQLID) with Network.shared.apollo.perform { [weak self] result in … }")
    func seed002BookTrip() async throws {
        try await withExampleServer { server in
            let login = try await BatonClient(url: server.url).perform(mutation: LoginMutation(email: "seed002@example.com"))
            let token = try #require(login.data?.login)
            Network.shared = Network(url: server.url, token: token)
            let controller = DetailViewController()
            controller.book("launch-25")
            try await eventually("the booking's alert") { !controller.alerts.isEmpty }
            #expect(controller.alerts.first?.title == "Success!", "\(controller.alerts)")
            #expect(controller.reloads == [true])
            controller.cancel("launch-25")
        }
    }

    @Test("002 Working with Mutations: a network error's alert shows error.localizedDescription naming the operation")
    func seed002NetworkErrorAlert() async throws {
        Network.shared = Network(url: URL(string: "http://127.0.0.1:9/graphql")!, token: "none")
        let controller = DetailViewController()
        controller.book("launch-25")
        try await eventually("the network error's alert") { !controller.alerts.isEmpty }
        #expect(controller.alerts.first?.title == "Network Error")
        #expect(controller.alerts.first?.message.contains("BookTrip") == true, "\(controller.alerts)")
    }

    @Test("003 Fetching queries: apollo.fetch(query: HeroNameQuery(episode: .empire)) { result in … print(data.hero?.name) }")
    func seed003FetchHeroName() async throws {
        try await withExampleServer { server in
            let app = FetchingViewController(client: BatonClient(url: server.url))
            let before = Printed.lines.count
            app.fetchHeroName()
            try await eventually("the hero's name") { Printed.lines.count > before }
            #expect(Printed.lines[before] == "Luke Skywalker")
        }
    }

    @Test("003 Fetching queries: switch result { case .success … case .failure … }")
    func seed003FetchHandlingErrors() async throws {
        try await withExampleServer { server in
            let app = FetchingViewController(client: BatonClient(url: server.url))
            let before = Printed.lines.count
            app.fetchHeroNameHandlingErrors()
            try await eventually("the hero's name") { Printed.lines.count > before }
            #expect(Printed.lines[before] == "Luke Skywalker")
        }
    }

    @Test("003 Fetching queries: HeroAndFriendsNamesQuery, print(data.hero?.friends?.flatMap { $0?.name }.joined(separator: \", \"))")
    func seed003TypedQueryResults() async throws {
        try await withExampleServer { server in
            let app = FetchingViewController(client: BatonClient(url: server.url))
            let before = Printed.lines.count
            app.fetchHeroAndFriendsNames()
            try await eventually("the hero and friends") { Printed.lines.count >= before + 2 }
            #expect(Printed.lines[before] == "Luke Skywalker")
            #expect(Printed.lines[before + 1] == "Han Solo, Leia Organa, C-3PO, R2-D2")
        }
    }

    /// Seed 003's JSON serialization with the one-line change "Coming from Apollo iOS" documents
    /// (`data.jsonObject` is Baton's ordered `JSONObject`, which `JSONSerialization` does not
    /// take): `.foundationObject` on the way out, `JSONObject(any:)` on the way back. The seed's
    /// own lines, as written, are compiled by SeedTypeCheckTests.
    @Test("003 Fetching queries: JSON serialization, with Baton's documented one-line equivalent, round-trips the data")
    func seed003JSONSerializationEquivalent() async throws {
        try await withExampleServer { server in
            let apollo = BatonClient(url: server.url)
            let result = try await apollo.fetch(query: HeroAndFriendsNamesQuery(episode: .empire))
            let data = try #require(result.data)

            // Serialize the response as JSON
            let json = data.jsonObject.foundationObject
            let serialized = try JSONSerialization.data(withJSONObject: json, options: [])

            // Deserialize the response
            let deserialized = try JSONObject(any: JSONSerialization.jsonObject(with: serialized, options: []) as! [String: Any])
            let heroAndFriendsNames = try HeroAndFriendsNamesQuery.Data(jsonObject: deserialized)
            #expect(JSONSerialization.isValidJSONObject(json))
            #expect(heroAndFriendsNames.hero?.name == data.hero?.name)
            #expect(heroAndFriendsNames.hero?.friends?.compactMap { $0?.name } == data.hero?.friends?.compactMap { $0?.name })
        }
    }

    @Test("001 @Mutation: changeStatus.commit(variables: .init(input: .init(complete: !todo.complete, id: id, userId: \"me\")))")
    func seed001CommitWithVariables() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let changeStatus = client.mutator(ChangeTodoStatusMutation.self)
            let list = try await client.fetch(query: ToDoListQuery())
            let todo = try #require(list.data?.viewer?.todos.edges?.first??.node?.fragments.toDoItem_todo)
            let id = todo.id
            changeStatus.commit(variables: .init(input: .init(
                complete: !todo.complete,
                id: id,
                userId: "me"
            )))
            #expect(changeStatus.isInFlight)
            try await eventually("the commit") { !changeStatus.isInFlight }
            let after = try await client.fetch(query: ToDoListQuery(), cachePolicy: .returnCacheDataDontFetch)
            #expect(after.data?.viewer?.todos.edges?.first??.node?.fragments.toDoItem_todo.complete == !todo.complete)
        }
    }

    @Test("004 Declarative mutation directives: addTodo.commit(variables: .init(input: AddTodoInput(/* ... */), connections: [user.todos.__id]))")
    func seed004ConnectionsFromID() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let addTodo = client.mutator(AddTodoMutation.self)
            let list = try await client.fetch(query: ToDoListQuery())
            let user = try #require(list.data?.viewer?.fragments.toDoList_user)
            let before = user.todos.edges?.count ?? 0
            addTodo.commit(
            variables: .init(
            input: AddTodoInput(/* ... */),
            connections: [user.todos.__id]
            )
            )
            try await eventually("the commit") { !addTodo.isInFlight }
            let after = try await client.fetch(query: ToDoListQuery(), cachePolicy: .returnCacheDataDontFetch)
            let edges = after.data?.viewer?.fragments.toDoList_user.todos.edges ?? []
            #expect(edges.count == before + 1)
            #expect(edges.first??.node?.fragments.toDoItem_todo.text == "Seed 004")
        }
    }

    @Test("004 Declarative mutation directives: connections: [ConnectionHandler.default.getConnectionID(parentID: DataID(user.id), key: \"ToDoList_todos\")]")
    func seed004ConnectionsFromGetConnectionID() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let addTodo = client.mutator(AddTodoMutation.self)
            let list = try await client.fetch(query: ToDoListQuery())
            // `user` is the viewer, whose `id` the query selects beside the fragment.
            let user = try #require(list.data?.viewer)
            let before = user.fragments.toDoList_user.todos.edges?.count ?? 0
            addTodo.commit(
            variables: .init(
            input: AddTodoInput(/* ... */),
            connections: [
            ConnectionHandler.default.getConnectionID(
            parentID: DataID(user.id),
            key: "ToDoList_todos"
            )
            ]
            )
            )
            try await eventually("the commit") { !addTodo.isInFlight }
            let after = try await client.fetch(query: ToDoListQuery(), cachePolicy: .returnCacheDataDontFetch)
            #expect(after.data?.viewer?.fragments.toDoList_user.todos.edges?.count == before + 1)
        }
    }

    /// Seed 004's `RemoveTodoMutation`, as the page writes it (`deletedTodoID @deleteEdge(connections:
    /// $connections)`): the edge leaves the connection, and the record itself stays in the store.
    @Test("004 Declarative mutation directives: RemoveTodoMutation's @deleteEdge removes the edge; the record stays")
    func seed004DeleteEdge() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let list = try await client.fetch(query: ToDoListQuery())
            let viewer = try #require(list.data?.viewer)
            let user = viewer.fragments.toDoList_user
            let edges = user.todos.edges ?? []
            let removed = try #require(edges.first??.node?.id)
            let removeTodo = client.mutator(RemoveTodoMutation.self)
            removeTodo.commit(variables: .init(input: RemoveTodoInput(id: removed, userId: viewer.id), connections: [user.todos.__id]))
            try await eventually("the commit") { !removeTodo.isInFlight }
            let after = try await client.fetch(query: ToDoListQuery(), cachePolicy: .returnCacheDataDontFetch)
            let ids = (after.data?.viewer?.fragments.toDoList_user.todos.edges ?? []).compactMap { $0?.node?.id }
            #expect(ids.count == edges.count - 1)
            #expect(!ids.contains(removed))
            // @deleteEdge leaves the record: only @deleteRecord deletes it.
            var stays = false
            if case .present? = client.store.recordState(of: DataID(removed)) { stays = true }
            #expect(stays)
        }
    }

    /// Seed 001's convenience extension (above, as written) and its call: the optimistic response
    /// is a `[String: Any]` literal of Swift variables, without `__typename`, and no completion.
    ///
    /// Relies on the store taking an optimistic response as Relay does (a concrete type needs no
    /// `__typename`, a field left out is not written: `Store.applyOptimisticResponse`); without
    /// it the commit is refused before anything is sent (and logged at error level).
    @Test("001 @Mutation: changeStatus.commit(id: id, complete: !todo.complete), the extension's [String: Any] optimistic response")
    func seed001ConvenienceCommitWithOptimisticResponse() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let changeStatus = client.mutator(ChangeTodoStatusMutation.self)
            let list = try await client.fetch(query: ToDoListQuery())
            let todo = try #require(list.data?.viewer?.todos.edges?.first??.node?.fragments.toDoItem_todo)
            let id = todo.id
            changeStatus.commit(
                id: id,
                complete: !todo.complete
            )
            // The optimistic layer is applied at once and the request is in flight (store half).
            #expect(client.store.optimisticUpdateCount == 1)
            #expect(changeStatus.isInFlight)
            try await eventually("the commit") { !changeStatus.isInFlight }
            #expect(client.store.optimisticUpdateCount == 0)
            let after = try await client.fetch(query: ToDoListQuery(), cachePolicy: .returnCacheDataDontFetch)
            #expect(after.data?.viewer?.todos.edges?.first??.node?.fragments.toDoItem_todo.complete == !todo.complete)
        }
    }

}
