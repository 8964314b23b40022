import BatonAPI
import BatonExampleAPI
import BatonStore
import Testing

/// The one executor (issue 26): a single walk that checks a payload against its selections,
/// makes its records and gives the data in the store's shape. Server payloads go through
/// ``Store/prepare(data:for:errors:)``; optimistic ones through
/// ``Store/applyOptimisticResponse(_:for:updater:)``, which takes them as relay-runtime's
/// `validateMutation` does (its cases are named after relay's, `validateMutation-test.js`).
@Suite("One executor")
struct ResponseExecutorTests {
    /// `mutation { actorNameChange { actor { __id id name … on User { birthdate { day } } phones { isVerified } websites } } }`
    static let actorSelections: [Selection] = [
        .field(
            "actorNameChange", type: .object("ActorNameChangePayload"),
            selections: [
                .field(
                    "actor", type: .object("User"),
                    selections: [
                        .field("__id", type: .nonNull(.scalar("ID"))),
                        .field("__typename", type: .nonNull(.scalar("String"))),
                        .field("id", type: .nonNull(.scalar("ID"))),
                        .field("name", type: .scalar("String")),
                        .field(
                            "birthdate", type: .object("Date"),
                            selections: [.field("day", type: .nonNull(.scalar("Int")))]),
                        .field(
                            "allPhones", type: .list(.object("Phone")),
                            selections: [.field("isVerified", type: .nonNull(.scalar("Boolean")))]),
                        .field("websites", type: .list(.nonNull(.scalar("String")))),
                    ]),
            ])
    ]
    static let mutation = OperationDescriptor(
        name: "ChangeName", selections: actorSelections, variables: [:], rootID: .rootID, rootType: "Mutation")

    /// `query { user { …the actor's selections… } }`
    static let userQuery = OperationDescriptor(
        name: "User", selections: [.field("user", type: .object("User"), selections: actorSelections[0].fieldSelections[0].fieldSelections)],
        variables: [:], rootID: .rootID, rootType: "Query")

    /// User 3 as a read shows it (the optimistic layers included).
    static func user(in store: Store) -> JSONObject? {
        store.read(userQuery).data?["user"]?.objectValue
    }

    static func storeWithUser() -> Store {
        let store = Store()
        let query = userQuery
        store.publish(
            data: [
                "user": [
                    "__typename": "User", "id": "3", "name": "Zuck", "birthdate": ["day": 14], "allPhones": [["isVerified": true]],
                    "websites": ["a"],
                ]
            ], for: query)
        return store
    }

    // MARK: Server payloads

    @Test func aServerPayloadIsCheckedAndNormalizedInOneWalkAndMismatchesWriteNothing() throws {
        let store = Self.storeWithUser()
        let before = store.snapshot()
        do {
            _ = try store.prepare(
                data: [
                    "actorNameChange": [
                        "actor": [
                            "__typename": "User", "id": "3", "name": "B", "birthdate": .null, "allPhones": [["isVerified": "yes"]],
                            "websites": .null,
                        ]
                    ]
                ], for: Self.mutation)
            Issue.record("a Boolean field holding a string was accepted")
        } catch {
            #expect(error.path.description == "actorNameChange.actor.allPhones[0].isVerified")
            #expect(error.expected == "Boolean")
        }
        do {
            _ = try store.prepare(data: ["actorNameChange": ["actor": ["name": "B"]]], for: Self.mutation)
            Issue.record("a server payload without required fields was accepted")
        } catch {
            #expect(error.found == "nothing")
        }
        #expect(store.snapshot() == before)
    }

    @Test func theExecutorsDataHasTheRecordIDsAStoreReadWouldGiveWithoutReadingBack() throws {
        let store = Store()
        let prepared = try store.prepare(
            data: [
                "actorNameChange": [
                    "actor": [
                        "__typename": "User", "id": "3", "name": "B", "birthdate": ["day": 2], "allPhones": [["isVerified": true]],
                        "websites": [],
                    ]
                ]
            ], for: Self.mutation)
        let actor = try #require(prepared.data["actorNameChange"]?["actor"]?.objectValue)
        #expect(actor["__id"] == "User:3")
        store.publish(prepared)
        let read = try #require(store.read(Self.mutation).data)
        #expect(read == prepared.data)
    }

    @Test func aNullReportedAsAnErrorIsKeptAsTheFieldsErrorOverTheStoredValue() throws {
        let store = Self.storeWithUser()
        let prepared = try store.prepare(
            data: [
                "actorNameChange": [
                    "actor": ["__typename": "User", "id": "3", "name": .null, "birthdate": ["day": 1], "allPhones": [], "websites": []]
                ]
            ],
            for: Self.mutation, errors: [GraphQLError(message: "boom", path: ["actorNameChange", "actor", "name"])])
        store.publish(prepared)
        #expect(store.snapshot()["User:3"]?["name"] == .fieldErrors([GraphQLError(message: "boom", path: [])]))
        // The data handed back has the error where the null was.
        #expect(
            FieldErrorMarker.errors(in: prepared.data["actorNameChange"]?["actor"]?["name"] ?? .null)
                == [GraphQLError(message: "boom", path: ["actorNameChange", "actor", "name"])])
        #expect(store.snapshot()["client:User:3:birthdate"]?["day"] == .scalar(1))
    }

    // MARK: Optimistic responses, as relay-runtime's validateMutation takes them

    @Test func doesNotLogAWarningInThePositiveCase() throws {
        let store = Self.storeWithUser()
        _ = try store.applyOptimisticResponse(
            ["actorNameChange": ["actor": ["__typename": "User", "id": "3", "name": "B-dizzle"]]], for: Self.mutation)
        #expect(store.read(Self.mutation).data?["actorNameChange"]?["actor"]?["name"] == "B-dizzle")
    }

    @Test func aFieldThatIsNotSpecifiedIsNotWrittenAndTheRecordKeepsItsValue() throws {
        // relay: "Logs a warning when a field is is not specified" (a warning, and the rest applied).
        let store = Self.storeWithUser()
        let update = try store.applyOptimisticResponse(["actorNameChange": ["actor": ["id": "3", "name": "Guess"]]], for: Self.mutation)
        let user = try #require(Self.user(in: store))
        #expect(user["name"] == "Guess")
        #expect(user["birthdate"] == ["day": 14])
        #expect(user["websites"] == ["a"])
        store.revertOptimisticUpdate(update)
        #expect(store.snapshot()["User:3"]?["name"] == .scalar("Zuck"))
    }

    @Test func aConcreteTypeNeedsNoTypename() throws {
        // relay: "Does not warn when a field is specified as undefined" and the seed's
        // `["changeTodoStatus": ["todo": ["id": id, "complete": complete]]]`.
        let store = Self.storeWithUser()
        _ = try store.applyOptimisticResponse(["actorNameChange": ["actor": ["id": "3", "name": "Z"]]], for: Self.mutation)
        #expect(Self.user(in: store)?["__typename"] == "User")
        #expect(Self.user(in: store)?["name"] == "Z")
    }

    @Test func passesWhenFieldsAreNull() throws {
        let store = Self.storeWithUser()
        _ = try store.applyOptimisticResponse(
            ["actorNameChange": ["actor": ["id": "3", "__typename": "User", "name": .null, "birthdate": .null]]], for: Self.mutation)
        #expect(Self.user(in: store)?["birthdate"] == .null)
        #expect(Self.user(in: store)?["name"] == .null)
    }

    @Test func handlesListsWithNullValuesAndListsOfScalars() throws {
        let store = Self.storeWithUser()
        _ = try store.applyOptimisticResponse(
            ["actorNameChange": ["actor": ["id": "3", "allPhones": [.null], "websites": ["my website"]]]], for: Self.mutation)
        #expect(Self.user(in: store)?["allPhones"] == [.null])
        #expect(Self.user(in: store)?["websites"] == ["my website"])
    }

    @Test func anInvalidValueInTheListFailsWithItsPathAndAppliesNothing() throws {
        // relay: "Warn when invalid value in the list" and "Warn for invalid values in the list".
        let store = Self.storeWithUser()
        let before = store.snapshot()
        #expect {
            _ = try store.applyOptimisticResponse(
                ["actorNameChange": ["actor": ["id": "3", "allPhones": [["isVerified": true], "phone_number"]]]], for: Self.mutation)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.path.description == "actorNameChange.actor.allPhones[1]"
        }
        #expect {
            _ = try store.applyOptimisticResponse(
                ["actorNameChange": ["actor": ["id": "3", "websites": ["my website", ["url": "http://my-website"]]]]], for: Self.mutation)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.path.description == "actorNameChange.actor.websites[1]"
        }
        #expect(store.optimisticUpdateCount == 0)
        #expect(store.snapshot() == before)
    }
}

/// Each `@defer` part is executed at its own path, never the whole body again (issue 26, item 2).
@Suite("One executor: deferred parts")
struct DeferredPartExecutionTests {
    static let descriptor = OperationDescriptor(operation: HeroDeferredQuery())
    static let initial: JSONObject = ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2"]]

    @Test func aDeferredPartIsWrittenIntoTheRecordAtItsPath() throws {
        let store = Store()
        store.publish(try store.prepare(data: Self.initial, for: Self.descriptor))
        let friends: JSONValue = [["__typename": "Human", "id": "1000", "name": "Luke"]]
        var merged = Self.initial
        merged["hero"] = ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": friends]
        let part = try #require(
            try store.prepare(patches: [(ResponsePath([.key("hero")]), ["friends": friends])], in: merged, for: Self.descriptor))
        store.publish(part)
        #expect(store.snapshot()["Droid:2001"]?["friends"] == .list([.link("Human:1000")]))
        #expect(store.snapshot()["Droid:2001"]?["name"] == .scalar("R2-D2"))
        #expect(store.snapshot()["Human:1000"]?["name"] == .scalar("Luke"))
    }

    @Test func aDeferredPartOfTheWrongTypeFailsWithItsFullPath() throws {
        let store = Store()
        let friends: JSONValue = [["__typename": "Human", "id": "1000", "name": 7]]
        var merged = Self.initial
        merged["hero"] = ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": friends]
        #expect {
            _ = try store.prepare(patches: [(ResponsePath([.key("hero")]), ["friends": friends])], in: merged, for: Self.descriptor)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.path.description == "hero.friends[0].name"
        }
    }

    @Test func aPathThatLeadsNowhereAsksForTheWholeBody() throws {
        let store = Store()
        #expect(try store.prepare(patches: [(ResponsePath([.key("villain")]), ["name": "X"])], in: Self.initial, for: Self.descriptor) == nil)
    }
}

extension Selection {
    /// The selections of a field selection (test helper).
    fileprivate var fieldSelections: [Selection] {
        if case .field(let field) = self { return field.selections }
        return []
    }
}
