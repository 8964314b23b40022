import BatonAPI
import BatonStore
import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Generated initializers (the golden output has them for every selection set): data built in
/// Swift satisfies the selections, reads back through fragments and type cases, and survives a
/// trip through the store as an optimistic response.
@Suite("Selection-set initializers", .ownThread)
struct SelectionSetInitializerTests {
    typealias Result = SearchQuery.Data.Result

    static let book = Result.AsBook(
        id: "b1", isbn: "978-0", title: "Swift", publishedAt: GoldenDate(year: 2024, month: 6, day: 10),
        author: BookDetails.Author(name: "Ada"), tags: ["lang"])

    static func searchData() -> SearchQuery.Data {
        SearchQuery.Data(results: [
            book.asRootEntityType,
            Result.AsMagazine(title: "Monthly", issue: 7, number: 7).asRootEntityType,
            Result.AsAuthorIfWithAuthors(name: "Ada").asRootEntityType,
        ])
    }

    @Test func initializerDataSatisfiesTheSelectionsAndReadsBackThroughTypeCases() throws {
        let data = Self.searchData()
        let query = SearchQuery(term: "s", withAuthors: true, skipTags: false)
        // The validation plan of the selections accepts it, as it accepts a server's response.
        let checked = try SearchQuery.Data(jsonObject: data.jsonObject, variables: query.variablesJSON)
        #expect(checked == data)
        #expect(data.results.map(\.__typename) == ["Book", "Magazine", "Author"])
        let book = try #require(data.results[0].asBook)
        #expect(book.fragments.bookDetails.fragments.publicationSummary.title == "Swift")
        #expect(book.publishedAt == GoldenDate(year: 2024, month: 6, day: 10))
        #expect(data.results[0].fragments.bookDetails?.author?.name == "Ada")
        #expect(data.results[0].asPublication?.title == "Swift")
        #expect(data.results[1].asMagazine?.number == 7)
        #expect(data.results[1].asMagazine?.publishedAt == nil)
        #expect(data.results[2].asAuthorIfWithAuthors?.name == "Ada")
        #expect(data.results[2].asPublication == nil)
    }

    @Test func conditionalFieldsLeftOutAreAbsentAndNullableOnesNull() throws {
        let book = Result.AsBook(id: "b2", isbn: "978-1", title: "Untagged")
        #expect(book.jsonObject["tags"] == nil)  // `@skip(if: $skipTags)`: absent
        #expect(book.jsonObject["publishedAt"] == .null)  // nullable: null
        #expect(book.jsonObject["__typename"] == "Book")
        let data = SearchQuery.Data(results: [book.asRootEntityType])
        _ = try SearchQuery.Data(jsonObject: data.jsonObject, variables: SearchQuery(term: "s", skipTags: true).variablesJSON)
        // With the condition holding, the missing field is what validation reports.
        #expect(throws: SelectionSetDecodingError.self) {
            try SearchQuery.Data(jsonObject: data.jsonObject, variables: SearchQuery(term: "s", skipTags: false).variablesJSON)
        }
    }

    @Test func abstractTypesTakeTheirTypename() throws {
        let publication = Result.AsPublication(__typename: "Magazine", title: "Quarterly")
        #expect(publication.__typename == "Magazine")
        let result = Result(__typename: "Magazine")
        #expect(result.asBook == nil)
        // The field's own struct does not have the type case's fields: a Magazine needs `issue`,
        // so build it as `AsMagazine(…).asRootEntityType`.
        let error = #expect(throws: SelectionSetDecodingError.self) {
            try SearchQuery.Data(jsonObject: SearchQuery.Data(results: [result]).jsonObject, variables: ["skipTags": false])
        }
        #expect(error?.description.hasPrefix("results[0].") == true)
    }

    @Test func fragmentsAndNestedSelectionSetsHaveInitializers() throws {
        let details = BookDetails(id: "b1", isbn: "978-0", title: "Swift", author: BookDetails.Author(name: "Ada"))
        #expect(try BookDetails(jsonObject: details.jsonObject) == details)
        #expect(details.fragments.publicationSummary.publishedAt == nil)
        // A fragment's data becomes a spreading struct's, checked against its selections.
        let result = try Result(jsonObject: details.jsonObject)
        #expect(result.fragments.bookDetails?.isbn == "978-0")
        #expect(result.asBook?.tags == nil)
        let shelf = ShelfQuery.Data(
            shelf: ShelfQuery.Data.Shelf(
                __id: "Shelf:1", id: "1", label: nil,
                grid: [[ShelfQuery.Data.Shelf.Grid(title: "A", kind: .case(.book)), nil], nil]),
            matrix: [[1, 2], nil])
        let checked = try ShelfQuery.Data(jsonObject: shelf.jsonObject)
        #expect(checked.shelf?.grid?[0]?[0]?.kind == .book)
        #expect(checked.matrix == [[1, 2], nil])
    }

    @Test func initializerDataWrittenAsAnOptimisticResponseReadsBackEqual() throws {
        let store = Store()
        let query = SearchQuery(term: "s", withAuthors: true, skipTags: false)
        let data = Self.searchData()
        let update = store.applyOptimisticUpdate(data: data.jsonObject, for: OperationDescriptor(operation: query))
        #expect(try store.read(query: query) == data)
        store.revertOptimisticUpdate(update)
        #expect(throws: CacheMissError.self) { try store.read(query: query) }
    }

    @Test func configurationReadsBooleansAndObjects() throws {
        func parse(_ text: String) throws -> CodegenConfiguration {
            try CodegenConfiguration.parse(text, path: "/tmp/app/baton.json")
        }
        #expect(try parse(#"{"schema": "s.graphqls", "selectionSetInitializers": true}"#).selectionSetInitializers == .all)
        let chosen = try parse(#"{"schema": "s.graphqls", "selectionSetInitializers": {"namedFragments": true, "definitionsNamed": ["HeroQuery"]}}"#)
        #expect(chosen.selectionSetInitializers == SelectionSetInitializers(namedFragments: true, definitionsNamed: ["HeroQuery"]))
        #expect(chosen.selectionSetInitializers.includesOperation(named: "Hero", typeName: "HeroQuery"))
        #expect(!chosen.selectionSetInitializers.includesOperation(named: "Other", typeName: "OtherQuery"))
        let mocks = try parse(#"{"schema": "s.graphqls", "testMocks": {"output": "../Mocks", "apiModule": "AppAPI"}}"#)
        #expect(mocks.testMocks == TestMocksConfiguration(outputDirectory: "/tmp/app/../Mocks", apiModule: "AppAPI"))
        #expect(try parse(#"{"schema": "s.graphqls"}"#).testMocks == nil)
    }

    @Test func badConfigurationsAreLocatedErrors() {
        func error(_ text: String) -> String {
            do {
                _ = try CodegenConfiguration.parse(text, path: "baton.json")
                return "(no error)"
            } catch {
                return error.description
            }
        }
        #expect(error(#"{"schema": "s", "selectionSetInitializers": "yes"}"#).hasPrefix("baton.json:1:45: error: \"selectionSetInitializers\" must be true"))
        #expect(error(#"{"schema": "s", "selectionSetInitializers": {"operation": true}}"#).contains("unknown key \"selectionSetInitializers.operation\""))
        #expect(error(#"{"schema": "s", "selectionSetInitializers": {"definitionsNamed": [1]}}"#).contains("must hold strings, not a number"))
        #expect(error(#"{"schema": "s", "testMocks": {"apiModule": "A"}}"#).contains("\"testMocks\" needs \"output\""))
        #expect(error(#"{"schema": "s", "testMocks": "Mocks"}"#).contains("\"testMocks\" must be an object"))
    }

    @Test func onlyChosenDefinitionsGetInitializers() throws {
        let schema = try SchemaLoader.load(paths: [TestPaths.golden.appendingPathComponent("schema.graphqls").path])
        let sources = try DocumentCollector.collect(globs: [TestPaths.golden.path + "/*.graphql"])
        var options = GenerationOptions(namespace: "GoldenAPI")
        options.selectionSetInitializers = SelectionSetInitializers(definitionsNamed: ["Shelf", "PublicationSummary"])
        let output = try CodeGenerator.generate(schema: schema, sources: sources, options: options)
        func hasInitializer(_ path: String) -> Bool {
            output.files.first { $0.relativePath == path }?.contents.contains("/// Data for these selections") ?? false
        }
        #expect(hasInitializer("Operations/ShelfQuery.swift"))
        #expect(hasInitializer("Fragments/PublicationSummary.swift"))
        #expect(!hasInitializer("Operations/SearchQuery.swift"))
        #expect(!hasInitializer("Fragments/BookDetails.swift"))
        #expect(output.testMockFiles.isEmpty)
    }
}
