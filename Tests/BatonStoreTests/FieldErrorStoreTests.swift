import BatonAPI
import BatonExampleAPI
@testable import BatonSQLite
@_spi(BatonStorage) import BatonStore
import Foundation
import Testing

/// A response's field errors kept in the store (relay-runtime's `__errors`, Apollo Kotlin's
/// cached `Error`s): written by the executor where the server nulled a field, persisted, read
/// back as errors with the read's paths until a response writes the field again.
@Suite("Field errors in the store")
struct FieldErrorStoreTests {
    let query = HeroAndFriendsQuery(episode: .some(.case(.empire)))
    var descriptor: OperationDescriptor { OperationDescriptor(operation: query) }

    /// Luke with a friend the server could not resolve (an error at the list item) and a height
    /// it could not compute (an error at the field).
    let failed: JSONObject = [
        "hero": [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE"],
            "friends": [["__typename": "Human", "name": "Han Solo"], nil], "height": nil,
        ]
    ]
    let friendError = GraphQLError(message: "friend 2 is gone", path: ["hero", "friends", 1], extensions: ["code": "GONE"])
    let heightError = GraphQLError(message: "no ruler", locations: [.init(line: 1, column: 9)], path: ["hero", "height"])

    let good: JSONObject = [
        "hero": [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE"],
            "friends": [["__typename": "Human", "name": "Han Solo"], ["__typename": "Human", "name": "Leia"]], "height": 5.64,
        ]
    ]

    @Test func aReadGivesTheKeptErrorsWithTheReadsPathsNotAMissAndNotTheOldValue() throws {
        let store = Store()
        store.publish(data: good, for: descriptor)
        store.publish(data: failed, for: descriptor, errors: [friendError, heightError])
        let read = store.read(descriptor)
        #expect(!read.isMissing)
        #expect(read.fieldErrors == [friendError, heightError])
        let hero = try #require(read.data?["hero"]?.objectValue)
        #expect(FieldErrorMarker.errors(in: hero["height"] ?? .null) == [heightError])
        #expect(FieldErrorMarker.errors(in: hero["friends"]?.listValue?[1] ?? .null) == [friendError])
        // Typed data reads the fields as null, as the server sent them.
        let data = try HeroAndFriendsQuery.Data(jsonObject: try #require(read.data), variables: descriptor.variables)
        #expect(data.hero?.asHuman?.height == nil)
        #expect(data.hero?.friends?[1] == nil)
        #expect(data.hero?.friends?[0]?.name == "Han Solo")
    }

    @Test func aLaterResponseOverwritesTheError() throws {
        let store = Store()
        store.publish(data: failed, for: descriptor, errors: [friendError, heightError])
        store.publish(data: good, for: descriptor)
        let read = store.read(descriptor)
        #expect(read.fieldErrors.isEmpty)
        #expect(read.data == good)
    }

    @Test func anErrorUnderANonNullFieldIsKeptAtTheNullableParentItNulled() throws {
        // The server nulls the nearest nullable field above a failed non-null one (`hero` here,
        // for `hero.name: String!`): the error is kept on `hero`, its path relative to it.
        let store = Store()
        store.publish(data: good, for: descriptor)
        let nameError = GraphQLError(message: "no name", path: ["hero", "name"])
        store.publish(data: ["hero": nil], for: descriptor, errors: [nameError])
        let key = try #require(store.snapshot()[.rootID]?.fields.keys.first { $0.hasPrefix("hero") })
        #expect(store.snapshot()[.rootID]?[key] == .fieldErrors([GraphQLError(message: "no name", path: ["name"])]))
        let read = store.read(descriptor)
        #expect(read.fieldErrors == [nameError])
        #expect(try HeroAndFriendsQuery.Data(jsonObject: try #require(read.data), variables: descriptor.variables).hero == nil)
    }

    @Test func typedDataWrittenBackKeepsItsFieldErrors() throws {
        // A result read from the store holds its errors as markers; writing it back (a local
        // cache write of what was read) keeps them, it does not turn them into nulls.
        let store = Store()
        store.publish(data: failed, for: descriptor, errors: [friendError, heightError])
        let data = try store.read(query: query)
        let other = Store()
        other.write(data: data, for: query)
        #expect(other.read(descriptor).fieldErrors == [friendError, heightError])
    }

    @Test func fieldErrorsSurviveARestartOfTheSQLiteCache() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: failed, for: descriptor, errors: [friendError, heightError])
                store.waitUntilPersisted()
                #expect(store.takePersistenceErrors().isEmpty)
            }
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            let read = reopened.read(descriptor)
            #expect(!read.isMissing)
            #expect(read.fieldErrors == [friendError, heightError])
        }
    }

    @Test func bothStoredFormsRoundTripFieldErrorsAndOlderFormsStillRead() throws {
        let kept = [GraphQLError(message: "boom", locations: [.init(line: 2, column: 3)], path: ["a", 0], extensions: ["code": "X"])]
        let record = Record(
            id: "User:1", typename: "User",
            fields: ["name": .fieldErrors(kept), "friends": .list([.link("User:2"), .fieldErrors(kept), .null]), "age": .scalar(3)])
        // The JSON form (files before version 3, and the portable form).
        #expect(try RecordCoding.decode(RecordCoding.encode(record)) == record)
        // The binary form (version 4 files; version 3's held the ID too).
        let buffer = ByteBuffer()
        RecordWriter().write(record, into: buffer)
        let bytes = UnsafeRawBufferPointer(start: buffer.start, count: buffer.count)
        #expect(RecordReader().decode(bytes, id: record.id) == record)
        // A record written before field errors were kept reads as before.
        let older = Array(#"{"__id":"User:1","__typename":"User","fields":{"age":{"v":3},"name":{"v":null}}}"#.utf8)
        #expect(try RecordCoding.decode(older) == Record(id: "User:1", typename: "User", fields: ["age": .scalar(3), "name": .null]))
    }

    // MARK: Items of lists of scalars

    /// `{ a { list } }` with `list: [Int]`, and `list @catch(to: RESULT)`.
    static func numbers(catching: Bool = false) -> OperationDescriptor {
        OperationDescriptor(
            name: "Numbers",
            selections: [
                .field(
                    "a", type: .object("A"),
                    selections: [
                        .field(
                            "list", type: .list(.scalar("Int")), errorHandling: catching ? FieldErrorHandling(catchTarget: .result) : nil)
                    ])
            ], variables: [:], rootType: "Query")
    }
    static let numbersData: JSONObject = ["a": ["list": [1, 2, nil, 4]]]
    static let thirdNumberError = GraphQLError(message: "no third number", path: ["a", "list", 2])

    @Test func anErrorAtAnItemOfAListOfScalarsIsKeptForThatItem() throws {
        let store = Store()
        store.publish(data: Self.numbersData, for: Self.numbers(), errors: [Self.thirdNumberError])
        let read = store.read(Self.numbers())
        #expect(!read.isMissing)
        #expect(read.fieldErrors == [Self.thirdNumberError])
        let list = try #require(read.data?["a"]?["list"]?.listValue)
        #expect(list.count == 4)
        #expect(list[0] == 1)
        #expect(list[1] == 2)
        #expect(FieldErrorMarker.errors(in: list[2]) == [Self.thirdNumberError])
        #expect(list[3] == 4)
        // The accessor `[Int?]` reads the item as the null the server sent; the others as they are.
        #expect([Int?]._fromJSON(.list(list)) == [1, 2, nil, 4])
        // `@catch(to: RESULT)` on the list catches the item's error.
        var path: [ResponsePath.Component] = []
        let object = try #require(read.data)
        let caught = try #require(
            try SelectionPlan(Self.numbers(catching: true).selections, parentType: "Query", variables: [:])
                .resolveFieldErrors(object, path: &path) { _ in })
        #expect(FieldErrorMarker.errors(in: caught["a"]?["list"] ?? .null) == [Self.thirdNumberError])
        // A later response overwrites the item's error.
        store.publish(data: ["a": ["list": [1, 2, 3, 4]]], for: Self.numbers())
        #expect(store.read(Self.numbers()).fieldErrors.isEmpty)
        #expect(store.read(Self.numbers()).data == ["a": ["list": [1, 2, 3, 4]]])
    }

    @Test func theExecutorsDataHasTheItemsErrorAtItsPlace() throws {
        let prepared = try Store().prepare(data: Self.numbersData, for: Self.numbers(), errors: [Self.thirdNumberError])
        let list = try #require(prepared.data["a"]?["list"]?.listValue)
        #expect(FieldErrorMarker.errors(in: list[2]) == [Self.thirdNumberError])
        #expect(list[3] == 4)
    }

    @Test func itemErrorsOfAListOfScalarsSurviveARestartOfTheSQLiteCache() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.publish(data: Self.numbersData, for: Self.numbers(), errors: [Self.thirdNumberError])
                store.waitUntilPersisted()
                #expect(store.takePersistenceErrors().isEmpty)
            }
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            let read = reopened.read(Self.numbers())
            #expect(!read.isMissing)
            #expect(read.fieldErrors == [Self.thirdNumberError])
        }
        let record = Record(id: "client:root:a", typename: "A", fields: ["list": .list([.scalar(1), .fieldErrors([Self.thirdNumberError]), .scalar(.null)])])
        #expect(try RecordCoding.decode(RecordCoding.encode(record)) == record)
    }

    // MARK: Reads that @required(action: THROW) fails

    @Test func aStoreReadThatRequiredThrowFailsIsItsErrorNotAMiss() throws {
        let descriptor = OperationDescriptor(
            name: "Required",
            selections: [
                .field(
                    "a", type: .object("A"),
                    selections: [.field("list", type: .list(.scalar("Int")), errorHandling: FieldErrorHandling(required: .throw))])
            ], variables: [:], rootType: "Query")
        let store = Store()
        store.publish(data: ["a": ["list": nil]], for: descriptor, errors: [GraphQLError(message: "no list", path: ["a", "list"])])
        let read = store.read(descriptor)
        #expect(!read.isMissing)
        let object = try #require(read.data)
        let typed = try #require(Store.typedRead(RequiredListData.self, object, variables: [:]))
        guard case .failure(let failure) = typed else {
            Issue.record("the read fails")
            return
        }
        #expect(failure.path == ["a", "list"])
        #expect(failure.fieldErrors.map(\.message) == ["no list"])
    }
}

/// `{ a { list @required(action: THROW) } }`
struct RequiredListData: RootSelectionSet {
    static let __parentType = TypeCondition("Query")
    static let __selections: [Selection] = [
        .field(
            "a", type: .object("A"),
            selections: [.field("list", type: .list(.scalar("Int")), errorHandling: FieldErrorHandling(required: .throw))])
    ]
    let __data: DataDict
    init(_dataDict: DataDict) { __data = _dataDict }
}
