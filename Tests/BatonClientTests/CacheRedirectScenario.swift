import Baton
import BatonTesting
import Foundation
import Testing

/// What `baton generate` writes for the schema
/// `type Query { book(id: ID!): Book  books: [Book!]! }  type Book { id: ID!  title: String  author: Author }
/// type Author { name: String }` with the schema extension
/// ```graphql
/// extend schema @link(url: "https://specs.apollo.dev/cache/v0.1", import: ["@typePolicy", "@fieldPolicy"])
/// extend type Book @typePolicy(keyFields: "id", embeddedFields: "author")
/// extend type Query @fieldPolicy(forField: "book", keyArgs: "id")
/// ```
/// (the generator's `SchemaMetadataRenderer` output, by hand; `ApolloCacheDirectiveTests` checks
/// that the generator writes this text): the directives reach the store through the generated
/// metadata, with no client configuration.
enum LibraryAPI {
    static let schema = SchemaMetadata(
        objectTypes: ["Author", "Book", "Query"], interfaces: [:], unions: [:], keyFields: ["Book": ["id"]], globalIDInterface: nil,
        cacheDirectives: CacheDirectives(
            embeddedFields: ["Book": ["author"]] as [Swift.String: Swift.Set<Swift.String>],
            keyArgs: ["Query": ["book": ["id"]]] as [Swift.String: [Swift.String: [Swift.String]]]))

    /// `__typename id title author { name }` on Book.
    struct Book: SelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        static let __parentType = TypeCondition("Book")
        static var __schema: SchemaMetadata? { LibraryAPI.schema }
        static let __selections: [Selection] = [
            .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
            .field("title", type: .scalar("String")), .field("author", type: .object("Author"), selections: Author.__selections),
        ]
        var title: String? { __data["title"] }
        var author: Author? { __data["author"] }

        struct Author: SelectionSet {
            let __data: DataDict
            init(_dataDict: DataDict) { __data = _dataDict }
            static let __parentType = TypeCondition("Author")
            static var __schema: SchemaMetadata? { LibraryAPI.schema }
            static let __selections: [Selection] = [.field("__typename", type: .nonNull(.scalar("String"))), .field("name", type: .scalar("String"))]
            var name: String? { __data["name"] }
        }
    }
}

/// `query Books { books { __typename id title author { __typename name } } }`
struct BooksQuery: GraphQLQuery {
    static let operationName = "Books"
    static let operationDocument = "query Books { books { __typename id title author { __typename name } } }"
    static let operationIdentifier = "books"

    struct Data: RootSelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        static let __parentType = TypeCondition("Query")
        static var __schema: SchemaMetadata? { LibraryAPI.schema }
        static let __selections: [Selection] = [
            .field("books", type: .nonNull(.list(.nonNull(.object("Book")))), selections: LibraryAPI.Book.__selections)
        ]
        var books: [LibraryAPI.Book] { __data["books"] }
    }
}

/// `query Book($id: ID!) { book(id: $id) { __typename id title author { __typename name } } }`
struct BookQuery: GraphQLQuery {
    static let operationName = "Book"
    static let operationDocument = "query Book($id: ID!) { book(id: $id) { __typename id title author { __typename name } } }"
    static let operationIdentifier = "book"

    let id: String
    var variables: GraphQLVariables? { ["id": id] }

    struct Data: RootSelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        static let __parentType = TypeCondition("Query")
        static var __schema: SchemaMetadata? { LibraryAPI.schema }
        static let __selections: [Selection] = [
            .field("book", type: .object("Book"), arguments: ["id": .variable("id")], selections: LibraryAPI.Book.__selections)
        ]
        var book: LibraryAPI.Book? { __data["book"] }
    }
}

/// Apollo Kotlin's and Apollo iOS's `@fieldPolicy` cache redirects and `@typePolicy` embedded
/// fields, from generated metadata to cache policies.
@Suite("Scenario: cache redirects and embedded fields from the schema's directives")
struct CacheRedirectScenario {
    static let books: JSONObject = [
        "data": [
            "books": [
                ["__typename": "Book", "id": "1", "title": "Dune", "author": ["__typename": "Author", "name": "Frank Herbert"]],
                ["__typename": "Book", "id": "2", "title": "Emma", "author": ["__typename": "Author", "name": "Jane Austen"]],
            ]
        ]
    ]

    /// `book(id: 1)` after the list: answered from `Book:1` under `.returnCacheDataElseFetch`,
    /// and nothing is sent. The author came embedded in the book's record.
    @Test func aBookTheListBroughtIsReadWithoutAFetch() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.books, for: BooksQuery.self)
        _ = try await scenario.client.fetch(query: BooksQuery())
        #expect(scenario.client.store.snapshot()["Book:1"]?["author"] == .embedded(typename: "Author", fields: ["name": .scalar("Frank Herbert")]))

        let book = try await scenario.client.fetch(query: BookQuery(id: "1"), cachePolicy: .returnCacheDataElseFetch)
        #expect(book.source == .cache)
        #expect(book.data?.book?.title == "Dune")
        #expect(book.data?.book?.author?.name == "Frank Herbert")
        #expect(scenario.transport.requests.count == 1)
    }

    /// A book the cache does not hold is fetched, and its response written as usual.
    @Test func aBookTheCacheLacksIsFetched() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.books, for: BooksQuery.self)
        _ = try await scenario.client.fetch(query: BooksQuery())
        scenario.transport.enqueue(
            body: ["data": ["book": ["__typename": "Book", "id": "3", "title": "Ulysses", "author": nil]]], for: BookQuery.self)
        let book = try await scenario.client.fetch(query: BookQuery(id: "3"), cachePolicy: .returnCacheDataElseFetch)
        #expect(book.source == .server)
        #expect(book.data?.book?.title == "Ulysses")
        #expect(scenario.transport.requests.count == 2)
        #expect(try await scenario.client.fetch(query: BookQuery(id: "3"), cachePolicy: .returnCacheDataDontFetch).data?.book?.title == "Ulysses")
    }
}
