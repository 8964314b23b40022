import BatonTestSupport
import BatonAPI
import BatonSQLite
import BatonStore
import Foundation
import Testing

/// The schema's `@typePolicy(embeddedFields:)` and `@fieldPolicy(keyArgs:)` at run time (issue
/// 28, item 5): embedded objects live inside their parent's record through every write, read,
/// merge, watcher and the SQLite file; cache redirects answer a field its record lacks from the
/// record its key arguments name.
@Suite("Cache policy directives")
struct CachePolicyDirectiveTests {
    typealias Library = LibrarySchema

    // MARK: Embedded fields

    /// `type Book { isbn title publisher { id name } }` with `publisher` embedded, Publisher keyed by `id`.
    static let cacheKeys = CacheKeyConfiguration(keyFields: ["Book": ["isbn"]], embeddedFields: ["Book": ["publisher"]])
    static let publisher: [Selection] = [
        Library.typename, .field("id", type: .nonNull(.scalar("ID"))), .field("name", type: .scalar("String")),
        .field("__id", type: .nonNull(.scalar("ID"))),
    ]
    static let bookWithPublisher = OperationDescriptor(
        name: "BookWithPublisher",
        selections: [
            .field("promoBook", type: .object("Book"), selections: Library.book + [.field("publisher", type: .object("Publisher"), selections: publisher)])
        ], variables: [:], rootType: "Query", cacheKeys: cacheKeys)
    static let topPublisher = OperationDescriptor(
        name: "TopPublisher", selections: [.field("topPublisher", type: .object("Publisher"), selections: publisher)], variables: [:],
        rootType: "Query", cacheKeys: cacheKeys)

    static func bookWithPublisherData(title: String = "Promo", publisher: String = "Penguin") -> JSONObject {
        [
            "promoBook": [
                "__typename": "Book", "isbn": "42", "title": .string(title),
                "publisher": ["__typename": "Publisher", "id": "P1", "name": .string(publisher)],
            ]
        ]
    }

    /// An embedded object with a cache key is not its record: another query's `Publisher:P1`
    /// does not change it, and its `__id` is its place.
    @Test func anEmbeddedObjectWithACacheKeyHasNoRecordOfItsOwn() throws {
        let store = Store()
        store.publish(data: Self.bookWithPublisherData(), for: Self.bookWithPublisher)
        #expect(Set(store.snapshot().ids) == [.rootID, "Book:42"])
        let read = store.read(Self.bookWithPublisher)
        #expect(!read.isMissing)
        #expect(read.data?["promoBook"]?["publisher"]?["__id"] == "client:Book:42:publisher")
        #expect(read.data?["promoBook"]?["publisher"]?["name"] == "Penguin")

        store.publish(data: ["topPublisher": ["__typename": "Publisher", "id": "P1", "name": "Other"]], for: Self.topPublisher)
        #expect(store.snapshot()["Publisher:P1"] != nil)
        #expect(store.read(Self.bookWithPublisher).data?["promoBook"]?["publisher"]?["name"] == "Penguin")
    }

    /// Two queries selecting different fields of one embedded object both stay whole: the
    /// object merges field by field, as its record would.
    @Test func embeddedObjectsMergeFieldByFieldAsRecordsWould() {
        func hero(_ friendFields: [String]) -> OperationDescriptor {
            Library.descriptor(
                "Hero" + friendFields.joined(),
                [
                    .field(
                        "hero", type: .object("Hero"),
                        selections: [
                            Library.typename, .field("id", type: .nonNull(.scalar("ID"))),
                            .field(
                                "friends", type: .list(.object("Friend")),
                                selections: [Library.typename] + friendFields.map { .field($0, type: .scalar("String")) }),
                        ])
                ])
        }
        let store = Store()
        store.publish(
            data: ["hero": ["__typename": "Hero", "id": "1", "friends": [["__typename": "Friend", "name": "Luke"], ["__typename": "Friend", "name": "Leia"]]]],
            for: hero(["name"]))
        store.publish(
            data: ["hero": ["__typename": "Hero", "id": "1", "friends": [["__typename": "Friend", "nickname": "Farmboy"]]]], for: hero(["nickname"]))
        let names = store.read(hero(["name"]))
        #expect(!names.isMissing)
        // The list is the last one written (one friend), whose item kept the name written before.
        #expect(names.data?["hero"]?["friends"] == [["__typename": "Friend", "name": "Luke"]])
        #expect(store.read(hero(["name", "nickname"])).data?["hero"]?["friends"] == [["__typename": "Friend", "name": "Luke", "nickname": "Farmboy"]])
    }

    /// A watcher of a query reading an embedded object hears when it changes, through its
    /// parent's record, and not when a write leaves it as it was.
    @Test func aWatcherHearsAChangeInsideAnEmbeddedObject() {
        let store = Store()
        store.publish(data: Self.bookWithPublisherData(), for: Self.bookWithPublisher)
        let received = Received()
        let (initial, subscription) = store.subscribe(Self.bookWithPublisher) { received.append($0) }
        defer { subscription.cancel() }
        #expect(initial.seenIDs == [.rootID, "Book:42"])
        store.publish(data: Self.bookWithPublisherData(), for: Self.bookWithPublisher)
        #expect(received.results.isEmpty)
        store.publish(data: Self.bookWithPublisherData(publisher: "Vintage"), for: Self.bookWithPublisher)
        #expect(received.results.count == 1)
        #expect(received.results.last?.data?["promoBook"]?["publisher"]?["name"] == "Vintage")
    }

    /// Embedded objects reach the SQLite file inside their parent's row and read back after a
    /// restart; the JSON form of records (`RecordCoding`) keeps them too.
    @Test func embeddedObjectsSurviveARestart() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: Self.bookWithPublisherData(), for: Self.bookWithPublisher)
                #expect(store.takePersistenceErrors().isEmpty)
            }
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            let read = reopened.read(Self.bookWithPublisher)
            #expect(!read.isMissing)
            #expect(read.data?["promoBook"]?["publisher"]?["name"] == "Penguin")
            let book = try #require(reopened.snapshot()["Book:42"])
            #expect(try RecordCoding.decode(RecordCoding.encode(book)) == book)
        }
    }

    /// An embedded object's fields are as old as the field holding it: with a max age, a read
    /// goes stale when its parent's field does, not at once for fields never dated themselves.
    @Test func embeddedFieldsShareTheirParentFieldsAge() {
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .seconds(60)), clock: clock)
        store.publish(data: Self.bookWithPublisherData(), for: Self.bookWithPublisher, received: ResponseAge())
        #expect(store.read(Self.bookWithPublisher).staleAt == clock.now.addingTimeInterval(60))
        #expect(store.load(Self.bookWithPublisher).availability == .available)
    }

    // MARK: Cache redirects

    /// A redirect to a record lacking a selected field is a miss, not partial data.
    @Test func aRedirectMissesWhenTheRecordLacksASelectedField() {
        let store = Store()
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: Library.promoBook)
        let withAuthor = Library.descriptor(
            "GetBookWithAuthor",
            [
                .field(
                    "book", type: .object("Book"), arguments: ["isbn": "42"],
                    selections: Library.book + [.field("author", type: .object("Author"), selections: Library.author)])
            ])
        #expect(store.read(withAuthor).isMissing)
        #expect(store.read(Library.book(isbn: "7")).isMissing)
    }

    /// The field as the server wrote it wins over its redirect (Apollo Kotlin's
    /// `KeyArgumentsCacheResolver` reads the parent's field first too): a book the server said
    /// is null reads null.
    @Test func aStoredFieldWinsOverItsRedirect() {
        let store = Store()
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: Library.promoBook)
        store.publish(data: ["book": nil], for: Library.book(isbn: "42"))
        let read = store.read(Library.book(isbn: "42"))
        #expect(!read.isMissing)
        #expect(read.data?["book"] == .null)
    }

    /// A watcher of a redirected read hears when the record it was redirected to changes.
    @Test func aWatcherOfARedirectedReadHearsTheRecordChange() {
        let store = Store()
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: Library.promoBook)
        let received = Received()
        let (initial, subscription) = store.subscribe(Library.book(isbn: "42")) { received.append($0) }
        defer { subscription.cancel() }
        #expect(initial.data?["book"]?["title"] == "Promo")
        store.publish(data: ["otherBook": Library.bookData("42", "New title")], for: Library.otherBook)
        #expect(received.results.count == 1)
        #expect(received.results.last?.data?["book"]?["title"] == "New title")
    }

    /// A field returning an interface is redirected to the record of whichever implementer is
    /// in the store (`node(id: "3")` → `Library:3`), which Apollo Kotlin's type-scoped keys miss.
    @Test func aRedirectOfAnInterfaceFieldReadsTheImplementerInTheStore() {
        let store = Store()
        let promoLibrary = Library.descriptor(
            "GetPromoLibrary",
            [.field("promoLibrary", type: .object("Library"), selections: [Library.typename, .field("id", type: .nonNull(.scalar("ID")))])])
        store.publish(data: ["promoLibrary": ["__typename": "Library", "id": "3"]], for: promoLibrary)
        let node = Library.descriptor(
            "GetNode",
            [.field("node", type: .object("Node"), arguments: ["id": "3"], selections: [Library.typename, .field("id", type: .nonNull(.scalar("ID")))])])
        let read = store.read(node)
        #expect(!read.isMissing)
        #expect(read.data?["node"] == ["__typename": "Library", "id": "3"])
    }

    /// A store given its own rule (`Store(cacheKeys:)`) redirects by its key arguments, for
    /// operations that bring none.
    @Test func aStoresOwnRuleRedirectsToo() {
        let store = Store(cacheKeys: CacheKeyConfiguration(keyFields: ["Book": ["isbn"]], keyArguments: ["Query": ["book": ["isbn"]]]))
        let plain = { (descriptor: OperationDescriptor) in
            OperationDescriptor(name: descriptor.name, selections: descriptor.selections, variables: descriptor.variables, rootType: "Query")
        }
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: plain(Library.promoBook))
        #expect(store.read(plain(Library.book(isbn: "42"))).data?["book"]?["title"] == "Promo")
    }

    /// The record IDs a redirect names follow the cache-key rule: key fields escaped and joined,
    /// `Typename:id` by default, the bare ID for global-ID types, one per possible type.
    @Test func redirectIDsFollowTheCacheKeyRule() {
        let rule = CacheKeyConfiguration(
            keyFields: ["Author": ["firstName", "lastName"]], globalIDs: .only(["User"]), possibleTypes: ["Node": ["User", "Post"]])
        #expect(rule.redirect(returning: "Author", values: ["a+b", "c"]) == [#"Author:a\+b+c"#])
        #expect(rule.redirect(returning: "Book", values: [7]) == ["Book:7"])
        #expect(rule.redirect(returning: "Node", values: ["1"]) == ["Post:1", "1"])
        #expect(rule.redirect(returning: "Book", values: [true]).isEmpty)
    }

    // MARK: Embedded fields against the naive model

    /// Random sequences of writes of several queries over one hero, whose friends, their pets
    /// and the best friend are embedded in one store and records of their own in the other
    /// (objects without IDs, so that both hold the same facts): after every step each query
    /// reads the same in both, and their watchers heard the same number of changes. One of the
    /// embedding stores lives in a SQLite file, reopened now and then. The objects are always
    /// there and lists keep their length: an embedded object written null and then again starts
    /// afresh, where the record of a client ID would still hold its old fields.
    @Test(.ownThread, arguments: [51, 52, 53])
    func embeddedFieldsReadAsTheirRecordsWould(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let embedding = CacheKeyConfiguration(embeddedFields: ["Hero": ["friends", "bestFriend"], "Friend": ["pet"]])
            let plainStore = Store(cacheKeys: CacheKeyConfiguration())
            let embeddedStore = Store(cacheKeys: embedding)
            var sqliteStore: Store? = Store(cache: try SQLiteNormalizedCache(fileURL: url), cacheKeys: embedding)
            let queries = EmbeddingModel.queries
            var random = SeededGenerator(seed: seed)
            let heardPlain = queries.map { _ in Received() }
            let heardEmbedded = queries.map { _ in Received() }
            var subscriptions: [StoreSubscription] = []
            for (index, query) in queries.enumerated() {
                subscriptions.append(plainStore.subscribe(query) { heardPlain[index].append($0) }.subscription)
                subscriptions.append(embeddedStore.subscribe(query) { heardEmbedded[index].append($0) }.subscription)
            }
            defer { subscriptions.forEach { $0.cancel() } }
            for step in 0..<400 {
                let index = random.next(upperBound: queries.count)
                let data = EmbeddingModel.payload(for: index, using: &random)
                plainStore.publish(data: data, for: queries[index])
                embeddedStore.publish(data: data, for: queries[index])
                sqliteStore!.publish(data: data, for: queries[index])
                if random.next(upperBound: 50) == 0 {
                    #expect(sqliteStore!.takePersistenceErrors().isEmpty)
                    sqliteStore = nil
                    sqliteStore = Store(cache: try SQLiteNormalizedCache(fileURL: url), cacheKeys: embedding)
                }
                for (queryIndex, query) in queries.enumerated() {
                    let expected = plainStore.read(query)
                    let embedded = embeddedStore.read(query)
                    let persisted = sqliteStore!.read(query)
                    #expect(embedded.data == expected.data, "seed \(seed) step \(step) query \(queryIndex)")
                    #expect(embedded.isMissing == expected.isMissing, "seed \(seed) step \(step) query \(queryIndex)")
                    #expect(persisted.data == expected.data, "seed \(seed) step \(step) query \(queryIndex) (SQLite)")
                    #expect(heardEmbedded[queryIndex].results.count == heardPlain[queryIndex].results.count, "seed \(seed) step \(step)")
                }
                #expect(embeddedStore.snapshot().count <= 2)
            }
        }
    }
}

/// The queries and random payloads of the embedding check: a hero with two friends (each with a
/// name, a nickname, a pet) and a best friend, selected in parts, with random values and nulls.
enum EmbeddingModel {
    static let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))

    static func friend(_ fields: [String], pet: Bool) -> [Selection] {
        [typename] + fields.map { .field($0, type: .scalar("String")) }
            + (pet ? [.field("pet", type: .object("Pet"), selections: [typename, .field("name", type: .scalar("String"))])] : [])
    }

    static func hero(name: String, friends: [String]?, pet: Bool, bestFriend: [String]?) -> OperationDescriptor {
        var selections: [Selection] = [typename, .field("id", type: .nonNull(.scalar("ID")))]
        if let friends { selections.append(.field("friends", type: .list(.object("Friend")), selections: friend(friends, pet: pet))) }
        if let bestFriend { selections.append(.field("bestFriend", type: .object("Friend"), selections: friend(bestFriend, pet: false))) }
        return OperationDescriptor(
            name: name, selections: [.field("hero", type: .object("Hero"), selections: selections)], variables: [:], rootType: "Query")
    }

    static let queries: [OperationDescriptor] = [
        hero(name: "Names", friends: ["name"], pet: false, bestFriend: nil),
        hero(name: "Nicknames", friends: ["nickname"], pet: false, bestFriend: ["name"]),
        hero(name: "Pets", friends: ["name"], pet: true, bestFriend: nil),
        hero(name: "All", friends: ["name", "nickname"], pet: true, bestFriend: ["name", "nickname"]),
        hero(name: "Best", friends: nil, pet: false, bestFriend: ["nickname"]),
    ]

    static func value(_ random: inout SeededGenerator) -> JSONValue {
        random.next(upperBound: 5) == 0 ? .null : .string(["a", "b", "c"][random.next(upperBound: 3)])
    }

    static func friendObject(_ selections: [Selection], using random: inout SeededGenerator) -> JSONValue {
        var object: JSONObject = ["__typename": "Friend"]
        for case .field(let field) in selections where field.name != "__typename" {
            if field.name == "pet" {
                object["pet"] = ["__typename": "Pet", "name": value(&random)]
            } else {
                object[field.name] = value(&random)
            }
        }
        return .object(object)
    }

    static func payload(for query: Int, using random: inout SeededGenerator) -> JSONObject {
        guard case .field(let hero) = queries[query].selections[0] else { return [:] }
        var object: JSONObject = ["__typename": "Hero", "id": "1"]
        for case .field(let field) in hero.selections {
            switch field.name {
            case "friends":
                object["friends"] = .list((0..<2).map { _ in friendObject(field.selections, using: &random) })
            case "bestFriend":
                object["bestFriend"] = friendObject(field.selections, using: &random)
            default:
                break
            }
        }
        return ["hero": .object(object)]
    }
}
