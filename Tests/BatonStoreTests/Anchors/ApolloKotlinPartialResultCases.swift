import BatonAPI
import BatonStore
import Foundation
import Testing

// Cases of Apollo Kotlin's normalized cache (apollographql/apollo-kotlin-normalized-cache),
// tests/partial-results/src/commonTest/kotlin/test/CachePartialResultTest.kt, as facts about
// Baton's partial read (`Store.readAllowingPartialData`, `BatonClient.readFromCache`): a read
// that is `.complete` (typed data and the field errors kept in it), `.partial` (what the store
// has, untyped, with the paths of what it lacks), `.missing` or `.failed`.
//
// Where Baton deliberately differs from Apollo Kotlin:
// - Apollo's partial read gives typed data with every missing field set to null and an error per
//   miss, and a miss under a non-null field nulls its parent ("due to null bubbling the whole
//   data is null"). Baton never fills a miss: the typed data exists only when all of it is there;
//   otherwise `.partial` keeps everything the store has (a missing field is absent from its
//   object, a missing list item is `null`) and lists the missing paths, in reading order. No null
//   bubbles, so the rest of the data survives a miss below a non-null field.
// - A response's errors kept in the store read back as errors at their paths in both.
// - Apollo turns a field past its max age into a miss ("is stale in the cache"). Baton reads stale
//   data as it is and flags it: the store's `load` is `.stale` (with how long past), and the read
//   says when it went stale (`ReadResult.staleAt`, `isStale(at:)`); the client's results carry
//   `isStale`, and cache policies refetch. Stale data is not an error, so `@catch` never sees it.
// - Apollo's `remove(CacheKey)` forgets a record: here a store holding the same records but that
//   one, which is *missing* (unknown). A record *deleted* in Baton (relay-runtime's
//   `deleteRecord`) reads as null, not as a miss.
//
// The schema (tests/partial-results/src/commonMain/graphql/schema.graphqls), with Apollo's key
// fields (`User.id`, `Project.id`) as Baton's default `Typename:id`; the max ages of its
// cache-control cases (nickName, salary and DepartmentInfo.name: 0 s) as schema directives.

/// Apollo Kotlin's partial-results schema and operations, as selections.
enum PartialResultsSchema {
    static let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))
    static let id = Selection.field("id", type: .nonNull(.scalar("ID")))

    static func string(_ name: String, alias: String? = nil, nullable: Bool = false, handling: FieldErrorHandling? = nil) -> Selection {
        .field(name, alias: alias, type: nullable ? .scalar("String") : .nonNull(.scalar("String")), errorHandling: handling)
    }

    /// `id firstName lastName` (with `__typename`, as Apollo's compiler adds it).
    static let names: [Selection] = [typename, id, string("firstName"), string("lastName")]

    static func me(_ selections: [Selection], handling: FieldErrorHandling? = nil) -> Selection {
        .field("me", type: .nonNull(.object("User")), errorHandling: handling, selections: selections)
    }

    /// The max ages of the cache-control cases.
    static let maxAges = CacheDirectives(fieldMaxAge: ["User": ["nickName": 0], "EmployeeInfo": ["salary": 0], "DepartmentInfo": ["name": 0]])

    static func descriptor(_ name: String, _ selections: [Selection], variables: JSONObject = [:]) -> OperationDescriptor {
        OperationDescriptor(name: name, selections: selections, variables: variables, rootType: "Query", cacheDirectives: maxAges)
    }

    /// `query MeWithoutNickNameWithEmailQuery { me { firstName lastName email ... on User { id } } }`
    enum MeWithoutNickNameWithEmail: PartialResultsDocument {
        static let selections = [
            me([typename, string("firstName"), string("lastName"), string("email"), .inlineFragment(on: TypeCondition("User"), selections: [id])])
        ]
    }

    /// `query MeWithoutNickNameWithoutEmailQuery { me { id firstName lastName } }`
    enum MeWithoutNickNameWithoutEmail: PartialResultsDocument {
        static let selections = [me(names)]
    }

    /// `query MeWithNickNameQuery { me { id firstName lastName nickName } }`
    enum MeWithNickName: PartialResultsDocument {
        static let selections = [me(names + [string("nickName", nullable: true)])]
    }

    /// `query UsersQuery($ids: [ID!]!) { users(ids: $ids) { id firstName lastName email } }`
    enum Users: PartialResultsDocument {
        static let selections: [Selection] = [
            .field(
                "users", type: .nonNull(.list(.object("User"))), arguments: ["ids": .variable("ids")],
                selections: names + [string("email")])
        ]
    }

    /// `query MeWithBestFriendQuery { me { id firstName lastName bestFriend { id firstName lastName }
    /// projects { lead { id firstName lastName } users { id firstName lastName } } } }`
    enum MeWithBestFriend: PartialResultsDocument {
        static let selections = [
            me(
                names + [
                    .field("bestFriend", type: .object("User"), selections: names),
                    .field(
                        "projects", type: .nonNull(.list(.nonNull(.object("Project")))),
                        selections: [
                            typename,
                            .field("lead", type: .object("User"), selections: names),
                            .field("users", type: .nonNull(.list(.nonNull(.object("User")))), selections: names),
                        ]),
                ])
        ]
    }

    /// `query DefaultProjectQuery($id: ID! = "42") { project(id: $id) { id name description }
    /// project2: project(id: "44") { id name description } }`
    enum DefaultProject: PartialResultsDocument {
        static let project: [Selection] = [typename, id, string("name"), string("description", nullable: true)]
        static let selections: [Selection] = [
            .field("project", type: .object("Project"), arguments: ["id": .variable("id")], selections: project),
            .field("project", alias: "project2", type: .object("Project"), arguments: ["id": .value("44")], selections: project),
        ]
    }

    /// `query UserByCategoryQuery($category: Category!) { user(category: $category) { firstName
    /// lastName category moreInfo } }` (`id`: Apollo's compiler adds the key field; `Category`
    /// and `Json` are custom scalars holding objects and lists).
    enum UserByCategory: PartialResultsDocument {
        static let selections: [Selection] = [
            .field(
                "user", type: .nonNull(.object("User")), arguments: ["category": .variable("category")],
                selections: [
                    typename, id, string("firstName"), string("lastName"), .field("category", type: .nonNull(.scalar("Category"))),
                    .field("moreInfo", type: .nonNull(.scalar("Json"))),
                ])
        ]
    }

    /// `query WithFragmentsQuery { me { id firstName0: firstName ... on User { lastName ... on User {
    /// nickName0: nickName } } ...UserFields } me { firstName0: firstName mainProject { id lead0:
    /// lead { id } } mainProject { lead0: lead { id firstName } } } }` with `fragment UserFields on
    /// User { email0: email category }`: the same response keys selected twice, as written.
    enum WithFragments: PartialResultsDocument {
        static let selections: [Selection] = [
            me([
                typename, id, string("firstName", alias: "firstName0"),
                .inlineFragment(
                    on: TypeCondition("User"),
                    selections: [
                        string("lastName"),
                        .inlineFragment(on: TypeCondition("User"), selections: [string("nickName", alias: "nickName0", nullable: true)]),
                    ]),
                .fragment(
                    "UserFields", on: TypeCondition("User"),
                    selections: [typename, id, string("email", alias: "email0"), .field("category", type: .nonNull(.scalar("Category")))]),
            ]),
            me([
                string("firstName", alias: "firstName0"),
                .field(
                    "mainProject", type: .nonNull(.object("Project")),
                    selections: [typename, id, .field("lead", alias: "lead0", type: .object("User"), selections: [typename, id])]),
                .field(
                    "mainProject", type: .nonNull(.object("Project")),
                    selections: [.field("lead", alias: "lead0", type: .object("User"), selections: [typename, id, string("firstName")])]),
            ]),
        ]
    }

    /// `query MeWithEmployeeInfoQuery { me @catch(to: NULL) { firstName lastName employeeInfo { id
    /// salary department } } }`. Apollo's `salary @catch(to: THROW)` (`@semanticNonNull` in its
    /// schema) lets an error go up to `me`'s catch: here `@semanticNonNull` read under
    /// `@throwOnFieldError`, which fails the read at `salary`, caught by `me`.
    enum MeWithEmployeeInfo: PartialResultsDocument {
        static let selections = [
            me(
                names + [
                    .field(
                        "employeeInfo", type: .object("EmployeeInfo"),
                        selections: [
                            typename, id,
                            .field(
                                "salary", type: .scalar("Int"),
                                errorHandling: FieldErrorHandling(throwsOnFieldError: true, semanticNonNullLevels: [0])),
                            string("department", nullable: true),
                        ])
                ], handling: FieldErrorHandling(catchTarget: .null))
        ]
    }

    /// `query MeWithDepartmentInfoQuery { me { firstName lastName departmentInfo { id name
    /// @catch(to: RESULT) } } }`
    enum MeWithDepartmentInfo: PartialResultsDocument {
        static let selections = [
            me(
                names + [
                    .field(
                        "departmentInfo", type: .nonNull(.object("DepartmentInfo")),
                        selections: [typename, id, string("name", nullable: true, handling: FieldErrorHandling(catchTarget: .result))])
                ])
        ]
    }
}

/// An operation of ``PartialResultsSchema``: its selections.
protocol PartialResultsDocument {
    static var selections: [Selection] { get }
}

/// The typed data of a ``PartialResultsDocument`` (what the generator would emit, without the
/// accessors: the cases look at the data it wraps).
struct PartialResultsData<Document: PartialResultsDocument>: RootSelectionSet {
    static var __parentType: TypeCondition { TypeCondition("Query") }
    static var __selections: [Selection] { Document.selections }
    let __data: DataDict
    init(_dataDict: DataDict) { __data = _dataDict }
}

@Suite("Apollo Kotlin partial result cases")
struct ApolloKotlinPartialResultCases {
    typealias S = PartialResultsSchema

    func descriptor<D: PartialResultsDocument>(_: D.Type, variables: JSONObject = [:]) -> OperationDescriptor {
        S.descriptor(String(describing: D.self), D.selections, variables: variables)
    }

    /// The partial read of `document`, as `readAllowingPartialData(query:)` makes it.
    func read<D: PartialResultsDocument>(_ store: Store, _: D.Type, variables: JSONObject = [:]) -> CacheRead<PartialResultsData<D>> {
        store.cacheRead(PartialResultsData<D>.self, descriptor(D.self, variables: variables), variables: variables)
    }

    /// The store as Apollo's `remove(CacheKey(…))` leaves its cache: the same records without
    /// `ids`, which are then unknown (missing), not deleted.
    func removing(_ ids: [DataID], from store: Store) -> Store {
        var records = store.snapshot()
        for id in ids { records.remove(id) }
        let result = Store()
        result.publish(records)
        return result
    }

    static func user(_ id: String, _ first: String, _ last: String, email: String? = nil) -> JSONValue {
        var user: JSONObject = ["__typename": "User", "id": .string(id), "firstName": .string(first), "lastName": .string(last)]
        if let email { user["email"] = .string(email) }
        return .object(user)
    }

    @Test("CachePartialResultTest: simple")
    func simple() throws {
        let store = Store()
        // Nothing written yet: missing (the third state), at the root.
        let nothing = read(store, S.MeWithNickName.self)
        guard case .missing = nothing else {
            Issue.record("expected a missing read")
            return
        }
        #expect(nothing.missingPaths == [ResponsePath()])

        store.publish(
            data: ["me": ["__typename": "User", "id": "1", "firstName": "John", "lastName": "Smith", "email": "jsmith@example.com"]],
            for: descriptor(S.MeWithoutNickNameWithEmail.self))

        // Fewer fields than were written: complete, typed.
        let cached = read(store, S.MeWithoutNickNameWithoutEmail.self)
        let data = try #require(cached.data)
        #expect(data.__data.object == ["me": Self.user("1", "John", "Smith")])
        #expect(cached.missingPaths.isEmpty)

        // A field never written: partial, with the path of the miss; the field is absent, not null.
        guard case .partial(let partial) = read(store, S.MeWithNickName.self) else {
            Issue.record("expected a partial read")
            return
        }
        #expect(partial.missingPaths == [["me", "nickName"]])
        #expect(partial.jsonObject == ["me": Self.user("1", "John", "Smith")])
        #expect(partial.jsonObject["me"]?["nickName"] == nil)
        #expect(partial.fieldErrors.isEmpty)
    }

    @Test("CachePartialResultTest: lists")
    func lists() throws {
        let store = Store()
        let variables: JSONObject = ["ids": ["1", "2", "3"]]
        let notFound = GraphQLError(message: "User `3` not found", path: ["users", 2])
        let network: JSONObject = [
            "users": [
                Self.user("1", "John", "Smith", email: "jsmith@example.com"), Self.user("2", "Jane", "Doe", email: "jdoe@example.com"), nil,
            ]
        ]
        store.publish(data: network, for: descriptor(S.Users.self, variables: variables), errors: [notFound])

        // The null item the server sent, with its error kept: complete, the error at its path.
        guard case .complete(let data, let fieldErrors) = read(store, S.Users.self, variables: variables) else {
            Issue.record("expected a complete read")
            return
        }
        #expect(fieldErrors == [notFound])
        let users = try #require(data.__data.object["users"]?.listValue)
        #expect(Array(users.prefix(2)) == Array(network["users"]!.listValue!.prefix(2)))
        // The third item holds the error, which typed data reads as nil.
        #expect(FieldErrorMarker.errors(in: users[2]) == [notFound])
    }

    @Test("CachePartialResultTest: composite")
    func composite() throws {
        let store = Store()
        let amanda = Self.user("3", "Amanda", "Brown")
        let alice = Self.user("4", "Alice", "White")
        func me(projects: JSONValue) -> JSONObject {
            [
                "me": [
                    "__typename": "User", "id": "1", "firstName": "John", "lastName": "Smith", "bestFriend": Self.user("2", "Jane", "Doe"),
                    "projects": projects,
                ]
            ]
        }
        let network = me(projects: [["__typename": "Project", "lead": amanda, "users": [alice]]])
        store.publish(data: network, for: descriptor(S.MeWithBestFriend.self))
        #expect(read(store, S.MeWithBestFriend.self).data?.__data.object == network)

        // Without the project's lead: everything else, and where the lead is missing.
        let noLead = removing(["User:3"], from: store)
        guard case .partial(let partial) = read(noLead, S.MeWithBestFriend.self) else {
            Issue.record("expected a partial read")
            return
        }
        #expect(partial.missingPaths == [["me", "projects", 0, "lead"]])
        #expect(partial.jsonObject == me(projects: [["__typename": "Project", "users": [alice]]]))

        // Without the best friend too: both paths, in reading order.
        let noFriend = removing(["User:3", "User:2"], from: store)
        let second = read(noFriend, S.MeWithBestFriend.self)
        #expect(second.missingPaths == [["me", "bestFriend"], ["me", "projects", 0, "lead"]])
        guard case .partial(let partial2) = second else {
            Issue.record("expected a partial read")
            return
        }
        #expect(partial2.jsonObject["me"]?["bestFriend"] == nil)
        #expect(partial2.jsonObject["me"]?["firstName"] == "John")

        // Without the project's user, an item of a non-null list of non-null users: Apollo's data
        // is null (the null bubbles to the root); here the rest stays, the item is null and its
        // path is listed.
        let noUser = removing(["User:3", "User:2", "User:4"], from: store)
        guard case .partial(let partial3) = read(noUser, S.MeWithBestFriend.self) else {
            Issue.record("expected a partial read")
            return
        }
        #expect(partial3.missingPaths == [["me", "bestFriend"], ["me", "projects", 0, "lead"], ["me", "projects", 0, "users", 0]])
        #expect(partial3.jsonObject["me"]?["projects"] == [["__typename": "Project", "users": [nil]]])
        #expect(partial3.jsonObject["me"]?["lastName"] == "Smith")

        // A lead deleted (not forgotten) reads as null: the data is complete.
        store.update { $0.delete("User:3") }
        let deleted = try #require(read(store, S.MeWithBestFriend.self).data)
        #expect(deleted.__data.object["me"]?["projects"]?.listValue?.first?["lead"] == .null)
    }

    @Test("CachePartialResultTest: argumentsAndAliases")
    func argumentsAndAliases() throws {
        let store = Store()
        let variables: JSONObject = ["id": "42"]  // the variable's default, as generated code sends it
        let network: JSONObject = [
            "project": ["__typename": "Project", "id": "42", "name": "El Dorado", "description": "The lost city of gold"],
            "project2": ["__typename": "Project", "id": "44", "name": "Atlantis", "description": "The lost city of water"],
        ]
        store.publish(data: network, for: descriptor(S.DefaultProject.self, variables: variables))
        let cached = read(store, S.DefaultProject.self, variables: variables)
        #expect(cached.data?.__data.object == network)
        // Two storage keys on the root, one per argument value; the alias is only the response's.
        let root = try #require(store.snapshot()[.rootID])
        #expect(root[#"project(id:"42")"#] == .link("Project:42"))
        #expect(root[#"project(id:"44")"#] == .link("Project:44"))
        // Another argument value is another field: missing, at the alias's path.
        guard case .partial(let other) = read(store, S.DefaultProject.self, variables: ["id": "43"]) else {
            Issue.record("expected a partial read")
            return
        }
        #expect(other.missingPaths == [["project"]])
        #expect(other.jsonObject["project2"] == network["project2"])
    }

    @Test("CachePartialResultTest: customScalar")
    func customScalar() throws {
        let store = Store()
        let variables: JSONObject = ["category": ["code": 2, "name": "Second"]]
        let network: JSONObject = [
            "user": [
                "__typename": "User", "id": "1", "firstName": "John", "lastName": "Smith", "category": ["code": 1, "name": "First"],
                "moreInfo": [0, "no", false, [:], []],
            ]
        ]
        store.publish(data: network, for: descriptor(S.UserByCategory.self, variables: variables))
        #expect(read(store, S.UserByCategory.self, variables: variables).data?.__data.object == network)

        // The category field taken out of the user's record: Apollo's data is null (`category`
        // is non-null); here the user's other fields, and the path of the one missing.
        var records = store.snapshot()
        var user = try #require(records["User:1"])
        user["category"] = nil
        records.set(user)
        let withoutCategory = Store()
        withoutCategory.publish(records)
        guard case .partial(let partial) = read(withoutCategory, S.UserByCategory.self, variables: variables) else {
            Issue.record("expected a partial read")
            return
        }
        #expect(partial.missingPaths == [["user", "category"]])
        #expect(partial.jsonObject["user"]?["moreInfo"] == [0, "no", false, [:], []])
        #expect(partial.jsonObject["user"]?["category"] == nil)
    }

    @Test("CachePartialResultTest: fragmentsAndAliases")
    func fragmentsAndAliases() throws {
        let store = Store()
        func me(mainProject: JSONValue) -> JSONObject {
            [
                "me": [
                    "__typename": "User", "id": "1", "firstName0": "John", "mainProject": mainProject, "lastName": "Smith", "nickName0": "JS",
                    "email0": "jdoe@example.com", "category": ["code": 1, "name": "First"],
                ]
            ]
        }
        let network = me(mainProject: ["__typename": "Project", "id": "1", "lead0": ["id": "2", "__typename": "User", "firstName": "Jane"]])
        store.publish(data: network, for: descriptor(S.WithFragments.self))
        #expect(read(store, S.WithFragments.self).data?.__data.object == network)
        // Aliases are the response's: the record holds the fields' own names.
        let record = try #require(store.snapshot()["User:1"])
        #expect(record["firstName"] == .scalar("John"))
        #expect(record["nickName"] == .scalar("JS"))
        #expect(record["email"] == .scalar("jdoe@example.com"))

        // Without the lead: the miss is at the aliased path; the fragments' fields are all there.
        let noLead = removing(["User:2"], from: store)
        guard case .partial(let partial) = read(noLead, S.WithFragments.self) else {
            Issue.record("expected a partial read")
            return
        }
        #expect(partial.missingPaths == [["me", "mainProject", "lead0"]])
        #expect(partial.jsonObject == me(mainProject: ["__typename": "Project", "id": "1"]))
    }

    /// Writes `data` as a server response to `descriptor` (dated by `clock`), then lets a second pass.
    func receive(_ store: Store, _ clock: TestClock, _ data: JSONObject, _ descriptor: OperationDescriptor) {
        store.publish(data: data, for: descriptor, fetched: true, received: ResponseAge())
        clock.advance(seconds: 1)
    }

    @Test("CachePartialResultTest: cacheControl")
    func cacheControl() throws {
        let clock = TestClock()
        let store = Store(clock: clock)
        let network: JSONObject = ["me": ["__typename": "User", "id": "1", "firstName": "John", "lastName": "Smith", "nickName": "JS"]]
        receive(store, clock, network, descriptor(S.MeWithNickName.self))

        // `nickName` (max age 0) is past its max age. Apollo: a miss at `me.nickName`, the field
        // null. Baton: the data as stored, complete, and flagged stale.
        let cached = read(store, S.MeWithNickName.self)
        #expect(cached.data?.__data.object == network)
        #expect(cached.missingPaths.isEmpty)
        let load = store.load(descriptor(S.MeWithNickName.self))
        #expect(load.availability == .stale)
        #expect(load.expiredFor == .seconds(1))
        #expect(!load.read.isMissing)
        #expect(load.read.isStale(at: clock.now))
        // The same user without its nickname is fresh: the other fields have no max age.
        #expect(store.load(descriptor(S.MeWithoutNickNameWithoutEmail.self)).availability == .available)
    }

    @Test("CachePartialResultTest: cacheControlWithSemanticNonNull")
    func cacheControlWithSemanticNonNull() throws {
        let clock = TestClock()
        let store = Store(clock: clock)
        func me(salary: JSONValue) -> JSONObject {
            [
                "me": [
                    "__typename": "User", "id": "1", "firstName": "John", "lastName": "Smith",
                    "employeeInfo": ["__typename": "EmployeeInfo", "id": "1", "salary": salary, "department": "Engineering"],
                ]
            ]
        }
        let network = me(salary: 100_000)
        receive(store, clock, network, descriptor(S.MeWithEmployeeInfo.self))

        // `salary` is stale. Apollo: an error at `me.employeeInfo.salary` that `me`'s
        // `@catch(to: NULL)` turns into `me: null`. Baton: stale is not an error, so nothing is
        // caught: `me` is there with the salary, and the read is stale.
        guard case .complete(let data, let fieldErrors) = read(store, S.MeWithEmployeeInfo.self) else {
            Issue.record("expected a complete read")
            return
        }
        #expect(fieldErrors.isEmpty)
        #expect(data.__data.object == network)
        let load = store.load(descriptor(S.MeWithEmployeeInfo.self))
        #expect(load.availability == .stale)
        #expect(load.read.isStale(at: clock.now))

        // A salary error the server sent is kept, and is an error: `@throwOnFieldError` fails
        // the read at the salary, and `me`'s catch makes it null.
        let noSalary = GraphQLError(message: "salary is secret", path: ["me", "employeeInfo", "salary"])
        store.publish(data: me(salary: nil), for: descriptor(S.MeWithEmployeeInfo.self), errors: [noSalary], received: ResponseAge())
        guard case .complete(let caught, let errors) = read(store, S.MeWithEmployeeInfo.self) else {
            Issue.record("expected a complete read")
            return
        }
        #expect(errors == [noSalary])
        #expect(caught.__data.object["me"] == .null)
    }

    @Test("CachePartialResultTest: cacheControlWithCatchToResult")
    func cacheControlWithCatchToResult() throws {
        let clock = TestClock()
        let store = Store(clock: clock)
        func me(name: JSONValue) -> JSONObject {
            [
                "me": [
                    "__typename": "User", "id": "1", "firstName": "John", "lastName": "Smith",
                    "departmentInfo": ["__typename": "DepartmentInfo", "id": "1", "name": name],
                ]
            ]
        }
        let network = me(name: "Engineering")
        receive(store, clock, network, descriptor(S.MeWithDepartmentInfo.self))

        // `name` is stale. Apollo: `name` is a failure ("is stale in the cache"). Baton: a
        // success with the stored name, the read flagged stale.
        let data = try #require(read(store, S.MeWithDepartmentInfo.self).data)
        let name = try #require(data.__data.object["me"]?["departmentInfo"]?["name"])
        #expect(Result<String?, GraphQLFieldError>._fromJSON(name) == .success("Engineering"))
        #expect(store.load(descriptor(S.MeWithDepartmentInfo.self)).availability == .stale)

        // An error the server sent for `name` is kept, and `@catch(to: RESULT)` gives it as the
        // failure, at its path.
        let unnamed = GraphQLError(message: "no name", path: ["me", "departmentInfo", "name"])
        store.publish(data: me(name: nil), for: descriptor(S.MeWithDepartmentInfo.self), errors: [unnamed], received: ResponseAge())
        guard case .complete(let caught, let errors) = read(store, S.MeWithDepartmentInfo.self) else {
            Issue.record("expected a complete read")
            return
        }
        #expect(errors == [unnamed])
        let failure = try #require(caught.__data.object["me"]?["departmentInfo"]?["name"])
        #expect(Result<String?, GraphQLFieldError>._fromJSON(failure) == .failure(GraphQLFieldError(errors: [unnamed])))
    }
}
