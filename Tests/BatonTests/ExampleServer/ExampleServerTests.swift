import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BatonExampleServer

@Suite("ExampleServer")
struct ExampleServerTests {
    // MARK: Schema

    @Test func servesEveryTypeAndFieldOfTheSchemaResource() throws {
        let printed = try ExampleSchema.printedSchemas()
        #expect(printed.served == printed.resource)
        #expect(printed.served.contains("union SearchResult = Human | Droid | Starship"))
        #expect(try ExampleServer.schemaSDL.contains("type Query {"))
    }

    @Test func introspectionSeesInterfacesAndUnions() async throws {
        try await withExampleServer { server in
            let data = try await server.graphQLData(#"{ __type(name: "Character") { possibleTypes { name } } }"#)
            let names = (jsonValue(data, "__type", "possibleTypes") as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(Set(names ?? []) == ["Human", "Droid"])
        }
    }

    // MARK: Star Wars

    @Test(arguments: [
        (nil, "R2-D2", "Droid"), ("NEWHOPE", "R2-D2", "Droid"), ("EMPIRE", "Luke Skywalker", "Human"), ("JEDI", "R2-D2", "Droid"),
    ] as [(String?, String, String)])
    func heroOfEachEpisode(episode: String?, name: String, typename: String) async throws {
        try await withExampleServer { server in
            let data = try await server.graphQLData(
                "query Hero($episode: Episode) { hero(episode: $episode) { __typename id name } }",
                variables: episode.map { ["episode": $0] } ?? [:]
            )
            #expect(jsonValue(data, "hero", "name") as? String == name)
            #expect(jsonValue(data, "hero", "__typename") as? String == typename)
        }
    }

    @Test func humansDroidsAndCharacters() async throws {
        try await withExampleServer { server in
            let data = try await server.graphQLData("""
                {
                  human(id: "1000") { name homePlanet height mass appearsIn starships { name length } friends { __typename name } }
                  droid(id: "2000") { name primaryFunction }
                  character(id: "1003") { __typename name ... on Human { homePlanet } }
                  nobody: human(id: "9999") { name }
                }
                """)
            #expect(jsonValue(data, "human", "name") as? String == "Luke Skywalker")
            #expect(jsonValue(data, "human", "homePlanet") as? String == "Tatooine")
            #expect(jsonValue(data, "human", "height") as? Double == 1.72)
            #expect(jsonValue(data, "human", "mass") as? Double == 77)
            #expect(jsonValue(data, "human", "appearsIn") as? [String] == ["NEWHOPE", "EMPIRE", "JEDI"])
            #expect(jsonValue(data, "human", "starships", 0, "name") as? String == "X-Wing")
            #expect(jsonValue(data, "human", "friends", 2, "__typename") as? String == "Droid")
            #expect(jsonValue(data, "human", "friends", 2, "name") as? String == "C-3PO")
            #expect(jsonValue(data, "droid", "primaryFunction") as? String == "Protocol")
            #expect(jsonValue(data, "character", "__typename") as? String == "Human")
            #expect(jsonValue(data, "character", "homePlanet") as? String == "Alderaan")
            #expect(jsonValue(data, "nobody") is NSNull)
        }
    }

    @Test func heightAndLengthInFeet() async throws {
        try await withExampleServer { server in
            let data = try await server.graphQLData("""
                { human(id: "1000") { meters: height feet: height(unit: FOOT) } starship(id: "3000") { length(unit: FOOT) } }
                """)
            #expect(jsonValue(data, "human", "meters") as? Double == 1.72)
            let feet = try #require(jsonValue(data, "human", "feet") as? Double)
            #expect(abs(feet - 1.72 * 3.28084) < 1e-9)
            let length = try #require(jsonValue(data, "starship", "length") as? Double)
            #expect(abs(length - 34.37 * 3.28084) < 1e-9)
        }
    }

    @Test func searchReturnsAUnionIgnoringCase() async throws {
        try await withExampleServer { server in
            let data = try await server.graphQLData("""
                { search(text: "o") { __typename ... on Human { name } ... on Droid { name } ... on Starship { name } } }
                """)
            let results = try #require(data["search"] as? [[String: Any]])
            #expect(results.map { "\($0["__typename"] ?? "")/\($0["name"] ?? "")" } == [
                "Human/Han Solo", "Human/Leia Organa", "Droid/C-3PO", "Starship/Millenium Falcon",
            ])
        }
    }

    @Test func friendsConnectionPagesWithCursors() async throws {
        try await withExampleServer { server in
            let query = """
                query Friends($after: ID) {
                  human(id: "1000") {
                    friendsConnection(first: 2, after: $after) {
                      totalCount edges { cursor node { name } } pageInfo { hasNextPage hasPreviousPage endCursor }
                    }
                  }
                }
                """
            let first = try await server.graphQLData(query)
            let page = try #require(jsonValue(first, "human", "friendsConnection") as? [String: Any])
            #expect(page["totalCount"] as? Int == 4)
            #expect(jsonValue(page, "edges", 0, "node", "name") as? String == "Han Solo")
            #expect(jsonValue(page, "edges", 1, "node", "name") as? String == "Leia Organa")
            #expect(jsonValue(page, "pageInfo", "hasNextPage") as? Bool == true)
            let endCursor = try #require(jsonValue(page, "pageInfo", "endCursor") as? String)

            let second = try await server.graphQLData(query, variables: ["after": endCursor])
            #expect(jsonValue(second, "human", "friendsConnection", "edges", 0, "node", "name") as? String == "C-3PO")
            #expect(jsonValue(second, "human", "friendsConnection", "edges", 1, "node", "name") as? String == "R2-D2")
            #expect(jsonValue(second, "human", "friendsConnection", "pageInfo", "hasNextPage") as? Bool == false)
            #expect(jsonValue(second, "human", "friendsConnection", "pageInfo", "hasPreviousPage") as? Bool == true)
        }
    }

    @Test func createReviewThenListReviews() async throws {
        try await withExampleServer { server in
            let created = try await server.graphQLData(
                """
                mutation Review($episode: Episode, $review: ReviewInput!) {
                  createReview(episode: $episode, review: $review) { episode stars commentary }
                }
                """,
                variables: ["episode": "JEDI", "review": ["stars": 5, "commentary": "Great!"]]
            )
            #expect(jsonValue(created, "createReview", "stars") as? Int == 5)
            #expect(jsonValue(created, "createReview", "episode") as? String == "JEDI")
            _ = try await server.graphQLData(#"mutation { createReview(episode: EMPIRE, review: {stars: 4}) { stars } }"#)

            let data = try await server.graphQLData("{ jedi: reviews(episode: JEDI) { stars commentary } empire: reviews(episode: EMPIRE) { stars } }")
            #expect((data["jedi"] as? [Any])?.count == 1)
            #expect(jsonValue(data, "jedi", 0, "commentary") as? String == "Great!")
            #expect(jsonValue(data, "empire", 0, "stars") as? Int == 4)
        }
    }

    // MARK: Posts

    @Test func upvotingAPostTwiceGivesTwoVotes() async throws {
        try await withExampleServer { server in
            let mutation = "mutation Upvote($id: Int!) { upvotePost(postId: $id) { id votes author { id firstName } } }"
            _ = try await server.graphQLData(mutation, variables: ["id": 2])
            let data = try await server.graphQLData(mutation, variables: ["id": 2])
            #expect(jsonValue(data, "upvotePost", "votes") as? Int == 2)
            #expect(jsonValue(data, "upvotePost", "author", "id") as? Int == 12)
            let posts = try await server.graphQLData("{ posts { id votes } }")
            #expect((posts["posts"] as? [[String: Any]])?.map { $0["votes"] as? Int } == [0, 2, 0])

            let unknown = try await server.graphQLPost(mutation, variables: ["id": 42])
            #expect(unknown.status == 200)
            #expect(jsonValue(unknown.data, "upvotePost") is NSNull)
            #expect(jsonValue(unknown.errors.first, "path") as? [String] == ["upvotePost"])
        }
    }

    // MARK: Space trips

    @Test func launchesPageWithCursors() async throws {
        try await withExampleServer { server in
            let query = """
                query Launches($after: String) {
                  launches(pageSize: 5, after: $after) {
                    cursor hasMore
                    launches { id site mission { name small: missionPatch(size: SMALL) large: missionPatch(size: LARGE) } rocket { id name type } }
                  }
                }
                """
            let first = try await server.graphQLData(query)
            let ids = (jsonValue(first, "launches", "launches") as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == ["launch-30", "launch-29", "launch-28", "launch-27", "launch-26"])
            #expect(jsonValue(first, "launches", "hasMore") as? Bool == true)
            let small = jsonValue(first, "launches", "launches", 0, "mission", "small") as? String
            let large = jsonValue(first, "launches", "launches", 0, "mission", "large") as? String
            #expect(small != nil && large != nil && small != large)
            let cursor = try #require(jsonValue(first, "launches", "cursor") as? String)

            let second = try await server.graphQLData(query, variables: ["after": cursor])
            let nextIDs = (jsonValue(second, "launches", "launches") as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(nextIDs == ["launch-25", "launch-24", "launch-23", "launch-22", "launch-21"])

            let all = try await server.graphQLData("{ launches { hasMore launches { id } } rest: launches(pageSize: 50) { hasMore launches { id } } }")
            #expect((jsonValue(all, "launches", "launches") as? [Any])?.count == 20)
            #expect((jsonValue(all, "rest", "launches") as? [Any])?.count == 30)
            #expect(jsonValue(all, "rest", "hasMore") as? Bool == false)
        }
    }

    @Test func loginBookTripsAndCancel() async throws {
        try await withExampleServer { server in
            let login = try await server.graphQLData(#"mutation { login(email: "traveller@example.com") }"#)
            let token = try #require(login["login"] as? String)
            let auth = ["Authorization": "Bearer \(token)"]

            let booked = try await server.graphQLData(
                #"mutation { bookTrips(launchIds: ["launch-3", "launch-7"]) { success message launches { id isBooked } } }"#,
                headers: auth
            )
            #expect(jsonValue(booked, "bookTrips", "success") as? Bool == true)
            #expect(jsonValue(booked, "bookTrips", "message") as? String == "trips booked successfully")
            #expect(jsonValue(booked, "bookTrips", "launches", 1, "isBooked") as? Bool == true)

            // The raw token works too.
            let me = try await server.graphQLData(
                #"{ me { id email trips { id } } launch(id: "launch-3") { isBooked } other: launch(id: "launch-4") { isBooked } }"#,
                headers: ["Authorization": token]
            )
            #expect((jsonValue(me, "me", "id") as? String)?.hasPrefix("User:") == true)
            #expect(jsonValue(me, "me", "email") as? String == "traveller@example.com")
            #expect((jsonValue(me, "me", "trips") as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["launch-3", "launch-7"])
            #expect(jsonValue(me, "launch", "isBooked") as? Bool == true)
            #expect(jsonValue(me, "other", "isBooked") as? Bool == false)

            let anonymous = try await server.graphQLData(#"{ me { id } launch(id: "launch-3") { isBooked } }"#)
            #expect(anonymous["me"] is NSNull)
            #expect(jsonValue(anonymous, "launch", "isBooked") as? Bool == false)

            let unknown = try await server.graphQLData(#"mutation { bookTrips(launchIds: ["launch-99"]) { success message } }"#, headers: auth)
            #expect(jsonValue(unknown, "bookTrips", "success") as? Bool == false)
            #expect((jsonValue(unknown, "bookTrips", "message") as? String)?.contains("launch-99") == true)

            let cancelled = try await server.graphQLData(
                #"mutation { cancelTrip(launchId: "launch-3") { success message launches { id isBooked } } }"#, headers: auth
            )
            #expect(jsonValue(cancelled, "cancelTrip", "success") as? Bool == true)
            #expect(jsonValue(cancelled, "cancelTrip", "message") as? String == "trip cancelled")
            #expect(jsonValue(cancelled, "cancelTrip", "launches", 0, "isBooked") as? Bool == false)
            let again = try await server.graphQLData(#"mutation { cancelTrip(launchId: "launch-3") { success } }"#, headers: auth)
            #expect(jsonValue(again, "cancelTrip", "success") as? Bool == false)
        }
    }

    @Test func bookingWithoutATokenIsAGraphQLError() async throws {
        try await withExampleServer { server in
            for mutation in [
                #"mutation { bookTrips(launchIds: ["launch-1"]) { success } }"#,
                #"mutation { cancelTrip(launchId: "launch-1") { success } }"#,
            ] {
                let response = try await server.graphQLPost(mutation)
                #expect(response.status == 200)
                #expect(response.hasNullData)
                #expect(response.errorMessages.first?.contains("must be logged in") == true)
            }
            let forged = try await server.graphQLPost(
                #"mutation { bookTrips(launchIds: ["launch-1"]) { success } }"#, headers: ["Authorization": "Bearer bm9ib2R5"]
            )
            #expect(forged.hasNullData)
        }
    }

    @Test func loginRejectsInvalidEmails() async throws {
        try await withExampleServer { server in
            for email in ["", "no-at-sign", "a@b", "two@@example.com"] {
                let response = try await server.graphQLPost("mutation Login($email: String!) { login(email: $email) }", variables: ["email": email])
                #expect(response.status == 200)
                #expect(jsonValue(response.data, "login") is NSNull, "\(email)")
                #expect(response.errors.count == 1, "\(email)")
            }
        }
    }

    // MARK: Todos

    @Test func viewerTodosAndTodoMutations() async throws {
        try await withExampleServer { server in
            let viewer = try await server.graphQLData("""
                { viewer { id totalCount completedCount todos(first: 10) { edges { cursor node { id text complete } } pageInfo { hasNextPage } } } }
                """)
            #expect(jsonValue(viewer, "viewer", "id") as? String == "User:1")
            #expect(jsonValue(viewer, "viewer", "totalCount") as? Int == 3)
            #expect(jsonValue(viewer, "viewer", "completedCount") as? Int == 1)
            let edges = try #require(jsonValue(viewer, "viewer", "todos", "edges") as? [[String: Any]])
            #expect(edges.compactMap { jsonValue($0, "node", "id") as? String } == ["Todo:1", "Todo:2", "Todo:3"])

            let added = try await server.graphQLData(
                """
                mutation Add($input: AddTodoInput!) {
                  addTodo(input: $input) { todoEdge { cursor node { id text complete } } todo { id } user { id totalCount } clientMutationId }
                }
                """,
                variables: ["input": ["text": "Write tests", "userId": "User:1", "clientMutationId": "m1"]]
            )
            let newID = try #require(jsonValue(added, "addTodo", "todo", "id") as? String)
            #expect(newID == "Todo:4")
            #expect(jsonValue(added, "addTodo", "todoEdge", "node", "text") as? String == "Write tests")
            #expect(jsonValue(added, "addTodo", "user", "totalCount") as? Int == 4)
            #expect(jsonValue(added, "addTodo", "clientMutationId") as? String == "m1")

            let changed = try await server.graphQLData(
                """
                mutation { changeTodoStatus(input: {id: "Todo:4", userId: "User:1", complete: true}) { todo { id complete } user { completedCount } } }
                """)
            #expect(jsonValue(changed, "changeTodoStatus", "todo", "complete") as? Bool == true)
            #expect(jsonValue(changed, "changeTodoStatus", "user", "completedCount") as? Int == 2)

            let node = try await server.graphQLData("""
                {
                  todo: node(id: "Todo:4") { __typename id ... on Todo { text complete } }
                  user: node(id: "User:1") { __typename ... on User { totalCount } }
                  launch: node(id: "launch-2") { __typename id }
                  missing: node(id: "Todo:999") { id }
                  byID: user(id: "User:1") { id }
                }
                """)
            #expect(jsonValue(node, "todo", "__typename") as? String == "Todo")
            #expect(jsonValue(node, "todo", "text") as? String == "Write tests")
            #expect(jsonValue(node, "user", "__typename") as? String == "User")
            #expect(jsonValue(node, "launch", "__typename") as? String == "Launch")
            #expect(node["missing"] is NSNull)
            #expect(jsonValue(node, "byID", "id") as? String == "User:1")

            let removed = try await server.graphQLData(
                #"mutation { removeTodo(input: {id: "Todo:4", userId: "User:1"}) { deletedTodoID user { totalCount } } }"#
            )
            #expect(jsonValue(removed, "removeTodo", "deletedTodoID") as? String == "Todo:4")
            #expect(jsonValue(removed, "removeTodo", "user", "totalCount") as? Int == 3)

            let again = try await server.graphQLPost(#"mutation { removeTodo(input: {id: "Todo:4", userId: "User:1"}) { deletedTodoID } }"#)
            #expect(again.status == 200)
            #expect(jsonValue(again.data, "removeTodo") is NSNull)
            #expect(again.errors.count == 1)
        }
    }

    @Test func todosPageForwardAndBackward() async throws {
        try await withExampleServer { server in
            let query = """
                query Todos($first: Int, $after: String, $last: Int, $before: String) {
                  viewer { todos(first: $first, after: $after, last: $last, before: $before) {
                    edges { node { id } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
                  } }
                }
                """
            func ids(_ data: [String: Any]) -> [String] {
                (jsonValue(data, "viewer", "todos", "edges") as? [[String: Any]] ?? []).compactMap { jsonValue($0, "node", "id") as? String }
            }
            let first = try await server.graphQLData(query, variables: ["first": 2])
            #expect(ids(first) == ["Todo:1", "Todo:2"])
            #expect(jsonValue(first, "viewer", "todos", "pageInfo", "hasNextPage") as? Bool == true)
            let end = try #require(jsonValue(first, "viewer", "todos", "pageInfo", "endCursor") as? String)
            let next = try await server.graphQLData(query, variables: ["first": 2, "after": end])
            #expect(ids(next) == ["Todo:3"])
            #expect(jsonValue(next, "viewer", "todos", "pageInfo", "hasNextPage") as? Bool == false)

            let last = try await server.graphQLData(query, variables: ["last": 1])
            #expect(ids(last) == ["Todo:3"])
            #expect(jsonValue(last, "viewer", "todos", "pageInfo", "hasPreviousPage") as? Bool == true)
            let start = try #require(jsonValue(last, "viewer", "todos", "pageInfo", "startCursor") as? String)
            let previous = try await server.graphQLData(query, variables: ["last": 5, "before": start])
            #expect(ids(previous) == ["Todo:1", "Todo:2"])
        }
    }

    // MARK: Uploads outside multipart requests, subscriptions outside HTTP

    @Test func uploadsNeedAMultipartRequest() async throws {
        try await withExampleServer { server in
            let response = try await server.graphQLPost(
                "mutation Upload($file: Upload!) { singleUpload(file: $file) { id } }", variables: ["file": "a"]
            )
            #expect(response.status == 200)
            #expect(response.errorMessages == ["No file was uploaded for a: send the request as multipart/form-data with a map entry for it."])
        }
    }

    @Test func subscriptionsStreamEventsOutsideHTTP() async throws {
        var counts: [String] = []
        for try await event in try await ExampleSchema.subscribe("subscription { count(to: 3) }", state: ServerState()) {
            counts.append(event)
        }
        #expect(counts == [#"{"data":{"count":1}}"#, #"{"data":{"count":2}}"#, #"{"data":{"count":3}}"#])

        let state = ServerState()
        let reviews = try await ExampleSchema.subscribe("subscription { reviewAdded(episode: JEDI) { stars } }", state: state)
        state.starWars.add(Review(episode: "EMPIRE", stars: 1, commentary: nil))
        state.starWars.add(Review(episode: "JEDI", stars: 5, commentary: nil))
        var iterator = reviews.makeAsyncIterator()
        #expect(try await iterator.next() == #"{"data":{"reviewAdded":{"stars":5}}}"#)
    }

    // MARK: HTTP

    @Test func statusCodesFollowGraphQLOverHTTP() async throws {
        try await withExampleServer { server in
            let json = ["Content-Type": "application/json"]
            let malformed = try await server.httpSend(method: "POST", body: Data("{not json".utf8), headers: json)
            #expect(malformed.status == 400)
            #expect(malformed.errors.count == 1)

            let missingQuery = try await server.httpSend(method: "POST", body: Data(#"{"variables": {}}"#.utf8), headers: json)
            #expect(missingQuery.status == 400)
            let badVariables = try await server.httpSend(method: "POST", body: Data(#"{"query": "{ posts { id } }", "variables": [1]}"#.utf8), headers: json)
            #expect(badVariables.status == 400)

            let invalid = try await server.graphQLPost("{ hero { nope } }", headers: ["Accept": "application/graphql-response+json"])
            #expect(invalid.status == 400)
            #expect(invalid.contentType?.hasPrefix("application/graphql-response+json") == true)
            #expect(invalid.json?["data"] == nil)
            #expect(!invalid.errors.isEmpty)
            #expect(jsonValue(invalid.errors.first, "locations", 0, "line") as? Int == 1)

            let invalidJSON = try await server.graphQLPost("{ hero { nope } }", headers: ["Accept": "application/json"])
            #expect(invalidJSON.status == 200)
            #expect(invalidJSON.contentType?.hasPrefix("application/json") == true)
            #expect(!invalidJSON.errors.isEmpty)

            let unparsable = try await server.graphQLPost("{ hero { ", headers: ["Accept": "application/graphql-response+json"])
            #expect(unparsable.status == 400)
            let badVariableValue = try await server.graphQLPost(
                "query ($id: Int!) { post(id: $id) { id } }", variables: ["id": "x"], headers: ["Accept": "application/graphql-response+json"]
            )
            #expect(badVariableValue.status == 400)

            let wrongType = try await server.httpSend(method: "POST", body: Data("{ posts { id } }".utf8), headers: ["Content-Type": "text/plain"])
            #expect(wrongType.status == 415)

            let put = try await server.httpSend(method: "PUT", body: Data("{}".utf8), headers: json)
            #expect(put.status == 405)

            let notAcceptable = try await server.graphQLPost("{ posts { id } }", headers: ["Accept": "text/html"])
            #expect(notAcceptable.status == 406)

            let subscription = try await server.graphQLPost("subscription { count(to: 2) }", headers: ["Accept": "application/graphql-response+json"])
            #expect(subscription.status == 400)
            #expect(subscription.errorMessages.first?.contains("Subscriptions") == true)
        }
    }

    @Test func getServesQueriesOnly() async throws {
        try await withExampleServer { server in
            let query = try await server.httpSend(
                method: "GET",
                query: [URLQueryItem(name: "query", value: "query P($id: Int!) { post(id: $id) { title } }"), URLQueryItem(name: "variables", value: #"{"id": 1}"#)]
            )
            #expect(query.status == 200)
            #expect(jsonValue(query.data, "post", "title") as? String == "Introduction to GraphQL")

            let mutation = try await server.httpSend(method: "GET", query: [URLQueryItem(name: "query", value: "mutation { upvotePost(postId: 1) { votes } }")])
            #expect(mutation.status == 405)
            let votes = try await server.graphQLData("{ post(id: 1) { votes } }")
            #expect(jsonValue(votes, "post", "votes") as? Int == 0)
        }
    }

    @Test func dataKeysFollowTheQuery() async throws {
        try await withExampleServer { server in
            let response = try await server.graphQLPost("{ zeta: posts { title id } alpha: hero { name id __typename } middle: viewer { id } }")
            #expect(response.status == 200)
            let text = response.text
            func position(_ key: String) -> Int {
                text.range(of: "\"\(key)\"").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
            }
            #expect(position("zeta") < position("alpha"))
            #expect(position("alpha") < position("middle"))
            #expect(text.contains(#"{"title":"Introduction to GraphQL","id":1}"#))
            #expect(text.contains(#"{"name":"R2-D2","id":"2001","__typename":"Droid"}"#))
        }
    }

    // MARK: Lifecycle

    @Test func serversDoNotShareState() async throws {
        let first = try await ExampleServer.start()
        let second = try await ExampleServer.start()
        #expect(first.port != second.port)
        _ = try await first.graphQLData("mutation { upvotePost(postId: 3) { votes } }")
        _ = try await first.graphQLData(#"mutation { login(email: "a@example.com") }"#)
        let inFirst = try await first.graphQLData("{ post(id: 3) { votes } }")
        let inSecond = try await second.graphQLData("{ post(id: 3) { votes } }")
        #expect(jsonValue(inFirst, "post", "votes") as? Int == 1)
        #expect(jsonValue(inSecond, "post", "votes") as? Int == 0)
        let login = try await second.graphQLData(#"mutation { login(email: "b@example.com") }"#)
        let me = try await second.graphQLData("{ me { id } }", headers: ["Authorization": login["login"] as? String ?? ""])
        #expect(jsonValue(me, "me", "id") as? String == "User:2")
        await first.stop()
        await second.stop()
    }

    @Test func twentyServersStartAndStop() async throws {
        var servers: [RunningExampleServer] = []
        for _ in 0..<20 {
            servers.append(try await ExampleServer.start())
        }
        #expect(Set(servers.map(\.port)).count == 20)
        for server in servers {
            #expect(server.url.absoluteString == "http://127.0.0.1:\(server.port)/graphql")
            _ = try await server.graphQLData("{ posts { id } }")
        }
        for server in servers {
            await server.stop()
            await server.stop()
        }
        await #expect(throws: (any Error).self) {
            _ = try await servers[0].httpSend(method: "POST", body: Data(#"{"query":"{ posts { id } }"}"#.utf8), headers: ["Content-Type": "application/json"])
        }
    }
}
