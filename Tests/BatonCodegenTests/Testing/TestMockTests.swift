import BatonAPI
import BatonTesting
import Testing
import BatonTestSupport

/// The golden schema's generated mocks (`Golden/Generated/TestMocks`, compiled into this target):
/// any operation's or fragment's data built from them, type cases and fragments included.
@Suite("Test mocks", .ownThread)
struct TestMockTests {
    static let book = Mock<Book>(
        author: Mock<Author>(name: "Ada"), id: "b1", isbn: "978-0", kind: .case(.book),
        publishedAt: GoldenDate(year: 2024, month: 6, day: 10), tags: ["lang"], title: "Swift")

    @Test func operationDataIsBuiltFromMocksThroughTypeCasesAndFragments() throws {
        let query = Mock<Query>(search: [Self.book, Mock<Magazine>(issue: 7, title: "Monthly"), Mock<Author>(name: "Ada")])
        let variables = SearchQuery(term: "s", withAuthors: true, skipTags: false).variablesJSON
        let data = try SearchQuery.Data.from(query, variables: variables)
        #expect(data.results.map(\.__typename) == ["Book", "Magazine", "Author"])
        let book = try #require(data.results[0].asBook)
        #expect(book.tags == ["lang"])
        #expect(book.publishedAt == GoldenDate(year: 2024, month: 6, day: 10))
        #expect(book.fragments.bookDetails.author?.name == "Ada")
        #expect(data.results[0].asPublication?.title == "Swift")
        let magazine = try #require(data.results[1].asMagazine)
        #expect(magazine.number == 7)
        #expect(magazine.publishedAt == nil)  // unset and nullable: null
        #expect(data.results[2].asAuthorIfWithAuthors?.name == "Ada")
        // The same data as a server would send: it equals the initializers' (see SelectionSetInitializerTests).
        #expect(data == SelectionSetInitializerTests.searchData())
    }

    @Test func conditionsFollowTheVariables() throws {
        let query = Mock<Query>(search: [Self.book, Mock<Author>(name: "Ada")])
        let data = try SearchQuery.Data.from(query, variables: SearchQuery(term: "s", skipTags: true).variablesJSON)
        #expect(data.results[0].asBook?.tags == nil)
        #expect(data.results[1].asAuthorIfWithAuthors == nil)
        #expect(data.results[1].jsonObject["name"] == nil)
    }

    @Test func fragmentsAndNestedListsBuildFromMocks() throws {
        let details = try BookDetails.from(Self.book)
        #expect(details.fragments.publicationSummary.title == "Swift")
        var shelf = Mock<Shelf>(id: "1")
        shelf.grid = [[Mock<Book>(kind: .case(.magazine), title: "A"), nil], nil]
        let data = try ShelfQuery.Data.from(Mock<Query>(matrix: [[1], nil], shelf: shelf))
        #expect(data.shelf?.__id == "Shelf:1")
        #expect(data.shelf?.label == nil)
        #expect(data.shelf?.grid?[0]?[0]?.kind == .magazine)
        #expect(data.shelf?.grid?[0]?[1] == nil)
        #expect(data.matrix == [[1], nil])
    }

    @Test func mocksAreValuesWithSettableFields() {
        var book = Mock<Book>()
        #expect(book.title == nil)
        book.title = "Swift"
        var copy = book
        copy.title = "Copy"
        #expect(book.title == "Swift")
        #expect(copy.title == "Copy")
        book.title = nil
        #expect(book._value(forField: "title") == nil)
        #expect(book.__typename == "Book")
    }

    @Test func missingAndMistypedValuesAreErrorsWithThePath() {
        let missing = #expect(throws: MockDataError.self) {
            try SearchQuery.Data.from(Mock<Query>(search: [Mock<Magazine>(title: "Monthly")]), variables: ["skipTags": false])
        }
        #expect(missing?.description == "results[0].issue: the mock sets no value for this non-null Int! field")
        var magazine = Mock<Magazine>(issue: 1)
        magazine._setValue(42, forField: "title")
        let mistyped = #expect(throws: MockDataError.self) {
            try SearchQuery.Data.from(Mock<Query>(search: [magazine]), variables: ["skipTags": false])
        }
        #expect(mistyped?.description == "results[0].title: expected String, found Int 42")
        let wrongRoot = #expect(throws: MockDataError.self) { try SearchQuery.Data.from(Self.book) }
        #expect(wrongRoot?.description == "a mock of type Book cannot be a Query")
    }
}
