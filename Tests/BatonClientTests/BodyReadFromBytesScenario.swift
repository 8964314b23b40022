import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Foundation
import Testing

/// The client's receive of a whole HTTP response (issue 26): the transport's reading of the body
/// is the store's executor walking its bytes, so the receive does not parse and then execute.
/// What the client gives (typed data, records, errors) is what it gave when it parsed first.
@Suite("Scenario: a response's data read from its bytes")
struct BodyReadFromBytesScenario {
    /// The records and typed data a receive made, and whether it read the body from its bytes.
    static func receive<Query: GraphQLQuery>(
        _ query: Query, _ body: Data
    ) async throws -> (records: RecordSource, result: GraphQLResult<Query.Data>, fromBytes: Bool) {
        let canned = CannedClient()
        let result = try await canned.fetch(query, answering: body)
        return (canned.store.snapshot(), result, canned.client.responsesReadFromBytes == 1)
    }

    /// The records a publish of the parsed body gives.
    static func parsedAndPublished<Query: GraphQLQuery>(_ query: Query, _ body: Data) throws -> RecordSource {
        let store = Store()
        let root = try JSONValue(parsing: body)
        let errors = root["errors"]?.listValue?.map(GraphQLError.init(json:)) ?? []
        let prepared = try store.prepare(data: root["data"]!.objectValue!, for: OperationDescriptor(operation: query), errors: errors)
        store.publish(prepared, fetched: true)
        return store.snapshot()
    }

    // The walk over the bytes remembers, per operation and thread, a body it left to the tree's
    // walk (it then parses first for the next few): the irregular bodies below are answers to
    // `PostsQuery`, so that they change nothing for `HeroRecordIDQuery`'s regular ones.

    @Test func aRegularResponseIsReadFromItsBytesWithTheRecordsOfAParsedOne() async throws {
        let body = heroBytes()
        let received = try await Self.receive(HeroRecordIDQuery(), body)
        #expect(received.fromBytes)
        #expect(received.records == (try Self.parsedAndPublished(HeroRecordIDQuery(), body)))
        #expect(received.result.data?.hero?.name == "R2-D2")
        #expect(received.result.data?.hero?.friends?.first??.name == "Luke Skywalker")
        // `__id` filled in from the walk, as the store reads it.
        #expect(received.result.data?.hero?.__id == droid.rawValue)
    }

    @Test func aResponseWithAFieldErrorAtAPathIsReadAsATreeWithTheSameRecords() async throws {
        let body = heroBytes(errors: true)
        let received = try await Self.receive(HeroRecordIDQuery(), body)
        #expect(!received.fromBytes)
        #expect(received.records == (try Self.parsedAndPublished(HeroRecordIDQuery(), body)))
        #expect(received.result.errors?.first?.message == "friends are late")
        #expect(received.result.extensions?["cost"] == 3)
    }

    @Test func keysInAnotherOrderGiveTheSameResult() async throws {
        // `title` before `__typename` and `id`: the tree's walk takes it.
        let body = Data(
            #"{"data":{"posts":[{"title":"A","__typename":"Post","id":1,"votes":3,"author":{"__typename":"Author","id":2,"firstName":"Ada","lastName":"L"}}]}}"#
                .utf8)
        let received = try await Self.receive(PostsQuery(), body)
        #expect(!received.fromBytes)
        #expect(received.records == (try Self.parsedAndPublished(PostsQuery(), body)))
        #expect(received.result.data?.posts.first?.title == "A")
    }

    @Test func aMismatchIsTheSameTypedErrorWithItsPath() async throws {
        let body = Data(
            #"{"data":{"posts":[{"__typename":"Post","id":1,"title":"A","votes":"many","author":{"__typename":"Author","id":2,"firstName":"Ada","lastName":"L"}}]}}"#
                .utf8)
        do {
            _ = try await Self.receive(PostsQuery(), body)
            Issue.record("votes that are a string were accepted")
        } catch BatonError.dataMismatch(_, let error) {
            #expect(error.path.description == "posts[0].votes")
        }
    }

    @Test func aBodyThatIsNotJSONIsStillAMalformedResponse() async throws {
        do {
            _ = try await Self.receive(PostsQuery(), Data(#"{"data":{"posts":[]}"#.utf8))
            Issue.record("a body cut short was accepted")
        } catch BatonError.malformedResponse {}
    }
}
