@testable import Baton
import BatonExampleAPI
import BatonStore
import Foundation
import Testing

/// The client's reader of a whole response body (``ParsedResponseBody/reader``) reads only the
/// response to the operation it was made for: a request an interceptor sends meanwhile (another
/// operation, a token's refresh) is parsed alone, and its response carries no payload prepared
/// for the client's operation.
@Suite("The client's reader of a response body")
struct BodyReaderTests {
    static let heroBody = Data(
        #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","friends":[{"__typename":"Human","name":"Luke"}]}}}"#.utf8)

    @Test func theResponseToItsOperationIsReadFromItsBytes() throws {
        let reader = BodyReader(store: Store(), operation: HeroRecordIDQuery())
        let parsed = try ParsedResponseBody.$reader.withValue(reader) {
            try ParsedResponseBody.parse(Self.heroBody, operationName: HeroRecordIDQuery.operationName)
        }
        #expect(parsed.prepared?.readFromBytes == true)
        #expect(parsed.value["data"]?["hero"]?["name"] == "R2-D2")
    }

    @Test func theResponseToAnotherOperationIsParsedAlone() throws {
        let reader = BodyReader(store: Store(), operation: HeroRecordIDQuery())
        let parsed = try ParsedResponseBody.$reader.withValue(reader) {
            try ParsedResponseBody.parse(Self.heroBody, operationName: PostsQuery.operationName)
        }
        #expect(parsed.prepared == nil)
        #expect(parsed.value == (try JSONValue(parsing: Self.heroBody)))
    }
}
