import BatonAPI
import BatonSQLite
import BatonStore
import BatonTestSupport
import Foundation
import Testing

// Cases of Apollo Kotlin's normalized cache (apollographql/apollo-kotlin-normalized-cache),
// tests/cache-control: ClientSideCacheControlTest, MergeTest, StaleTest, MaxAgeFieldPathTest,
// as facts about Baton's store. Apollo "stores records N seconds ago"; here the test clock moves
// N seconds after the write. Apollo's stale cache miss is `.stale` here, and `maxStale` is
// `CacheLoad.isUsable(maxStale:)`.
@Suite("Freshness: max ages, field ages, maxStale (Apollo Kotlin cache-control)")
struct FreshnessTests {
    typealias Q = FreshnessQueries

    /// Writes `data` for `descriptor` as a server response, then lets `secondsAgo` pass.
    func write(
        _ store: Store, _ clock: TestClock, _ data: JSONObject, _ descriptor: OperationDescriptor, secondsAgo: Double,
        maxAge: Duration? = nil
    ) {
        store.publish(data: data, for: descriptor, received: ResponseAge(maxAge: maxAge))
        clock.advance(seconds: secondsAgo)
    }

    // ClientSideCacheControlTest.globalMaxAge
    @Test("ClientSideCacheControlTest: globalMaxAge")
    func globalMaxAge() {
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .seconds(10)), clock: clock)
        write(store, clock, Q.userData, Q.allUserFields, secondsAgo: 15)
        let stale = store.load(Q.allUserFields)
        #expect(stale.availability == .stale)
        #expect(!stale.read.isMissing)
        #expect(stale.expiredFor == .seconds(5))
        // With a max stale, it may answer.
        #expect(stale.isUsable(maxStale: .seconds(10)))
        #expect(!stale.isUsable(maxStale: .seconds(4)))
        // Written again now: fresh.
        write(store, clock, Q.userData, Q.allUserFields, secondsAgo: 0)
        #expect(store.load(Q.allUserFields).availability == .available)
        #expect(store.check(Q.allUserFields) == .available)
    }

    /// The max ages of ClientSideCacheControlTest.programmaticMaxAge: User 10 s, User.name 5 s,
    /// User.email 2 s, 20 s by default.
    static let programmatic = CacheFreshness(
        defaultMaxAge: .seconds(20), maxAgeByType: ["User": .seconds(10)],
        maxAgeByField: ["User": ["name": .seconds(5), "email": .seconds(2)]])

    /// The same as the schema's `@cacheControl(maxAge: 10)` on User and
    /// `@cacheControlField(name:, maxAge:)` for name and email.
    static let declarative = CacheDirectives(typeMaxAge: ["User": 10], fieldMaxAge: ["User": ["name": 5, "email": 2]])

    func maxAgeCases(_ store: Store, _ clock: TestClock, schema: CacheDirectives?) {
        func d(_ descriptor: OperationDescriptor) -> OperationDescriptor { schema.map { Q.withDirectives(descriptor, $0) } ?? descriptor }
        // Written 25 s ago, more than the default max age: stale.
        write(store, clock, Q.companyData, d(Q.company), secondsAgo: 25)
        #expect(store.check(d(Q.company)) == .stale)
        // 15 s ago, less than the default: Company's fields have none of their own.
        write(store, clock, Q.companyData, d(Q.company), secondsAgo: 15)
        #expect(store.check(d(Q.company)) == .available)
        // 15 s ago, more than User's 10 s (Query.user returns a User): stale.
        write(store, clock, Q.userData, d(Q.allUserFields), secondsAgo: 15)
        #expect(store.check(d(Q.user(["admin"]))) == .stale)
        // 5 s ago: admin (no max age of its own) is fresh.
        write(store, clock, Q.userData, d(Q.allUserFields), secondsAgo: 5)
        #expect(store.check(d(Q.user(["admin"]))) == .available)
        // 10 s ago: more than User.name's 5 s.
        write(store, clock, Q.userData, d(Q.allUserFields), secondsAgo: 10)
        #expect(store.check(d(Q.user(["name"]))) == .stale)
        // 2 s ago: name is fresh.
        write(store, clock, Q.userData, d(Q.allUserFields), secondsAgo: 2)
        #expect(store.check(d(Q.user(["name"]))) == .available)
        // 5 s ago: more than User.email's 2 s.
        write(store, clock, Q.userData, d(Q.allUserFields), secondsAgo: 5)
        #expect(store.check(d(Q.user(["email"]))) == .stale)
        // 1 s ago: email is fresh.
        write(store, clock, Q.userData, d(Q.allUserFields), secondsAgo: 1)
        #expect(store.check(d(Q.user(["email"]))) == .available)
    }

    /// A max age of zero, from the client's configuration or the schema's
    /// `@cacheControl(maxAge: 0)` (on a type or a field): the data is stored and reads, but is
    /// stale at once (never fresh), and `maxStale` may still answer with it.
    @Test func aMaxAgeOfZeroStoresTheDataButItIsStaleAtOnce() async throws {
        let clock = TestClock()
        let configured = Store(freshness: CacheFreshness(maxAgeByType: ["User": .zero]), clock: clock)
        let declared = Q.withDirectives(Q.allUserFields, CacheDirectives(typeMaxAge: ["User": 0]))
        for (store, descriptor) in [(configured, Q.allUserFields), (Store(clock: clock), declared)] {
            write(store, clock, Q.userData, descriptor, secondsAgo: 0)
            let load = store.load(descriptor)
            #expect(load.availability == .stale)
            #expect(!load.read.isMissing)
            #expect(load.read.data?["user"]?["name"] == "John")
            #expect(load.read.staleAt == clock.now)
            #expect(load.isUsable(maxStale: .seconds(1)))
            #expect(!load.isUsable(maxStale: .zero))
        }
        // On one field only: the others stay fresh.
        let field = CacheDirectives(fieldMaxAge: ["User": ["email": 0]])
        let store = Store(clock: clock)
        write(store, clock, Q.userData, Q.withDirectives(Q.allUserFields, field), secondsAgo: 0)
        #expect(store.check(Q.withDirectives(Q.user(["email"]), field)) == .stale)
        #expect(store.check(Q.withDirectives(Q.user(["name", "admin"]), field)) == .available)
        // Ages survive a restart: stale at once after it too.
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("zero.sqlite")
            do {
                let persistent = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: CacheFreshness(maxAgeByType: ["User": .zero]), clock: clock)
                write(persistent, clock, Q.userData, Q.allUserFields, secondsAgo: 0)
                persistent.waitUntilPersisted()
            }
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: CacheFreshness(maxAgeByType: ["User": .zero]), clock: clock)
            #expect(reopened.check(Q.allUserFields) == .stale)
            #expect(!reopened.read(Q.allUserFields).isMissing)
        }
    }

    // ClientSideCacheControlTest.programmaticMaxAge
    @Test("ClientSideCacheControlTest: programmaticMaxAge")
    func programmaticMaxAge() {
        let clock = TestClock()
        maxAgeCases(Store(freshness: Self.programmatic, clock: clock), clock, schema: nil)
    }

    // ClientSideCacheControlTest.declarativeMaxAge: the schema's directives, the default from the client.
    @Test("ClientSideCacheControlTest: declarativeMaxAge")
    func declarativeMaxAge() {
        let clock = TestClock()
        maxAgeCases(Store(freshness: CacheFreshness(defaultMaxAge: .seconds(20)), clock: clock), clock, schema: Self.declarative)
    }

    /// SchemaCoordinatesMaxAgeProviderTest.declarativeApolloServerExample, Apollo Server's
    /// example: `Query.cachedBook` 60 s, `Query.reader` 40 s, `Book.cachedTitle` 30 s,
    /// `Reader.book` `@cacheControl(inheritMaxAge: true)`, 0 s by default. A read is stale when
    /// its soonest field is.
    @Test("SchemaCoordinatesMaxAgeProviderTest: declarativeApolloServerExample")
    func declarativeApolloServerExample() {
        let directives = CacheDirectives(
            fieldMaxAge: ["Query": ["cachedBook": 60, "reader": 40], "Book": ["cachedTitle": 30]], inheritMaxAgeFields: ["Reader": ["book"]])
        let typename = Q.typename
        func book(_ name: String, _ field: String) -> Selection {
            .field(name, type: .object("Book"), selections: [typename, .field(field, type: .scalar("String"))])
        }
        let bookCachedTitle = Q.descriptor("BookCachedTitle", [book("book", "cachedTitle")], directives: directives)
        let cachedBookTitle = Q.descriptor("CachedBookTitle", [book("cachedBook", "title")], directives: directives)
        let cachedBookCachedTitle = Q.descriptor("CachedBookCachedTitle", [book("cachedBook", "cachedTitle")], directives: directives)
        let readerBookTitle = Q.descriptor(
            "ReaderBookTitle", [.field("reader", type: .object("Reader"), selections: [typename, book("book", "title")])], directives: directives)
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .zero), clock: clock)
        let written = clock.now
        let bookData: JSONObject = ["__typename": "Book", "title": "T", "cachedTitle": "C"]
        store.publish(data: ["book": .object(bookData)], for: bookCachedTitle, received: ResponseAge())
        store.publish(data: ["cachedBook": .object(bookData)], for: cachedBookTitle, received: ResponseAge())
        store.publish(data: ["cachedBook": .object(bookData)], for: cachedBookCachedTitle, received: ResponseAge())
        store.publish(data: ["reader": ["__typename": "Reader", "book": .object(bookData)]], for: readerBookTitle, received: ResponseAge())
        // book: 0 s (Book has no max age, the default is 0), so book.cachedTitle reads stale at once.
        #expect(store.read(bookCachedTitle).staleAt == written)
        // cachedBook.title: 60 s, the scalar's from the field that led to it.
        #expect(store.read(cachedBookTitle).staleAt == written.addingTimeInterval(60))
        // cachedBook.cachedTitle: its own 30 s.
        #expect(store.read(cachedBookCachedTitle).staleAt == written.addingTimeInterval(30))
        // reader.book.title: 40 s, inherited by Reader.book from Query.reader, and by title from book.
        #expect(store.read(readerBookTitle).staleAt == written.addingTimeInterval(40))
        clock.advance(seconds: 39)
        #expect(store.check(readerBookTitle) == .available)
        clock.advance(seconds: 2)
        #expect(store.check(readerBookTitle) == .stale)
    }

    /// The client's configuration comes before the schema's directives; without
    /// `usesSchemaDirectives` the schema's are not read at all.
    @Test func theClientsMaxAgesComeBeforeTheSchemas() {
        let clock = TestClock()
        let schema = CacheDirectives(fieldMaxAge: ["User": ["name": 5]])
        let name = Q.withDirectives(Q.user(["name"]), schema)
        let store = Store(freshness: CacheFreshness(maxAgeByField: ["User": ["name": .seconds(60)]]), clock: clock)
        write(store, clock, Q.userData, Q.withDirectives(Q.allUserFields, schema), secondsAgo: 30)
        #expect(store.check(name) == .available)

        let ignoring = Store(freshness: CacheFreshness(usesSchemaDirectives: false), clock: clock)
        write(ignoring, clock, Q.userData, Q.withDirectives(Q.allUserFields, schema), secondsAgo: 30)
        #expect(ignoring.check(name) == .available)
        #expect(ignoring.read(name).staleAt == nil)
    }

    // MergeTest.mergeDates: each field keeps the date of the write that gave it.
    @Test("MergeTest: mergeDates")
    func mergeDates() {
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .seconds(100)), clock: clock)
        let first = clock.now.timeIntervalSince1970
        store.publish(data: ["user": ["__typename": "User", "name": "John"]], for: Q.user(["name"]), received: ResponseAge())
        clock.advance(seconds: 1)
        store.publish(data: ["user": ["__typename": "User", "email": "john@doe.com"]], for: Q.user(["email"]), received: ResponseAge())
        let record = store.snapshot()[DataID("client:root:user")]
        #expect(record.flatMap { FieldAges.age(of: "name", in: $0) }?.receivedAt == first)
        #expect(record.flatMap { FieldAges.age(of: "email", in: $0) }?.receivedAt == first + 1)
    }

    // StaleTest.unknownAgeConsideredStale: written without a date (not a server response).
    @Test("StaleTest: unknownAgeConsideredStale")
    func unknownAgeConsideredStale() {
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .seconds(86_400)), clock: clock)
        store.publish(data: Q.userData, for: Q.allUserFields)
        let load = store.load(Q.allUserFields)
        #expect(load.availability == .stale)
        #expect(!load.read.isMissing)
        #expect(!load.isUsable(maxStale: .seconds(86_400 * 365)))
    }

    // MaxAgeFieldPathTest.aGlobalMaxAgeOfZeroMakesEveryReadFieldStale
    @Test("MaxAgeFieldPathTest: aGlobalMaxAgeOfZeroMakesEveryReadFieldStale")
    func aGlobalMaxAgeOfZeroMakesEveryReadFieldStale() {
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .zero), clock: clock)
        store.publish(data: Q.userData, for: Q.allUserFields, received: ResponseAge())
        #expect(store.check(Q.allUserFields) == .stale)
        #expect(store.read(Q.allUserFields).data?["user"]?["name"] == "John")
    }

    // MaxAgeFieldPathTest.anInfiniteGlobalMaxAgeMakesNoReadFieldStale
    @Test("MaxAgeFieldPathTest: anInfiniteGlobalMaxAgeMakesNoReadFieldStale")
    func anInfiniteGlobalMaxAgeMakesNoReadFieldStale() {
        let clock = TestClock()
        let store = Store(clock: clock)
        store.publish(data: Q.userData, for: Q.allUserFields, received: ResponseAge())
        clock.advance(seconds: 1e9)
        #expect(store.check(Q.allUserFields) == .available)
        #expect(store.read(Q.allUserFields).staleAt == nil)
    }

    // ClientAndServerSideCacheControlTest.cacheMisses / isStale, at the store: a response's own
    // max age (Cache-Control) and the client's per-field max age, the sooner wins.
    @Test("ClientAndServerSideCacheControlTest: cacheMisses and isStale")
    func responseMaxAgeAndFieldMaxAge() {
        let clock = TestClock()
        let store = Store(
            freshness: CacheFreshness(defaultMaxAge: .seconds(20), maxAgeByField: ["User": ["email": .seconds(2)]]), clock: clock)
        write(store, clock, Q.userData, Q.allUserFields, secondsAgo: 5, maxAge: .seconds(10))
        #expect(store.check(Q.user(["name"])) == .available)
        let email = store.load(Q.user(["email"]))
        #expect(email.availability == .stale)
        #expect(email.isUsable(maxStale: .seconds(10)))
        // max-age=0: stale at once, whatever the field's own max age.
        write(store, clock, Q.userData, Q.allUserFields, secondsAgo: 0, maxAge: .zero)
        #expect(store.check(Q.user(["name"])) == .stale)
        #expect(store.load(Q.user(["name"])).isUsable(maxStale: .seconds(10)))
        // A response's max age alone, with no max age configured anywhere, dates its fields too.
        let plain = Store(clock: clock)
        write(plain, clock, Q.userData, Q.allUserFields, secondsAgo: 11, maxAge: .seconds(10))
        #expect(plain.load(Q.user(["name"])).expiredFor == .seconds(1))
    }

    /// A read tells when its data goes stale: the soonest of the fields it reads.
    @Test func aReadTellsWhenItGoesStale() {
        let clock = TestClock()
        let store = Store(freshness: Self.programmatic, clock: clock)
        let written = clock.now
        store.publish(data: Q.userData, for: Q.allUserFields, received: ResponseAge())
        #expect(store.read(Q.allUserFields).staleAt == written.addingTimeInterval(2))
        #expect(store.read(Q.user(["name"])).staleAt == written.addingTimeInterval(5))
        // admin inherits User's 10 s through Query.user (which is itself 10 s).
        #expect(store.read(Q.user(["admin"])).staleAt == written.addingTimeInterval(10))
        #expect(!store.read(Q.user(["admin"])).isStale(at: written.addingTimeInterval(9)))
        #expect(store.read(Q.user(["admin"])).isStale(at: written.addingTimeInterval(10)))
    }

    /// An unchanged refetch still renews the ages: fresh again, and no watcher is told (its
    /// data did not change).
    @Test func aRefetchRenewsAgesWithoutNotifyingWatchers() {
        let clock = TestClock()
        let store = Store(freshness: CacheFreshness(defaultMaxAge: .seconds(10)), clock: clock)
        write(store, clock, Q.userData, Q.allUserFields, secondsAgo: 15)
        let notified = Counter()
        let (_, subscription) = store.subscribe(Q.allUserFields) { _ in notified.increment() }
        defer { subscription.cancel() }
        #expect(store.check(Q.allUserFields) == .stale)
        store.publish(data: Q.userData, for: Q.allUserFields, received: ResponseAge())
        #expect(store.check(Q.allUserFields) == .available)
        #expect(notified.value == 0)
    }

    /// Ages survive a restart: they are part of the records the SQLite cache keeps.
    @Test func agesSurviveARestart() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("ages.sqlite")
            let clock = TestClock()
            let freshness = CacheFreshness(defaultMaxAge: .seconds(10), maxAgeByField: ["User": ["email": .seconds(2)]])
            let written = clock.now
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: freshness, clock: clock)
                store.publish(data: Q.userData, for: Q.allUserFields, received: ResponseAge(maxAge: .seconds(60)))
                store.waitUntilPersisted()
            }
            clock.advance(seconds: 5)
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: freshness, clock: clock)
            #expect(reopened.read(Q.allUserFields).staleAt == written.addingTimeInterval(2))
            #expect(reopened.check(Q.user(["email"])) == .stale)
            #expect(reopened.check(Q.user(["name"])) == .available)
            clock.advance(seconds: 6)
            #expect(reopened.check(Q.user(["name"])) == .stale)
        }
    }

    /// A store that dates nothing reads as before: no ages on records, nothing stale.
    @Test func withoutMaxAgesNothingIsDated() {
        let clock = TestClock()
        let store = Store(clock: clock)
        store.publish(data: Q.userData, for: Q.allUserFields, received: ResponseAge())
        #expect(store.snapshot()[DataID("client:root:user")]?[FieldAges.key] == nil)
        #expect(store.read(Q.allUserFields).staleAt == nil)
    }
}

/// Counts notifications.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
