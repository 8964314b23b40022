// baton-demo: a newcomer's tour of Baton against the example server, started in-process.
// Exits 0 only if every step got what it expected.
import Baton
import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import BatonWebSocket
import Foundation

let tour = Tour()
let server: RunningExampleServer
do {
    server = try await ExampleServer.start()
} catch {
    print("Could not start the example server: \(error)")
    exit(1)
}
print("Baton demo: the example server is running at \(server.url)\n")

// The app keeps its auth token here; the preflight step adds it to every request.
let tokens = TokenStore()
let client = BatonClient(url: server.url) { request in
    if let token = tokens.token { request.headerFields[.authorization] = token }
    return .send
}

await tour.step("1. A query: the hero of The Empire Strikes Back, with a fragment and type conditions") {
    let result = try await client.fetch(query: HeroAndFriendsQuery(episode: .empire))
    let hero = try tour.require(result.data?.hero, "a hero")
    try tour.check(hero.name == "Luke Skywalker", "the hero is Luke Skywalker, got \(hero.name)")
    let friends = hero.friends?.compactMap { $0?.name } ?? []
    let height = try tour.require(hero.asHuman?.height, "a height (Luke is a Human)")
    return [
        "hero: \(hero.name) (\(hero.__typename))",
        "appears in: \(hero.appearsIn.compactMap { $0?.rawValue }.joined(separator: ", "))",
        "friends: \(friends.joined(separator: ", "))",
        "height: \(String(format: "%.2f", height)) ft",
    ]
}

await tour.step("2. A mutation with an input object: a review of Return of the Jedi") {
    let review = ReviewInput(stars: 5, commentary: "The Ewoks were great", favorite_color: .some(ColorInput(red: 0, green: 128, blue: 0)))
    let result = try await client.perform(mutation: CreateReviewForEpisodeMutation(episode: .case(.jedi), review: review))
    let created = try tour.require(result.data?.createReview, "the created review")
    try tour.check(created.stars == 5, "5 stars, got \(created.stars)")
    return ["created: \(created.stars) stars, \"\(created.commentary ?? "")\""]
}

await tour.step("3. upvotePost, twice") {
    _ = try await client.perform(mutation: UpvotePostMutation(postId: 1))
    let result = try await client.perform(mutation: UpvotePostMutation(postId: 1))
    let post = try tour.require(result.data?.upvotePost, "the post")
    try tour.check(post.votes == 2, "2 votes, got \(post.votes)")
    return ["\"\(post.title ?? "")\" by \(post.author?.firstName ?? "?") now has \(post.votes) votes"]
}

await tour.step("4. login, then bookTrips with the token the preflight step adds") {
    let login = try await client.perform(mutation: LoginMutation(email: "newcomer@example.com"))
    tokens.token = try tour.require(login.data?.login, "a token")
    let result = try await client.perform(mutation: BookTripsMutation(launchIds: ["launch-1", "launch-2"]))
    try tour.check(result.errors == nil, "no errors, got \(result.errors ?? [])")
    let booking = try tour.require(result.data?.bookTrips, "a booking")
    try tour.check(booking.success, "success, got: \(booking.message ?? "")")
    return [
        "logged in as newcomer@example.com",
        "booked: \(booking.launches?.compactMap { $0?.id }.joined(separator: ", ") ?? "") — \(booking.message ?? "")",
    ]
}

await tour.step("5. The same booking without a token: a GraphQL error, not a crash") {
    let saved = tokens.token
    tokens.token = nil
    defer { tokens.token = saved }
    let result = try await client.perform(mutation: BookTripsMutation(launchIds: ["launch-3"]))
    let error = try tour.require(result.errors?.first, "a GraphQL error")
    try tour.check(result.data == nil, "no data")
    return ["the server said: \(error.message)"]
}

await tour.step("6. cancelTrip") {
    let result = try await client.perform(mutation: CancelTripMutation(launchId: "launch-1"))
    let cancelled = try tour.require(result.data?.cancelTrip, "a cancellation")
    try tour.check(cancelled.success, "success, got: \(cancelled.message ?? "")")
    let me = try await client.fetch(query: MeQuery())
    let trips = me.data?.me?.trips.map(\.id) ?? []
    try tour.check(trips == ["launch-2"], "one trip left, got \(trips)")
    return ["\(cancelled.message ?? "cancelled"); trips left: \(trips.joined(separator: ", "))"]
}

await tour.step("7. The same hero query again: answered from the normalized store") {
    let result = try await client.fetch(query: HeroAndFriendsQuery(episode: .empire))
    try tour.check(result.source == .cache, "source: cache, got \(result.source)")
    return ["hero: \(result.data?.hero?.name ?? "?"), source: \(result.source)"]
}

await tour.step("8. A watcher prints when a mutation changes what it shows") {
    let printed = Printed()
    let watching = Task {
        for try await result in client.watch(query: TodoListQuery(first: 10)) {
            let todos = result.data?.viewer?.todos.edges?.compactMap { $0?.node } ?? []
            let line = todos.map { "\($0.complete ? "[x]" : "[ ]") \($0.text)" }.joined(separator: "  ")
            printed.append("watcher (\(result.source)): \(line)")
        }
    }
    try await printed.wait(for: 1)
    let list = try await client.fetch(query: TodoListQuery(first: 10), cachePolicy: .storeOnly)
    let open = try tour.require(list.data?.viewer?.todos.edges?.compactMap { $0?.node }.first { !$0.complete }, "an open todo")
    printed.append("mutation: changeTodoStatus(\(open.text) → done)")
    _ = try await client.perform(
        mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: open.id, userId: "User:1")))
    try await printed.wait(for: 3)
    watching.cancel()
    let lines = printed.lines
    try tour.check(lines.last?.contains("watcher (cache)") == true, "the watcher to print the change from the store")
    return lines
}

await tour.step("9. An optimistic update: the UI changes at once, the server's answer replaces it") {
    func describe() throws -> String {
        let list = try client.store.read(query: TodoListQuery(first: 10))
        let todos = list.viewer?.todos.edges?.compactMap { $0?.node } ?? []
        return todos.map { "\($0.complete ? "[x]" : "[ ]") \($0.text)" }.joined(separator: "  ")
            + "  (completed: \(list.viewer?.completedCount ?? -1))"
    }
    let list = try client.store.read(query: TodoListQuery(first: 10))
    let open = try tour.require(list.viewer?.todos.edges?.compactMap { $0?.node }.first { !$0.complete }, "an open todo")
    let completed = list.viewer?.completedCount ?? 0
    let changeStatus = client.mutator(ChangeTodoStatusWithCountsMutation.self)
    var lines = ["before:      " + (try describe())]
    let commit = changeStatus.commit(
        variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: open.id, userId: "User:1")),
        optimisticResponse: [
            "changeTodoStatus": [
                "__typename": "ChangeTodoStatusPayload",
                "todo": ["__typename": "Todo", "id": .string(open.id), "complete": true],
                "user": ["__typename": "User", "id": "User:1", "completedCount": .int(completed + 1)],
            ]
        ])
    lines.append("optimistic:  " + (try describe()) + (changeStatus.isInFlight ? "  — request in flight" : ""))
    await commit.finished()
    lines.append("server:      " + (try describe()))
    let settled = try client.store.read(query: TodoListQuery(first: 10))
    try tour.check(settled.viewer?.completedCount == completed + 1, "the server to confirm \(completed + 1) completed")

    // The server refuses this one (no such user): the optimistic change rolls back exactly.
    let other = try tour.require(settled.viewer?.todos.edges?.compactMap { $0?.node }.first, "a todo")
    let refused = changeStatus.commit(
        variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: !other.complete, id: other.id, userId: "User:404")),
        optimisticUpdater: { store, _ in store.get(DataID(other.id))?.setValue(.bool(!other.complete), "complete") })
    lines.append("optimistic:  " + (try describe()))
    await refused.finished()
    lines.append("rolled back: " + (try describe()))
    try tour.check(try client.store.read(query: TodoListQuery(first: 10)) == settled, "the store as it was before the refused change")
    return lines
}

await tour.step("10. An upload: a file streamed from disk, and the SHA-256 the server computed") {
    let content = "Hello from the Baton demo.\n"
    let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("baton-demo-\(UUID().uuidString).txt")
    try Data(content.utf8).write(to: fileURL)
    defer { try? FileManager.default.removeItem(at: fileURL) }
    let file = try tour.require(
        GraphQLFile(fieldName: "file", originalName: "hello.txt", mimeType: "text/plain", fileURL: fileURL), "a file to upload")
    let result = try await client.upload(operation: SingleUploadMutation(file: "hello.txt"), files: [file])
    let uploaded = try tour.require(result.data?.singleUpload, "the uploaded file")
    // sha256sum of the same bytes:
    let expected = "a77ecfd767e69ec41ec93e3953a508247eabe08d4cc1defa5dd99b91dc067fa1"
    try tour.check(uploaded.size == content.utf8.count, "\(content.utf8.count) bytes, got \(uploaded.size)")
    try tour.check(uploaded.sha256 == expected, "sha256 \(expected), got \(uploaded.sha256)")
    return ["uploaded \(uploaded.filename) (\(uploaded.mimetype), \(uploaded.size) bytes)", "sha256: \(uploaded.sha256)"]
}

await tour.step("11. A subscription over a WebSocket (graphql-transport-ws): count(to: 3)") {
    // Subscriptions go over the socket, everything else over HTTP; the socket opens lazily.
    let subscribing = BatonClient(
        networkTransport: SplitNetworkTransport(
            http: RequestChainNetworkTransport(url: server.url),
            webSocket: WebSocketNetworkTransport(url: server.webSocketURL)))
    var values: [Int] = []
    var lines: [String] = []
    for try await result in subscribing.subscribe(subscription: CountSubscription(to: 3)) {
        let value = try tour.require(result.data?.count, "a number")
        values.append(value)
        lines.append("received \(value)")
    }
    try tour.check(values == [1, 2, 3], "1, 2, 3, got \(values)")
    return lines + ["the server completed the subscription"]
}

await tour.step("12. Observers, driven as SwiftUI views drive them (@Query, @Fragment, @Mutation, @PaginationFragment)") {
    // A fresh store, so the query starts from .loading. Each line is what a view shows, printed
    // when it changes.
    let app = BatonClient(url: server.url)
    let log = ViewLog()
    let todos = QueryObserver(client: app, query: PaginatedTodosQuery(first: 2))
    log.follow("query") {
        switch todos.state {
        case .loading: return "loading"
        case .failure(let error): return "failure: \(error)"
        case .success(let result):
            let edges = result.data?.viewer?.fragments.todoListPagination_user.todos.edges ?? []
            let items = edges.compactMap { $0?.node?.fragments.todoDetails }
            return "success (\(result.source)): " + items.map { "\($0.complete ? "[x]" : "[ ]") \($0.text)" }.joined(separator: ", ")
        }
    }
    await log.until { todos.data != nil }
    let viewer = try tour.require(todos.data?.viewer, "the viewer")
    let todo = try tour.require(viewer.fragments.todoListPagination_user.todos.edges?.first??.node?.fragments.todoDetails, "a todo")

    // A row of the list: its fragment, and a mutation whose isInFlight disables its toggle.
    let row = FragmentObserver<TodoDetails>(client: app, reference: todo)
    log.follow("row") { row.data.map { "\($0.complete ? "[x]" : "[ ]") \($0.text)" } ?? "no data" }
    let changeStatus = Mutator<ChangeTodoStatusWithCountsMutation>(client: app)
    log.follow("toggle") { changeStatus.isInFlight ? "disabled (in flight)" : "enabled" }
    let commit = changeStatus.commit(
        variables: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: !todo.complete, id: todo.id, userId: "User:1")))
    await log.until { log.lines.contains("toggle: disabled (in flight)") }
    await commit.finished()
    await log.until { row.data?.complete == !todo.complete && log.lines.last { $0.hasPrefix("toggle") } == "toggle: enabled" }

    // The list's pages.
    let pages = PaginationObserver<TodoListPagination_user>(client: app, reference: viewer, variables: .init(count: 2))
    log.follow("pages") {
        "\(pages.data?.todos.edges?.count ?? 0) todos, hasNext \(pages.hasNext)" + (pages.isLoadingNext ? ", loading the next page" : "")
    }
    try await pages.loadNext(2)
    await log.until { log.lines.contains("pages: 3 todos, hasNext false") }

    let lines = log.lines
    try tour.check(lines.first == "query: loading", "the query to start loading, got \(lines)")
    try tour.check(lines.contains { $0.hasPrefix("query: success (server)") }, "the server's answer")
    try tour.check(lines.contains("toggle: disabled (in flight)") && lines.last { $0.hasPrefix("toggle") } == "toggle: enabled",
        "isInFlight true, then false, got \(lines)")
    try tour.check(lines.contains("pages: 3 todos, hasNext false"), "a second page, got \(lines)")
    return lines
}

await server.stop()
print(tour.summary)
exit(tour.failures == 0 ? 0 : 1)
