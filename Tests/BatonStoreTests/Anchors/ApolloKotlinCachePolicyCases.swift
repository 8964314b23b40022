import BatonAPI
import BatonStore
import Testing

// Cases of Apollo Kotlin's normalized cache (apollographql/apollo-kotlin-normalized-cache), as
// facts about Baton:
//   tests/normalized-cache/src/commonTest/kotlin/declarativecache/DeclarativeCacheTest.kt
//   tests/pagination/src/commonTest/kotlin/EmbedTest.kt (a hero whose friends are embedded)
// Their schema extension declares `@typePolicy(keyFields:)` on Book and Author and
// `@fieldPolicy(forField:, keyArgs:)` on Query; here the same declarations reach the store the
// way generated code gives them, through `SchemaMetadata.cacheDirectives`, with no resolver code.

/// The library schema of Apollo Kotlin's declarative cache tests, as generated metadata: Book
/// keyed by `isbn`, Author by `firstName lastName`, `Query.book`/`books`/`author` with key
/// arguments, Hero's `friends` embedded.
enum LibrarySchema {
    static let metadata = SchemaMetadata(
        objectTypes: ["Query", "Book", "Author", "Hero", "Friend", "Library"],
        interfaces: ["Node": ["Library", "Book"]],
        keyFields: ["Book": ["isbn"], "Author": ["firstName", "lastName"]],
        cacheDirectives: CacheDirectives(
            embeddedFields: ["Hero": ["friends"]],
            keyArgs: ["Query": ["book": ["isbn"], "books": ["isbns"], "author": ["firstName", "lastName"], "node": ["id"]]]))

    static let cacheKeys = CacheKeyConfiguration(schema: metadata)

    static let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))
    static let book: [Selection] = [typename, .field("isbn", type: .nonNull(.scalar("String"))), .field("title", type: .scalar("String"))]
    static let author: [Selection] = [
        typename, .field("firstName", type: .nonNull(.scalar("String"))), .field("lastName", type: .nonNull(.scalar("String"))),
    ]

    static func descriptor(_ name: String, _ selections: [Selection], variables: JSONObject = [:]) -> OperationDescriptor {
        OperationDescriptor(name: name, selections: selections, variables: variables, rootType: "Query", cacheKeys: cacheKeys)
    }

    /// `query GetPromoBook { promoBook { __typename isbn title } }`
    static let promoBook = descriptor("GetPromoBook", [.field("promoBook", type: .object("Book"), selections: book)])
    /// `query GetOtherBook { otherBook { __typename isbn title } }`
    static let otherBook = descriptor("GetOtherBook", [.field("otherBook", type: .object("Book"), selections: book)])
    /// `query GetBook($isbn: String!) { book(isbn: $isbn) { __typename isbn title } }`
    static func book(isbn: String) -> OperationDescriptor {
        descriptor(
            "GetBook", [.field("book", type: .object("Book"), arguments: ["isbn": .variable("isbn")], selections: book)],
            variables: ["isbn": .string(isbn)])
    }
    /// `query GetBooks($isbns: [String!]!) { books(isbns: $isbns) { __typename isbn title } }`
    static func books(isbns: [String]) -> OperationDescriptor {
        descriptor(
            "GetBooks",
            [.field("books", type: .nonNull(.list(.nonNull(.object("Book")))), arguments: ["isbns": .variable("isbns")], selections: book)],
            variables: ["isbns": .list(isbns.map(JSONValue.string))])
    }
    /// `query GetPromoAuthor { promoAuthor { __typename firstName lastName } }`
    static let promoAuthor = descriptor("GetPromoAuthor", [.field("promoAuthor", type: .object("Author"), selections: author)])
    /// `query GetAuthor($firstName: String!, $lastName: String!) { author(firstName: $firstName, lastName: $lastName) { … } }`
    static func author(firstName: String, lastName: String) -> OperationDescriptor {
        descriptor(
            "GetAuthor",
            [
                .field(
                    "author", type: .object("Author"), arguments: ["firstName": .variable("firstName"), "lastName": .variable("lastName")],
                    selections: author)
            ], variables: ["firstName": .string(firstName), "lastName": .string(lastName)])
    }

    static func bookData(_ isbn: String, _ title: String) -> JSONValue {
        ["__typename": "Book", "isbn": .string(isbn), "title": .string(title)]
    }
}

@Suite("Apollo Kotlin cache policy cases")
struct ApolloKotlinCachePolicyCases {
    typealias Library = LibrarySchema

    /// DeclarativeCacheTest.typePolicyIsWorking: a book written at one path and overwritten
    /// through another is one record (`Book:42`, from `@typePolicy(keyFields: "isbn")`).
    @Test func typePolicyIsWorking() {
        let store = Store()
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: Library.promoBook)
        store.publish(data: ["otherBook": Library.bookData("42", "Other")], for: Library.otherBook)
        #expect(store.read(Library.promoBook).data?["promoBook"]?["title"] == "Other")
        #expect(store.snapshot()["Book:42"] != nil)
    }

    /// DeclarativeCacheTest.fieldPolicyIsWorking: `book(isbn: "42")`, never fetched, reads
    /// `Book:42`; `author(firstName:, lastName:)` reads `Author:Pierre+Bordage` (two key arguments).
    @Test func fieldPolicyIsWorking() {
        let store = Store()
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: Library.promoBook)
        let book = store.read(Library.book(isbn: "42"))
        #expect(!book.isMissing)
        #expect(book.data?["book"]?["title"] == "Promo")
        #expect(book.seenIDs.contains("Book:42"))
        #expect(store.load(Library.book(isbn: "42")).availability == .available)

        store.publish(
            data: ["promoAuthor": ["__typename": "Author", "firstName": "Pierre", "lastName": "Bordage"]], for: Library.promoAuthor)
        let author = store.read(Library.author(firstName: "Pierre", lastName: "Bordage"))
        #expect(!author.isMissing)
        #expect(author.data?["author"]?["firstName"] == "Pierre")
        #expect(author.seenIDs.contains("Author:Pierre+Bordage"))
    }

    /// DeclarativeCacheTest.fieldPolicyWithLists: `books(isbns: ["42", "43"])` reads `Book:42`
    /// and `Book:43`, in the order of the argument.
    @Test func fieldPolicyWithLists() {
        let store = Store()
        store.publish(data: ["promoBook": Library.bookData("42", "Promo")], for: Library.promoBook)
        store.publish(data: ["otherBook": Library.bookData("43", "Other Book")], for: Library.otherBook)
        let books = store.read(Library.books(isbns: ["43", "42"]))
        #expect(!books.isMissing)
        #expect(books.data?["books"] == [Library.bookData("43", "Other Book"), Library.bookData("42", "Promo")])
    }

    /// DeclarativeCacheTest.fieldPolicyWithListsWrongCountHit: the server answered
    /// `books(isbns: ["42", "43"])` with one book; the field as stored is what a read gives.
    @Test func fieldPolicyWithListsWrongCountHit() {
        let store = Store()
        store.publish(data: ["books": [Library.bookData("42", "Promo")]], for: Library.books(isbns: ["42", "43"]))
        let books = store.read(Library.books(isbns: ["42", "43"]))
        #expect(!books.isMissing)
        #expect(books.data?["books"] == [Library.bookData("42", "Promo")])
    }

    /// DeclarativeCacheTest.fieldPolicyWithListsWrongCountMiss: `books(isbns: ["42", "44"])`
    /// with no `Book:44` is a miss at `books.1`.
    @Test func fieldPolicyWithListsWrongCountMiss() {
        let store = Store()
        store.publish(data: ["books": [Library.bookData("42", "Promo")]], for: Library.books(isbns: ["42", "43"]))
        let books = store.read(Library.books(isbns: ["42", "44"]), collectsMissingPaths: true)
        #expect(books.isMissing)
        #expect(books.missingPaths == [ResponsePath([.key("books"), .index(1)])])
        #expect(store.load(Library.books(isbns: ["42", "44"])).availability == .missing)
    }

    /// EmbedTest: a hero whose `friends` are embedded is two records (the root and the hero),
    /// its friends inside the hero's record, and reads back as it came.
    @Test func embedTest() throws {
        let query = Library.descriptor(
            "GetHero",
            [
                .field(
                    "hero", type: .object("Hero"),
                    selections: [
                        Library.typename, .field("id", type: .nonNull(.scalar("ID"))),
                        .field("friends", type: .list(.object("Friend")), selections: [Library.typename, .field("name", type: .scalar("String"))]),
                    ])
            ])
        let data: JSONObject = [
            "hero": [
                "__typename": "Hero", "id": "1",
                "friends": [["__typename": "Friend", "name": "Luke"], ["__typename": "Friend", "name": "Leia"]],
            ]
        ]
        let store = Store()
        store.publish(data: data, for: query)
        let records = store.snapshot()
        #expect(Set(records.ids) == [.rootID, "Hero:1"])
        let friends = try #require(records["Hero:1"]?["friends"])
        #expect(
            friends
                == .list([
                    .embedded(typename: "Friend", fields: ["name": .scalar("Luke")]),
                    .embedded(typename: "Friend", fields: ["name": .scalar("Leia")]),
                ]))
        let read = store.read(query)
        #expect(!read.isMissing)
        #expect(read.data == data)
        #expect(read.seenIDs == [.rootID, "Hero:1"])
    }
}
