import BatonAPI
import BatonExampleAPI
import BatonSQLite
import BatonStore
import Foundation
import Testing

/// The store's promises that users of Apollo and Relay rely on, each a defect found by using
/// Baton as they do (issue 14), with the in-memory and the SQLite caches.
@Suite("Store promises")
struct StoreDefectTests {
    // MARK: Identity

    @Test func objectsOfDifferentTypesWithTheSameIDAreDifferentRecords() throws {
        // Post 1 written by Author 1: IDs unique per type only, as in most schemas.
        let descriptor = OperationDescriptor(operation: PostsQuery())
        let store = Store()
        store.publish(
            data: [
                "posts": [
                    [
                        "__typename": "Post", "id": 1, "title": "Hello", "votes": 3,
                        "author": ["__typename": "Author", "id": 1, "firstName": "Ada", "lastName": "L"],
                    ]
                ]
            ], for: descriptor)
        let post = try #require(store.snapshot()["Post:1"])
        let author = try #require(store.snapshot()["Author:1"])
        #expect(post.typename == "Post")
        #expect(post["author"] == .link("Author:1"))
        #expect(author.typename == "Author")
        #expect(author["title"] == nil)
        #expect(store.snapshot()["1"] == nil)
        let read = try PostsQuery.Data(jsonObject: try #require(store.read(descriptor).data))
        #expect(read.posts[0].title == "Hello")
        #expect(read.posts[0].author?.firstName == "Ada")
    }

    @Test func theGeneratedSchemaDecidesTheKeyRuleWithNoUserCode() throws {
        // The example schema has `interface Node` and `node(id:)`: Relay's global IDs for its
        // implementers, `Typename:id` for every other type.
        #expect(schemaMetadata.globalIDInterface == "Node")
        #expect(HeroAndFriendsQuery.Data.__schema == schemaMetadata)
        #expect(TodoDetails.__schema == schemaMetadata)
        let rule = try #require(OperationDescriptor(operation: HeroAndFriendsQuery(episode: .none)).cacheKeys)
        #expect(rule.cacheKey(typename: "Human", object: ["id": "1000"]) == "Human:1000")
        #expect(rule.cacheKey(typename: "User", object: ["id": "User:1"]) == "User:1")
        #expect(rule.cacheKey(typename: "Todo", object: ["id": "Todo:1"]) == "Todo:1")
        #expect(rule.cacheKey(typename: "Node", object: ["id": "Todo:1"]) == "Todo:1")
        // A store told otherwise uses its own rule for every operation.
        let relayStore = Store(cacheKeys: .globalIDs)
        relayStore.publish(
            data: ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": []]],
            for: OperationDescriptor(operation: HeroAndFriendsQuery(episode: .none)))
        #expect(relayStore.snapshot()["2001"]?.typename == "Droid")
        let defaultStore = Store()
        defaultStore.publish(
            data: ["hero": ["__typename": "Droid", "id": "2001", "name": "R2-D2", "friends": []]],
            for: OperationDescriptor(operation: HeroAndFriendsQuery(episode: .none)))
        #expect(defaultStore.snapshot()["Droid:2001"]?.typename == "Droid")
    }

    @Test func keyFieldsFromTypePolicyAndInterfacesApplyThroughSchemaMetadata() {
        let schema = SchemaMetadata(
            objectTypes: ["Dog", "Cat", "Book"], interfaces: ["Animal": ["Dog", "Cat"]],
            keyFields: ["Animal": ["name"], "Book": ["isbn", "edition"]])
        let rule = CacheKeyConfiguration(schema: schema)
        #expect(rule.cacheKey(typename: "Dog", object: ["name": "Rex", "id": "1"]) == "Dog:Rex")
        #expect(rule.cacheKey(typename: "Cat", object: ["name": "Tom"]) == "Cat:Tom")
        #expect(rule.cacheKey(typename: "Book", object: ["isbn": "123", "edition": 2]) == "Book:123+2")
        // A key field missing: no key at all (not a partial one).
        #expect(rule.cacheKey(typename: "Book", object: ["isbn": "123"]) == nil)
    }

    @Test func onlyStringsAndIntegersMakeCacheKeys() {
        let rule = CacheKeyConfiguration(keyFields: ["Omega": ["flag"]])
        for value: JSONValue in [true, 1.5, ["a": 1], [1, 2], nil] {
            #expect(rule.cacheKey(typename: "Omega", object: ["flag": value]) == nil)
            #expect(CacheKeyConfiguration.default.cacheKey(typename: "User", object: ["id": value]) == nil)
        }
        #expect(rule.cacheKey(typename: "Omega", object: ["flag": 7]) == "Omega:7")
        // Such an object is stored under a client ID from its place.
        let selections: [Selection] = [
            .field("omega", type: .object("Omega"), selections: [.field("__typename", type: .scalar("String")), .field("flag", type: .scalar("Boolean"))])
        ]
        let records = ResponseNormalizer.normalize(
            ["omega": ["__typename": "Omega", "flag": true]], selections: selections, rootType: "Query", cacheKeys: rule)
        #expect(records[.rootID]?["omega"] == .link("client:root:omega"))
        #expect(records["Omega:true"] == nil)
    }

    // MARK: Garbage collection and optimistic updates

    static let meSelections: [Selection] = [
        .field(
            "me", type: .object("User"),
            selections: [.field("__typename", type: .scalar("String")), .field("id", type: .scalar("ID")), .field("name", type: .scalar("String"))])
    ]
    static let me = OperationDescriptor(name: "Me", selections: meSelections, variables: [:], rootType: "Query")

    @Test(arguments: [false, true])
    func collectionWhileAnOptimisticUpdateIsPendingKeepsTheRealData(sqlite: Bool) async throws {
        try await withStore(sqlite: sqlite) { store in
            store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Real"]], for: Self.me, fetched: true)
            let token = store.retain(Self.me)
            defer { token.release() }
            let update = store.applyOptimisticUpdate(data: ["me": ["__typename": "User", "id": "2", "name": "Guess"]], for: Self.me)
            #expect(store.read(Self.me).data?["me"]?["name"] == "Guess")
            // Collection is held while the update is applied: the real `me` stays.
            #expect(store.collectGarbage().isEmpty)
            #expect(store.recordState(of: "User:1") != nil)
            store.revertOptimisticUpdate(update)
            let read = store.read(Self.me)
            #expect(!read.isMissing)
            #expect(read.data?["me"]?["name"] == "Real")
            // The held collection ran when the last update went: only the guess's record is gone.
            #expect(store.recordState(of: "User:2") == nil)
            #expect(store.recordState(of: "User:1") != nil)
        }
    }

    @Test func releasingAQueryWhoseDataExpiredDropsItAtOnce() async throws {
        let store = Store(queryCacheExpirationTime: .milliseconds(1))
        store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Real"]], for: Self.me, fetched: true)
        let token = store.retain(Self.me)
        try await Task.sleep(for: .milliseconds(20))
        token.release()
        #expect(store.retainedRootCount == 0)
        #expect(store.recordState(of: "User:1") == nil)
        // Not yet expired: kept in the release buffer.
        let fresh = Store(queryCacheExpirationTime: .seconds(3600))
        fresh.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Real"]], for: Self.me, fetched: true)
        fresh.retain(Self.me).release()
        #expect(fresh.retainedRootCount == 1)
        fresh.collectGarbage()
        #expect(fresh.recordState(of: "User:1") != nil)
    }

    @Test(arguments: [false, true])
    func clearRebasesPendingOptimisticUpdatesAndReachesTheCacheInOrder(sqlite: Bool) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let cache: any NormalizedCache = sqlite ? try SQLiteNormalizedCache(fileURL: url) : InMemoryNormalizedCache()
                let store = Store(cache: cache)
                store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Real"]], for: Self.me, fetched: true)
                let update = store.applyOptimisticUpdate(data: nil, for: Self.me) { proxy, _ in
                    proxy.get("User:1")?.setValue("Optimistic", "name")
                }
                #expect(store.read(Self.me).data?["me"]?["name"] == "Optimistic")
                store.clear()
                // The update read User:1, which is gone: applied again, it changes nothing, and
                // the overlay no longer holds a ghost of the old record.
                let userName = OperationDescriptor(
                    name: "UserName", selections: [.field("name", type: .scalar("String"))], variables: [:], rootID: "User:1", rootType: "User")
                #expect(store.read(userName).isMissing)
                #expect(store.read(Self.me).isMissing)
                #expect(store.recordState(of: "User:1") == nil)
                store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "After"]], for: Self.me, fetched: true)
                #expect(store.read(Self.me).data?["me"]?["name"] == "Optimistic")
                store.revertOptimisticUpdate(update)
                #expect(store.read(Self.me).data?["me"]?["name"] == "After")
            }
            if sqlite {
                // The clear and the later write reached the file in that order; optimistic data never did.
                let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                #expect(reopened.read(Self.me).data?["me"]?["name"] == "After")
            }
        }
    }

    @Test func checkAnswersStaleForAnInvalidatedRecordBeforeLookingForMissingData() {
        let store = Store()
        let selections: [Selection] = Self.meSelections + [.field("motto", type: .scalar("String"))]
        let descriptor = OperationDescriptor(name: "MeAndMotto", selections: selections, variables: [:], rootType: "Query")
        store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Real"]], for: Self.me, fetched: true)
        #expect(store.check(descriptor) == .missing)
        store.invalidateRecord("User:1")
        // relay-runtime's check: invalidation after the last write makes it stale, missing or not.
        #expect(store.check(descriptor) == .stale)
        store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Real"], "motto": "Hi"], for: descriptor, fetched: true)
        #expect(store.check(descriptor) == .available)
        store.invalidateStore()
        #expect(store.check(descriptor) == .stale)
    }

    // MARK: Watchers

    @Test func aWatcherCallbackMayReadAndWriteTheStore() async throws {
        let store = Store()
        let reads = Locked<[String]>([])
        let (_, subscription) = store.subscribe(Self.me) { result in
            // Called after the store's lock is released: reading and writing back does not deadlock.
            let name = store.read(Self.me).data?["me"]?["name"]?.stringValue ?? "-"
            reads.withLock { $0.append(name) }
            if name == "One" {
                store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "Two"]], for: Self.me)
            }
        }
        defer { subscription.cancel() }
        store.publish(data: ["me": ["__typename": "User", "id": "1", "name": "One"]], for: Self.me)
        // In commit order: One, then the callback's own write, Two.
        #expect(reads.withLock { $0 } == ["One", "Two"])
    }

    // MARK: Connections (relay-runtime's ConnectionHandler)

    static let todoFields: [Selection] = [.field("__typename", type: .scalar("String")), .field("id", type: .scalar("ID"))]
    static func todos(after: String? = nil, first: Int = 2) -> OperationDescriptor {
        var arguments: [String: InputValue] = ["first": .value(.int(first))]
        if let after { arguments["after"] = .value(.string(after)) }
        return OperationDescriptor(
            name: "Todos",
            selections: [
                .field(
                    "viewer", type: .object("User"),
                    selections: todoFields + [
                        .field(
                            "todos", type: .object("TodoConnection"), arguments: arguments,
                            directives: [.connection(key: "List_todos", filters: nil)],
                            selections: [
                                .field("__typename", type: .scalar("String")),
                                .field(
                                    "edges", type: .list(.object("TodoEdge")),
                                    selections: [
                                        .field("__typename", type: .scalar("String")), .field("cursor", type: .scalar("String")),
                                        .field("node", type: .object("Todo"), selections: todoFields),
                                    ]),
                                .field(
                                    "pageInfo", type: .object("PageInfo"),
                                    selections: [
                                        .field("endCursor", type: .scalar("String")), .field("hasNextPage", type: .scalar("Boolean")),
                                        .field("startCursor", type: .scalar("String")),
                                        .field("hasPreviousPage", type: .scalar("Boolean")),
                                    ]),
                            ]),
                    ])
            ], variables: [:], rootType: "Query", cacheKeys: .globalIDs)
    }

    static func page(_ nodes: [String], pageInfo: JSONValue?) -> JSONObject {
        var connection: JSONObject = [
            "__typename": "TodoConnection",
            "edges": .list(nodes.map { ["__typename": "TodoEdge", "cursor": .string("c" + $0), "node": ["__typename": "Todo", "id": .string($0)]] }),
        ]
        if let pageInfo { connection["pageInfo"] = pageInfo }
        return ["viewer": ["__typename": "User", "id": "me", "todos": .object(connection)]]
    }

    static let connectionID = ConnectionHandler.getConnectionID(parentID: "me", key: "List_todos")

    @Test func aNullCursorInALaterPageNeverOverwritesTheStoredOne() {
        let store = Store(cacheKeys: .globalIDs)
        store.publish(
            data: Self.page(["1", "2"], pageInfo: ["endCursor": "c2", "hasNextPage": true, "startCursor": "c1", "hasPreviousPage": false]),
            for: Self.todos())
        store.publish(
            data: Self.page(["3"], pageInfo: ["endCursor": nil, "hasNextPage": false, "startCursor": nil, "hasPreviousPage": false]),
            for: Self.todos(after: "c2"))
        let pageInfo = store.snapshot()[DataID(Self.connectionID.rawValue + ":pageInfo")]
        #expect(pageInfo?["endCursor"] == .scalar("c2"))
        #expect(pageInfo?["hasNextPage"] == .scalar(false))
        #expect(pageInfo?["startCursor"] == .scalar("c1"))
    }

    @Test func aFirstPageWithoutPageInfoGetsDefaultsAndReadsWhole() {
        let store = Store(cacheKeys: .globalIDs)
        store.publish(data: Self.page(["1"], pageInfo: nil), for: Self.todos())
        let pageInfo = store.snapshot()[DataID(Self.connectionID.rawValue + ":pageInfo")]
        #expect(pageInfo?["hasNextPage"] == .scalar(false))
        #expect(pageInfo?["hasPreviousPage"] == .scalar(false))
        #expect(pageInfo?["endCursor"] == .scalar(nil))
        #expect(pageInfo?["startCursor"] == .scalar(nil))
        let read = store.read(Self.todos())
        #expect(!read.isMissing)
        #expect(read.data?["viewer"]?["todos"]?["pageInfo"]?["hasNextPage"] == false)
    }

    @Test func edgeIndicesAreTakenForEveryServerEdgeAsRelayRuntimeTakesThem() throws {
        let store = Store(cacheKeys: .globalIDs)
        store.publish(
            data: Self.page(["1", "2"], pageInfo: ["endCursor": "c2", "hasNextPage": true]), for: Self.todos())
        // The next page repeats node 2, then brings 3: relay-runtime takes indices 2 and 3 and
        // keeps the first edge of node 2, so node 3's edge is `:edges:3`.
        store.publish(data: Self.page(["2", "3"], pageInfo: ["endCursor": "c3", "hasNextPage": false]), for: Self.todos(after: "c2"))
        let connection = try #require(store.snapshot()[Self.connectionID])
        let edges = Self.connectionID.rawValue + ":edges:"
        #expect(connection["edges"] == .list([.link(DataID(edges + "0")), .link(DataID(edges + "1")), .link(DataID(edges + "3"))]))
        #expect(connection["__connection_next_edge_index"] == .scalar(4))
    }

    func withStore(sqlite: Bool, _ body: (Store) async throws -> Void) async throws {
        try await withTemporaryFolder { folder in
            let cache: any NormalizedCache =
                sqlite ? try SQLiteNormalizedCache(fileURL: folder.appendingPathComponent("cache.sqlite")) : InMemoryNormalizedCache()
            try await body(Store(cache: cache))
        }
    }
}

