import BatonAPI
import Testing
import BatonTestSupport

/// The golden output (compiled into this target) at work: type conditions on interfaces and
/// unions, nested fragments, aliases, `@include`/`@skip`, lists of lists, custom scalars, enums
/// with unknown values, input objects with nullable and default fields, client directives.
@Suite("Generated code", .ownThread)
struct GeneratedCodeTests {
    static let book: JSONObject = [
        "__typename": "Book", "id": "b1", "isbn": "978-0", "title": "Swift", "publishedAt": "2024-06-10",
        "author": ["__typename": "Author", "name": "Ada"], "tags": ["lang"],
    ]

    @Test func unionMembersReadThroughTypeConditionsAndNestedFragments() throws {
        let json: JSONObject = [
            "results": [
                .object(Self.book),
                ["__typename": "Magazine", "title": "Monthly", "publishedAt": nil, "issue": 7, "number": 7],
                ["__typename": "Author", "name": "Ada"],
            ]
        ]
        let query = SearchQuery(term: "s", withAuthors: true, skipTags: false)
        let data = try SearchQuery.Data(jsonObject: json, variables: query.variablesJSON)
        #expect(data.results.count == 3)
        let book = try #require(data.results[0].asBook)
        #expect(book.title == "Swift")
        #expect(book.publishedAt == GoldenDate(year: 2024, month: 6, day: 10))
        #expect(book.author?.name == "Ada")
        #expect(book.tags == ["lang"])
        #expect(book.fragments.bookDetails.fragments.publicationSummary.title == "Swift")
        #expect(data.results[0].asMagazine == nil)
        #expect(data.results[0].asPublication?.title == "Swift")
        let magazine = try #require(data.results[1].asMagazine)
        #expect(magazine.issue == 7)
        #expect(magazine.number == 7)
        #expect(magazine.publishedAt == nil)
        #expect(data.results[2].asAuthorIfWithAuthors?.name == "Ada")
        // A fragment on a narrower type than the field's is there only for matching objects.
        #expect(data.results[0].fragments.bookDetails?.isbn == "978-0")
        #expect(data.results[1].fragments.bookDetails == nil)
        #expect(data.results[2].fragments.bookDetails == nil)
        #expect(data.results[2].asPublication == nil)
    }

    @Test func skippedAndExcludedSelectionsMayBeAbsent() throws {
        var book = Self.book
        book["tags"] = nil
        let query = SearchQuery(term: "s", skipTags: true)
        #expect(query.variablesJSON == ["term": "s", "withAuthors": false, "skipTags": true])
        let data = try SearchQuery.Data(jsonObject: ["results": [.object(book), ["__typename": "Author"]]], variables: query.variablesJSON)
        #expect(data.results[0].asBook?.tags == nil)
        #expect(data.results[1].asAuthorIfWithAuthors == nil)
    }

    @Test func listsOfListsAndUnknownEnumValues() throws {
        let json: JSONObject = [
            "shelf": [
                "__typename": "Shelf", "__id": "Shelf:1", "id": "1", "label": nil,
                "grid": [[["__typename": "Book", "title": "A", "kind": "BOOK"], nil], nil, [["__typename": "Book", "title": "B", "kind": "AUDIO_BOOK"]]],
            ],
            "matrix": [[1, 2], nil, []],
        ]
        let data = try ShelfQuery.Data(jsonObject: json)
        #expect(data.matrix == [[1, 2], nil, []])
        let shelf = try #require(data.shelf)
        #expect(shelf.__id == "Shelf:1")
        let grid = try #require(shelf.grid)
        #expect(grid.count == 3)
        #expect(grid[0]?[0]?.kind == .book)
        #expect(grid[0]?[1] == nil)
        #expect(grid[1] == nil)
        #expect(grid[2]?[0]?.kind == .unknown("AUDIO_BOOK"))
        #expect(grid[2]?[0]?.kind.value == nil)
        #expect(GoldenAPI.Kind.allCases.map(\.rawValue) == ["BOOK", "MAGAZINE", "PAMPHLET", "E_BOOK"])
        #expect(GoldenAPI.Kind.eBook.rawValue == "E_BOOK")
    }

    @Test func customScalarsDecodeOrFailWithThePath() throws {
        var book = Self.book
        book["publishedAt"] = 20240610
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try BookDetails(jsonObject: book)
        }
        #expect(error?.description == "publishedAt: expected DateTime, found Int 20240610")
        var shelf: JSONObject = ["shelf": nil, "matrix": []]
        #expect(try ShelfQuery.Data(jsonObject: shelf).shelf == nil)
        shelf["matrix"] = [["x"]]
        #expect(throws: SelectionSetDecodingError.self) { try ShelfQuery.Data(jsonObject: shelf) }
        #expect(try BookDetails(jsonObject: Self.book).publishedAt?.year == 2024)
    }

    @Test func variableDefaultsAndInputObjectsWithNullableAndDefaultFields() {
        let books = BooksQuery()
        #expect(books.variablesJSON == ["first": 5, "filter": ["kind": "BOOK", "titleContains": "Swift"]])
        let page = BooksQuery(first: .null, after: "c1", filter: .some(GoldenAPI.BookFilter(publishedAfter: .some(GoldenDate(year: 2020, month: 1, day: 2)))))
        #expect(page.variablesJSON == ["first": nil, "after": "c1", "filter": ["publishedAfter": "2020-01-02"]])

        var input = GoldenAPI.AddBookInput(title: "New")
        #expect(input.variableJSON == ["title": "New"])
        input.kind = .some(.case(.magazine))
        input.tags = .null
        input.authorId = "a1"
        let mutation = AddBookMutation(input: input, connections: ["client:root:__Books_books_connection"])
        #expect(mutation.variablesJSON == [
            "input": ["title": "New", "kind": "MAGAZINE", "tags": nil, "authorId": "a1"],
            "connections": ["client:root:__Books_books_connection"],
        ])
    }

    @Test func clientDirectivesAndArgumentsAreInTheMetadata() throws {
        guard case .field(let books) = BooksQuery.Data.__selections[0] else {
            Issue.record("expected a field")
            return
        }
        #expect(books.directives == [.connection(key: "Books_books", filters: nil)])
        #expect(books.arguments == ["first": .variable("first"), "after": .variable("after"), "filter": .variable("filter")])
        guard case .field(let addBook) = AddBookMutation.Data.__selections[0],
            case .field(let edge) = addBook.selections[1]
        else {
            Issue.record("expected fields")
            return
        }
        #expect(edge.name == "bookEdge")
        #expect(edge.directives == [.appendEdge(connections: .variable("connections"))])
        guard case .field(let remove) = RemoveBookMutation.Data.__selections[0], case .field(let removedId) = remove.selections[1] else {
            Issue.record("expected fields")
            return
        }
        #expect(removedId.directives == [.deleteRecord])
    }

    @Test func schemaMetadataKnowsTypesAndCacheKeys() {
        let metadata = GoldenAPI.schemaMetadata
        #expect(metadata.objectTypes.contains("Book"))
        #expect(metadata.possibleTypes(of: "SearchResult") == ["Book", "Magazine", "Author"])
        #expect(metadata.possibleTypes(of: "Publication") == ["Book", "Magazine"])
        #expect(metadata.possibleTypes(of: "Book") == ["Book"])
        #expect(metadata.keyFields(for: "Book") == ["isbn"])
        #expect(metadata.keyFields(for: "Magazine") == nil)
        #expect(metadata.typeCondition("Node").matches("Shelf"))
    }

    @Test func documentsAndIdentifiers() {
        // `__id` is the store's: the server's document leaves it out, the metadata keeps it.
        #expect(ShelfQuery.operationDocument == "query Shelf($id: ID!) { shelf(id: $id) { __typename id label grid { __typename title kind } } matrix }")
        // Client directives, and the variables only they use, are not sent either.
        #expect(!AddBookMutation.operationDocument.contains("@appendEdge"))
        #expect(!AddBookMutation.operationDocument.contains("$connections"))
        #expect(!BooksQuery.operationDocument.contains("@connection"))
        #expect(!RemoveBookMutation.operationDocument.contains("@deleteRecord"))
        #expect(BookDetails.fragmentDefinition == "fragment BookDetails on Book { __typename id isbn ...PublicationSummary author { __typename name } }")
        #expect(BooksQuery.operationDocument.split(separator: "\n").count == 3)
        #expect(RemoveBookMutation.operationType == .mutation)
    }
}
