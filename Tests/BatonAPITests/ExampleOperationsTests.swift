import BatonAPI
import BatonExampleAPI
import Testing

/// The hand-written operations of BatonExampleAPI read realistic responses through their typed
/// accessors, and reject wrong ones with an error naming the path.
@Suite struct ExampleOperationsTests {
    // MARK: HeroName

    @Test func heroNameReadsTheHero() throws {
        let json: JSONObject = ["hero": ["__typename": "Droid", "name": "R2-D2"]]
        let data = try HeroNameQuery.Data(jsonObject: json)
        #expect(data.hero?.name == "R2-D2")
        #expect(data.hero?.__typename == "Droid")
        #expect(data.jsonObject == json)
    }

    @Test func heroNameReadsANullHero() throws {
        let data = try HeroNameQuery.Data(jsonObject: ["hero": nil])
        #expect(data.hero == nil)
    }

    @Test func heroNameVariablesLeaveAnAbsentEpisodeOut() {
        #expect(HeroNameQuery().variablesJSON == [:])
        #expect(HeroNameQuery(episode: .null).variablesJSON == ["episode": nil])
        #expect(HeroNameQuery(episode: .some(.case(.empire))).variablesJSON == ["episode": "EMPIRE"])
        #expect(HeroNameQuery.operationName == "HeroName")
        #expect(HeroNameQuery.operationType == .query)
    }

    @Test func heroNameRejectsANullName() {
        let json: JSONObject = ["hero": ["__typename": "Human", "name": nil]]
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try HeroNameQuery.Data(jsonObject: json)
        }
        #expect(error?.description == "hero.name: expected String!, found null")
        #expect(error?.path == [.key("hero"), .key("name")])
    }

    // MARK: Human (@include / @skip)

    static let luke: JSONObject = [
        "human": [
            "__typename": "Human",
            "id": "1000",
            "name": "Luke Skywalker",
            "homePlanet": "Tatooine",
            "height": 1.72,
            "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI", "HOLIDAY_SPECIAL"],
        ]
    ]

    @Test func humanReadsIncludedAndSkippedFields() throws {
        let query = HumanQuery(id: "1000", unit: .some(.case(.meter)), withHeight: true, skipMass: true)
        #expect(query.variablesJSON == ["id": "1000", "skipMass": true, "unit": "METER", "withHeight": true])

        let data = try HumanQuery.Data(jsonObject: Self.luke, variables: query.variablesJSON)
        let human = try #require(data.human)
        #expect(human.id == "1000")
        #expect(human.name == "Luke Skywalker")
        #expect(human.homePlanet == "Tatooine")
        #expect(human.height == 1.72)
        #expect(human.mass == nil)
        #expect(human.appearsIn.count == 4)
        #expect(human.appearsIn[0] == .case(.newhope))
        #expect(human.appearsIn[2]?.value == .jedi)
        // A value added to the schema after generation is kept, not rejected.
        #expect(human.appearsIn[3] == .unknown("HOLIDAY_SPECIAL"))
    }

    @Test func humanAllowsAnExcludedHeightToBeAbsent() throws {
        var json = Self.luke
        json["human"] = ["__typename": "Human", "id": "1003", "name": "Leia Organa", "homePlanet": "Alderaan", "mass": 49, "appearsIn": []]
        let query = HumanQuery(id: "1003", withHeight: false, skipMass: false)
        #expect(query.variablesJSON == ["id": "1003", "skipMass": false, "withHeight": false])

        let human = try #require(try HumanQuery.Data(jsonObject: json, variables: query.variablesJSON).human)
        #expect(human.height == nil)
        #expect(human.mass == 49)
        #expect(human.appearsIn.isEmpty)
    }

    @Test func humanRequiresAnIncludedField() {
        let query = HumanQuery(id: "1000", withHeight: true, skipMass: false)
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try HumanQuery.Data(jsonObject: Self.luke, variables: query.variablesJSON)
        }
        #expect(error?.description == "human.mass: expected Float, found nothing")
    }

    @Test func humanRejectsAWrongEnumValue() {
        var json = Self.luke
        json["human"] = [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "homePlanet": nil, "appearsIn": ["NEWHOPE", 5],
        ]
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try HumanQuery.Data(jsonObject: json, variables: ["withHeight": false, "skipMass": true])
        }
        #expect(error?.description == "human.appearsIn[1]: expected Episode (an enum value), found Int 5")
    }

    // MARK: Search (inline fragments on a union)

    static let searchResults: JSONObject = [
        "search": [
            ["__typename": "Human", "id": "1002", "name": "Han Solo", "homePlanet": nil],
            ["__typename": "Droid", "id": "2001", "name": "R2-D2", "primaryFunction": "Astromech"],
            ["__typename": "Starship", "id": "3000", "name": "Millennium Falcon", "length": 34.37],
            nil,
        ]
    ]

    @Test func searchReadsEachResultThroughItsTypeCondition() throws {
        let data = try SearchQuery.Data(jsonObject: Self.searchResults, variables: SearchQuery(text: "o").variablesJSON)
        let results = try #require(data.search)
        #expect(results.count == 4)
        #expect(results[3] == nil)

        let han = try #require(results[0]?.asHuman)
        #expect(han.id == "1002")
        #expect(han.name == "Han Solo")
        #expect(han.homePlanet == nil)
        #expect(results[0]?.asDroid == nil)
        #expect(results[0]?.asStarship == nil)

        let artoo = try #require(results[1]?.asDroid)
        #expect(artoo.name == "R2-D2")
        #expect(artoo.primaryFunction == "Astromech")
        #expect(results[1]?.asHuman == nil)

        let falcon = try #require(results[2]?.asStarship)
        #expect(falcon.id == "3000")
        #expect(falcon.length == 34.37)
        #expect(results[2]?.__typename == "Starship")
    }

    @Test func searchOnlyChecksTheMatchingTypeCondition() throws {
        // A droid needs no `homePlanet`; a human needs no `primaryFunction`.
        let json: JSONObject = ["search": [["__typename": "Droid", "id": "2000", "name": "C-3PO", "primaryFunction": "Protocol"]]]
        let data = try SearchQuery.Data(jsonObject: json)
        #expect(data.search?.first??.asDroid?.primaryFunction == "Protocol")
    }

    @Test func searchRejectsAStarshipWithoutAName() {
        var json = Self.searchResults
        json["search"] = [
            ["__typename": "Human", "id": "1002", "name": "Han Solo", "homePlanet": nil],
            ["__typename": "Starship", "id": "3001", "name": nil, "length": 1600],
        ]
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try SearchQuery.Data(jsonObject: json)
        }
        #expect(error?.description == "search[1].name: expected String!, found null")
    }

    // MARK: LaunchList (nested lists, literal enum arguments)

    static let launchPage: JSONObject = [
        "launches": [
            "__typename": "LaunchConnection",
            "cursor": "1583556631",
            "hasMore": true,
            "launches": [
                [
                    "__typename": "Launch", "id": "110", "site": "KSC LC 39A", "isBooked": false,
                    "mission": ["__typename": "Mission", "name": "Crew-1", "missionPatch": "https://images2.imgbox.com/crew1-small.png"],
                    "rocket": ["__typename": "Rocket", "id": "falcon9", "name": "Falcon 9"],
                ],
                [
                    "__typename": "Launch", "id": "109", "site": nil, "isBooked": true,
                    "mission": nil,
                    "rocket": ["__typename": "Rocket", "id": "falconheavy", "name": nil],
                ],
            ],
        ]
    ]

    @Test func launchListReadsAPage() throws {
        let query = LaunchListQuery(pageSize: 2, after: "1583556700")
        #expect(query.variablesJSON == ["after": "1583556700", "pageSize": 2])

        let data = try LaunchListQuery.Data(jsonObject: Self.launchPage, variables: query.variablesJSON)
        #expect(data.launches.cursor == "1583556631")
        #expect(data.launches.hasMore)
        #expect(data.launches.launches.count == 2)

        let first = try #require(data.launches.launches[0])
        #expect(first.id == "110")
        #expect(first.site == "KSC LC 39A")
        #expect(!first.isBooked)
        #expect(first.mission?.name == "Crew-1")
        #expect(first.mission?.missionPatch == "https://images2.imgbox.com/crew1-small.png")
        #expect(first.rocket?.id == "falcon9")
        #expect(first.rocket?.name == "Falcon 9")

        let second = try #require(data.launches.launches[1])
        #expect(second.site == nil)
        #expect(second.isBooked)
        #expect(second.mission == nil)
        #expect(second.rocket?.name == nil)
    }

    @Test func launchListSelectsTheSmallPatch() throws {
        let launch = LaunchListQuery.Data.Launch.__selections.compactMap { selection -> BatonAPI.Field? in
            if case .field(let field) = selection, field.name == "launches" { return field }
            return nil
        }
        let mission = launch.first?.selections.compactMap { selection -> BatonAPI.Field? in
            if case .field(let field) = selection, field.name == "mission" { return field }
            return nil
        }
        let patch = mission?.first?.selections.compactMap { selection -> BatonAPI.Field? in
            if case .field(let field) = selection, field.name == "missionPatch" { return field }
            return nil
        }
        #expect(patch?.first?.arguments["size"] == .value(.string("SMALL")))
        #expect(PatchSize.small.rawValue == "SMALL")
    }

    @Test func launchListRejectsANullID() {
        var json = Self.launchPage
        json["launches"] = [
            "__typename": "LaunchConnection",
            "cursor": "1583556631",
            "hasMore": false,
            "launches": [
                ["__typename": "Launch", "id": "110", "site": nil, "isBooked": false, "mission": nil, "rocket": nil],
                ["__typename": "Launch", "id": nil, "site": nil, "isBooked": false, "mission": nil, "rocket": nil],
            ],
        ]
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try LaunchListQuery.Data(jsonObject: json)
        }
        #expect(error?.description == "launches.launches[1].id: expected ID!, found null")
        #expect(error?.path == [.key("launches"), .key("launches"), .index(1), .key("id")])
    }

    @Test func launchListRejectsAMissingConnection() {
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try LaunchListQuery.Data(jsonObject: [:])
        }
        #expect(error?.description == "launches: expected LaunchConnection!, found nothing")
    }

    // MARK: Me and trips (no variables)

    @Test func meHasNoVariables() throws {
        #expect(MeQuery().variables == nil)
        #expect(MeQuery().variablesJSON == [:])

        let json: JSONObject = [
            "me": [
                "__typename": "User", "id": "user-1", "email": "ada@example.com",
                "trips": [["__typename": "Launch", "id": "110", "isBooked": true]],
            ]
        ]
        let me = try #require(try MeQuery.Data(jsonObject: json).me)
        #expect(me.email == "ada@example.com")
        #expect(me.trips.map(\.id) == ["110"])
        #expect(me.trips.allSatisfy { $0.isBooked })
    }

    @Test func meRejectsANullTrip() {
        let json: JSONObject = ["me": ["__typename": "User", "id": "user-1", "email": nil, "trips": [nil]]]
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try MeQuery.Data(jsonObject: json)
        }
        #expect(error?.description == "me.trips[0]: expected Launch!, found null")
    }

    // MARK: BookTrips and Login (mutations)

    @Test func bookTripsSendsNullableIDsAndReadsTheResponse() throws {
        let mutation = BookTripsMutation(launchIds: ["110", nil])
        #expect(mutation.variablesJSON == ["launchIds": ["110", nil]])
        #expect(BookTripsMutation.operationType == .mutation)

        let json: JSONObject = [
            "bookTrips": [
                "__typename": "TripUpdateResponse", "success": true, "message": "trips booked successfully",
                "launches": [["__typename": "Launch", "id": "110", "isBooked": true]],
            ]
        ]
        let data = try BookTripsMutation.Data(jsonObject: json, variables: mutation.variablesJSON)
        #expect(data.bookTrips.success)
        #expect(data.bookTrips.message == "trips booked successfully")
        #expect(data.bookTrips.launches?.first??.isBooked == true)
    }

    @Test func loginReadsAScalarRootField() throws {
        #expect(LoginMutation(email: "ada@example.com").variablesJSON == ["email": "ada@example.com"])
        #expect(try LoginMutation.Data(jsonObject: ["login": "dG9rZW4="]).login == "dG9rZW4=")
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try LoginMutation.Data(jsonObject: ["login": false])
        }
        #expect(error?.description == "login: expected String, found Boolean false")
    }

    // MARK: TodoList (named fragment, Relay connection)

    static let todoList: JSONObject = [
        "viewer": [
            "__typename": "User",
            "id": "VXNlcjptZQ==",
            "totalCount": 2,
            "completedCount": 1,
            "todos": [
                "__typename": "TodoConnection",
                "edges": [
                    [
                        "__typename": "TodoEdge", "cursor": "YXJyYXljb25uZWN0aW9uOjA=",
                        "node": ["__typename": "Todo", "id": "VG9kbzow", "text": "Taste JavaScript", "complete": true],
                    ],
                    [
                        "__typename": "TodoEdge", "cursor": "YXJyYXljb25uZWN0aW9uOjE=",
                        "node": ["__typename": "Todo", "id": "VG9kbzox", "text": "Buy a unicorn", "complete": false],
                    ],
                ],
                "pageInfo": [
                    "__typename": "PageInfo", "hasNextPage": false, "hasPreviousPage": false,
                    "startCursor": "YXJyYXljb25uZWN0aW9uOjA=", "endCursor": "YXJyYXljb25uZWN0aW9uOjE=",
                ],
            ],
        ]
    ]

    @Test func todoListReadsNodesThroughTheirFragment() throws {
        let query = TodoListQuery(first: 10)
        #expect(query.variablesJSON == ["first": 10])

        let data = try TodoListQuery.Data(jsonObject: Self.todoList, variables: query.variablesJSON)
        let viewer = try #require(data.viewer)
        #expect(viewer.id == "VXNlcjptZQ==")
        #expect(viewer.totalCount == 2)
        #expect(viewer.completedCount == 1)
        #expect(viewer.todos.pageInfo.hasNextPage == false)
        #expect(viewer.todos.pageInfo.endCursor == "YXJyYXljb25uZWN0aW9uOjE=")

        let edges = try #require(viewer.todos.edges)
        #expect(edges.count == 2)
        let node = try #require(edges[1]?.node)
        #expect(edges[1]?.cursor == "YXJyYXljb25uZWN0aW9uOjE=")
        #expect(node.id == "VG9kbzox")
        #expect(node.text == "Buy a unicorn")
        #expect(!node.complete)

        let details = node.fragments.todoDetails
        #expect(details.id == node.id)
        #expect(details.text == "Buy a unicorn")
        #expect(details.complete == false)
        #expect(details.__typename == "Todo")
    }

    @Test func todoDetailsStandsOnItsOwn() throws {
        let details = try TodoDetails(jsonObject: ["__typename": "Todo", "id": "VG9kbzow", "text": "Taste JavaScript", "complete": true])
        #expect(details.complete)
        #expect(TodoListQuery.operationDocument.hasSuffix("\n" + TodoDetails.fragmentDefinition))
        #expect(AddTodoEdgeMutation.operationDocument.hasSuffix("\n" + TodoDetails.fragmentDefinition))
    }

    @Test func todoListRejectsAWrongFragmentField() {
        var json = Self.todoList
        json["viewer"] = [
            "__typename": "User", "id": "VXNlcjptZQ==", "totalCount": 1, "completedCount": 0,
            "todos": [
                "__typename": "TodoConnection",
                "edges": [["__typename": "TodoEdge", "cursor": "c0", "node": ["__typename": "Todo", "id": "VG9kbzow", "text": "Taste JavaScript", "complete": "yes"]]],
                "pageInfo": ["__typename": "PageInfo", "hasNextPage": false, "hasPreviousPage": false, "startCursor": nil, "endCursor": nil],
            ],
        ]
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try TodoListQuery.Data(jsonObject: json)
        }
        #expect(error?.description == "viewer.todos.edges[0].node.complete: expected Boolean, found String \"yes\"")
    }

    // MARK: AddTodo, ChangeTodoStatus, RemoveTodo (input objects)

    @Test func addTodoSendsItsInputAndReadsTheNewEdge() throws {
        let mutation = AddTodoEdgeMutation(input: AddTodoInput(text: "Walk the dog", userId: "me", clientMutationId: "0"))
        #expect(mutation.variablesJSON == ["input": ["text": "Walk the dog", "userId": "me", "clientMutationId": "0"]])

        let json: JSONObject = [
            "addTodo": [
                "__typename": "AddTodoPayload",
                "clientMutationId": "0",
                "todoEdge": [
                    "__typename": "TodoEdge", "cursor": "YXJyYXljb25uZWN0aW9uOjI=",
                    "node": ["__typename": "Todo", "id": "VG9kbzoy", "text": "Walk the dog", "complete": false],
                ],
                "user": ["__typename": "User", "id": "VXNlcjptZQ==", "totalCount": 3],
            ]
        ]
        let addTodo = try #require(try AddTodoEdgeMutation.Data(jsonObject: json).addTodo)
        #expect(addTodo.clientMutationId == "0")
        #expect(addTodo.todoEdge.node?.text == "Walk the dog")
        #expect(addTodo.todoEdge.node?.fragments.todoDetails.id == "VG9kbzoy")
        #expect(addTodo.user.totalCount == 3)
    }

    @Test func todoInputsLeaveAbsentFieldsOut() {
        var change = ChangeTodoStatusInput(complete: true, id: "VG9kbzow", userId: "me")
        #expect(ChangeTodoStatusWithCountsMutation(input: change).variablesJSON == ["input": ["complete": true, "id": "VG9kbzow", "userId": "me"]])
        change.clientMutationId = .null
        #expect(change.variableJSON == ["complete": true, "id": "VG9kbzow", "userId": "me", "clientMutationId": nil])

        let remove = RemoveTodoInput(id: "VG9kbzow", userId: "me")
        #expect(RemoveTodoWithCountMutation(input: remove).variablesJSON == ["input": ["id": "VG9kbzow", "userId": "me"]])
    }

    @Test func changeAndRemoveTodoReadTheirPayloads() throws {
        let changed = try ChangeTodoStatusWithCountsMutation.Data(jsonObject: [
            "changeTodoStatus": [
                "__typename": "ChangeTodoStatusPayload",
                "todo": ["__typename": "Todo", "id": "VG9kbzow", "complete": true],
                "user": ["__typename": "User", "id": "VXNlcjptZQ==", "completedCount": 2],
            ]
        ])
        #expect(changed.changeTodoStatus?.todo.complete == true)
        #expect(changed.changeTodoStatus?.user.completedCount == 2)

        let removed = try RemoveTodoWithCountMutation.Data(jsonObject: [
            "removeTodo": [
                "__typename": "RemoveTodoPayload", "deletedTodoID": "VG9kbzow",
                "user": ["__typename": "User", "id": "VXNlcjptZQ==", "totalCount": 1],
            ]
        ])
        #expect(removed.removeTodo?.deletedTodoID == "VG9kbzow")
        #expect(removed.removeTodo?.user.totalCount == 1)

        let error = #expect(throws: SelectionSetDecodingError.self) {
            try RemoveTodoWithCountMutation.Data(jsonObject: ["removeTodo": ["__typename": "RemoveTodoPayload", "deletedTodoID": "VG9kbzow", "user": nil]])
        }
        #expect(error?.description == "removeTodo.user: expected User!, found null")
    }

    // MARK: Node (inline fragments on an interface)

    @Test func nodeReadsEachTypeThroughItsTypeCondition() throws {
        let todo = try #require(
            try NodeQuery.Data(jsonObject: ["node": ["__typename": "Todo", "id": "VG9kbzow", "text": "Taste JavaScript", "complete": true]]).node)
        #expect(todo.id == "VG9kbzow")
        #expect(todo.asTodo?.text == "Taste JavaScript")
        #expect(todo.asTodo?.complete == true)
        #expect(todo.asTodo?.id == "VG9kbzow")
        #expect(todo.asLaunch == nil)
        #expect(todo.asUser == nil)

        let launch = try #require(try NodeQuery.Data(jsonObject: ["node": ["__typename": "Launch", "id": "110", "site": "KSC LC 39A"]]).node)
        #expect(launch.asLaunch?.site == "KSC LC 39A")
        #expect(launch.asTodo == nil)

        let user = try #require(try NodeQuery.Data(jsonObject: ["node": ["__typename": "User", "id": "user-1", "email": nil]]).node)
        #expect(user.asUser != nil)
        #expect(user.asUser?.email == nil)

        #expect(try NodeQuery.Data(jsonObject: ["node": nil]).node == nil)
        #expect(NodeQuery(id: "VG9kbzow").variablesJSON == ["id": "VG9kbzow"])
    }

    @Test func nodeRequiresTheFieldsOfTheMatchingType() {
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try NodeQuery.Data(jsonObject: ["node": ["__typename": "Todo", "id": "VG9kbzow", "complete": false]])
        }
        #expect(error?.description == "node.text: expected String!, found nothing")
    }

    // MARK: Reviews and UpvotePost

    @Test func reviewsReadEnumsAndNullableFields() throws {
        let query = ReviewsQuery(episode: .case(.jedi))
        #expect(query.variablesJSON == ["episode": "JEDI"])
        let json: JSONObject = [
            "reviews": [
                ["__typename": "Review", "episode": "JEDI", "stars": 5, "commentary": "This is a great movie!"],
                ["__typename": "Review", "episode": nil, "stars": 3, "commentary": nil],
            ]
        ]
        let reviews = try #require(try ReviewsQuery.Data(jsonObject: json, variables: query.variablesJSON).reviews)
        #expect(reviews[0]?.episode == .case(.jedi))
        #expect(reviews[0]?.stars == 5)
        #expect(reviews[1]?.episode == nil)
        #expect(reviews[1]?.commentary == nil)

        let error = #expect(throws: SelectionSetDecodingError.self) {
            try ReviewsQuery.Data(jsonObject: ["reviews": [["__typename": "Review", "episode": "JEDI", "stars": "five", "commentary": nil]]])
        }
        #expect(error?.description == "reviews[0].stars: expected Int, found String \"five\"")
    }

    @Test func upvotePostReadsThePostAndItsAuthor() throws {
        let json: JSONObject = [
            "upvotePost": [
                "__typename": "Post", "id": 1, "votes": 3, "title": "Introduction to GraphQL",
                "author": ["__typename": "Author", "id": 1, "firstName": "Tom", "lastName": "Coleman"],
            ]
        ]
        let mutation = UpvotePostMutation(postId: 1)
        #expect(mutation.variablesJSON == ["postId": 1])
        let post = try #require(try UpvotePostMutation.Data(jsonObject: json, variables: mutation.variablesJSON).upvotePost)
        #expect(post.id == 1)
        #expect(post.votes == 3)
        #expect(post.title == "Introduction to GraphQL")
        #expect(post.author?.firstName == "Tom")
        #expect(post.author?.lastName == "Coleman")
    }

    // MARK: Documents

    @Test func everyOperationHasAHexIdentifierOfItsOwn() {
        let identifiers = [
            HeroNameQuery.operationIdentifier, HumanQuery.operationIdentifier, SearchQuery.operationIdentifier,
            ReviewsQuery.operationIdentifier, UpvotePostMutation.operationIdentifier, LaunchListQuery.operationIdentifier,
            LaunchDetailsQuery.operationIdentifier, LoginMutation.operationIdentifier, MeQuery.operationIdentifier,
            BookTripsMutation.operationIdentifier, CancelTripMutation.operationIdentifier, TodoListQuery.operationIdentifier,
            AddTodoEdgeMutation.operationIdentifier, ChangeTodoStatusWithCountsMutation.operationIdentifier,
            RemoveTodoWithCountMutation.operationIdentifier, NodeQuery.operationIdentifier,
        ]
        #expect(Set(identifiers).count == identifiers.count)
        for identifier in identifiers {
            #expect(identifier.count == 64)
            #expect(identifier.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }
}
