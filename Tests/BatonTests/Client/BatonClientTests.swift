import BatonAPI
import BatonExampleAPI
import Dispatch
import Foundation
import HTTPTypes
import Testing

@testable import Baton

@Suite("BatonClient against the example server")
struct BatonClientTests {
    @Test func fetchesAQueryWithFragmentsAndTypeConditions() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.fetch(query: HeroAndFriendsQuery(episode: .some(.case(.empire))))
            #expect(result.errors == nil)
            #expect(result.source == .server)
            let hero = try #require(result.data?.hero)
            #expect(hero.name == "Luke Skywalker")
            #expect(hero.__typename == "Human")
            #expect(hero.fragments.characterName.name == "Luke Skywalker")
            #expect(hero.appearsIn.contains(.case(.empire)))
            #expect(hero.friends?.compactMap { $0?.name }.contains("Han Solo") == true)
            let height = try #require(hero.asHuman?.height)
            #expect(abs(height - 1.72 * 3.28084) < 0.01)

            let r2 = try await client.fetch(query: HeroAndFriendsQuery())
            #expect(r2.data?.hero?.asDroid?.primaryFunction == "Astromech")
            // The response keeps the order of the query's selections.
            #expect(r2.data?.hero?.jsonObject.keys.prefix(3) == ["__typename", "id", "name"])
        }
    }

    @Test func includeAndSkipReachTheServer() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let with = try await client.fetch(query: HumanQuery(id: "1000", unit: .some(.case(.foot)), withHeight: true, skipMass: true))
            #expect(with.data?.human?.height != nil)
            #expect(with.data?.human?.mass == nil)
            let without = try await client.fetch(query: HumanQuery(id: "1000", withHeight: false, skipMass: false))
            #expect(without.data?.human?.height == nil)
            #expect(without.data?.human?.mass == 77)
        }
    }

    @Test func searchesAUnion() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.fetch(query: SearchQuery(text: "a"))
            let items = try #require(result.data?.search).compactMap { $0 }
            #expect(items.contains { $0.asHuman?.name == "Han Solo" })
            #expect(items.contains { $0.asStarship?.name == "Millenium Falcon" })
            #expect(items.allSatisfy { ($0.asHuman != nil) || ($0.asDroid != nil) || ($0.asStarship != nil) })
        }
    }

    @Test func performsAMutationWithAnInputObject() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let review = ReviewInput(stars: 5, commentary: "Best one", favorite_color: .some(ColorInput(red: 1, green: 2, blue: 3)))
            let result = try await client.perform(mutation: CreateReviewForEpisodeMutation(episode: .case(.jedi), review: review))
            #expect(result.data?.createReview?.stars == 5)
            #expect(result.data?.createReview?.commentary == "Best one")
            let reviews = try await client.fetch(query: ReviewsQuery(episode: .case(.jedi)))
            #expect(reviews.data?.reviews?.count == 1)
            #expect(reviews.data?.reviews?.first??.stars == 5)
        }
    }

    @Test func upvotesAPost() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            _ = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            let result = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            #expect(result.data?.upvotePost?.votes == 2)
            #expect(result.data?.upvotePost?.id == 1)
            #expect(result.data?.upvotePost?.author?.firstName != nil)
        }
    }

    @Test func pagesThroughLaunches() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let first = try await client.fetch(query: LaunchListQuery(pageSize: 5))
            let page = try #require(first.data?.launches)
            #expect(page.launches.count == 5)
            #expect(page.hasMore)
            let second = try await client.fetch(query: LaunchListQuery(pageSize: 5, after: .some(page.cursor)))
            let next = try #require(second.data?.launches)
            #expect(next.launches.count == 5)
            let firstIDs = Set(page.launches.compactMap { $0?.id })
            #expect(next.launches.allSatisfy { !firstIDs.contains($0?.id ?? "") })
            let details = try await client.fetch(query: LaunchDetailsQuery(id: page.launches[0]!.id))
            #expect(details.data?.launch?.id == page.launches[0]?.id)
            #expect(details.data?.launch?.mission?.missionPatch != page.launches[0]?.mission?.missionPatch)
        }
    }

    @Test func booksTripsWithTheTokenAddedByThePreflightStep() async throws {
        try await withExampleServer { server in
            let tokens = TokenStore()
            let client = BatonClient(url: server.url) { request in
                if let token = tokens.token { request.headerFields[.authorization] = token }
                return .send
            }
            // Without a token: a GraphQL error, not a thrown error.
            let refused = try await client.perform(mutation: BookTripsMutation(launchIds: ["launch-1"]))
            #expect(refused.data == nil)
            #expect(refused.errors?.first?.message.lowercased().contains("logged in") == true)

            let login = try await client.perform(mutation: LoginMutation(email: "astro@example.com"))
            tokens.token = try #require(login.data?.login)

            let booked = try await client.perform(mutation: BookTripsMutation(launchIds: ["launch-1", "launch-2"]))
            #expect(booked.errors == nil)
            #expect(booked.data?.bookTrips.success == true)
            #expect(booked.data?.bookTrips.launches?.allSatisfy { $0?.isBooked == true } == true)

            let me = try await client.fetch(query: MeQuery())
            #expect(me.data?.me?.email == "astro@example.com")
            #expect(Set(me.data?.me?.trips.map(\.id) ?? []) == ["launch-1", "launch-2"])

            let cancelled = try await client.perform(mutation: CancelTripMutation(launchId: "launch-1"))
            #expect(cancelled.data?.cancelTrip.success == true)
            let after = try await client.fetch(query: MeQuery(), cachePolicy: .networkOnly)
            #expect(after.data?.me?.trips.map(\.id) == ["launch-2"])
        }
    }

    @Test func keepsTodosRelayStyle() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let viewer = try #require(list.data?.viewer)
            let before = viewer.totalCount
            #expect(viewer.todos.edges?.count == before)

            let added = try await client.perform(
                mutation: AddTodoEdgeMutation(input: AddTodoInput(text: "Write tests", userId: viewer.id, clientMutationId: "m1")))
            let node = try #require(added.data?.addTodo?.todoEdge.node)
            #expect(node.fragments.todoDetails.text == "Write tests")
            #expect(added.data?.addTodo?.clientMutationId == "m1")
            #expect(added.data?.addTodo?.user.totalCount == before + 1)

            let changed = try await client.perform(
                mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: true, id: node.id, userId: viewer.id)))
            #expect(changed.data?.changeTodoStatus?.todo.complete == true)

            let fetched = try await client.fetch(query: NodeQuery(id: node.id))
            #expect(fetched.data?.node?.asTodo?.text == "Write tests")
            #expect(fetched.data?.node?.asTodo?.complete == true)

            let removed = try await client.perform(
                mutation: RemoveTodoWithCountMutation(input: RemoveTodoInput(id: node.id, userId: viewer.id)))
            #expect(removed.data?.removeTodo?.deletedTodoID == node.id)
            #expect(removed.data?.removeTodo?.user.totalCount == before)
        }
    }

    @Test func graphQLErrorsComeWithPartialData() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let result = try await client.perform(mutation: UpvoteTwoPostsMutation(first: 1, second: 999))
            #expect(result.data?.first?.votes == 1)
            #expect(result.data?.second == nil)
            let error = try #require(result.errors?.first)
            #expect(error.path?.description == "second")
            #expect(error.locations?.isEmpty == false)
        }
    }

    @Test func callbackFormsDeliverOnTheGivenQueue() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let queue = DispatchQueue(label: "results")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let name: String? = try await withCheckedThrowingContinuation { continuation in
                client.fetch(query: HeroNameQuery(episode: .some(.case(.jedi))), queue: queue) { result in
                    #expect(DispatchQueue.getSpecific(key: key) == true)
                    continuation.resume(with: result.map { $0.data?.hero?.name })
                }
            }
            #expect(name == "R2-D2")
            let votes: Int? = try await withCheckedThrowingContinuation { continuation in
                client.perform(mutation: UpvotePostMutation(postId: 2), queue: queue) { result in
                    continuation.resume(with: result.map { $0.data?.upvotePost?.votes })
                }
            }
            #expect(votes == 1)
        }
    }

    @Test func twoServersDoNotShareState() async throws {
        try await withExampleServer { one in
            try await withExampleServer { two in
                _ = try await BatonClient(url: one.url).perform(mutation: UpvotePostMutation(postId: 3))
                let other = try await BatonClient(url: two.url).perform(mutation: UpvotePostMutation(postId: 3))
                #expect(other.data?.upvotePost?.votes == 1)
            }
        }
    }
}

/// Two aliased upvotes in one mutation: one succeeds, one fails, so the response has both data
/// and errors. Written in the generator's shape.
struct UpvoteTwoPostsMutation: GraphQLMutation {
    static let operationName = "UpvoteTwoPosts"
    static let operationDocument =
        "mutation UpvoteTwoPosts($first: Int!, $second: Int!) { first: upvotePost(postId: $first) { __typename id votes } second: upvotePost(postId: $second) { __typename id votes } }"
    static let operationIdentifier = "12d1614ba25deef0d327f63bcfa63617e934c4b4f707d997fb821e7048869802"

    var first: Int
    var second: Int

    var variables: GraphQLVariables? { ["first": first, "second": second] }

    struct Data: RootSelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }

        static let __parentType = TypeCondition("Mutation")
        static let __selections: [Selection] = [
            .field("upvotePost", alias: "first", type: .object("Post"), arguments: ["postId": .variable("first")], selections: Post.__selections),
            .field("upvotePost", alias: "second", type: .object("Post"), arguments: ["postId": .variable("second")], selections: Post.__selections),
        ]

        var first: Post? { __data["first"] }
        var second: Post? { __data["second"] }

        struct Post: SelectionSet {
            let __data: DataDict
            init(_dataDict: DataDict) { __data = _dataDict }

            static let __parentType = TypeCondition("Post")
            static let __selections: [Selection] = [
                .field("__typename", type: .nonNull(.scalar("String"))),
                .field("id", type: .nonNull(.scalar("Int"))),
                .field("votes", type: .nonNull(.scalar("Int"))),
            ]

            var votes: Int { __data["votes"] }
        }
    }
}
