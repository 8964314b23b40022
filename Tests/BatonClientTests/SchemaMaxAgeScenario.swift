import Baton
import BatonTesting
import Foundation
import Testing

/// What `baton generate` writes for `query CachedUser { user { __typename id name email } }`
/// against a schema with `type User @cacheControl(maxAge: 30)
/// @cacheControlField(name: "email", maxAge: 5)` (the generator's `SchemaMetadataRenderer` output,
/// by hand): the schema's max ages reach the store through the generated metadata, with no
/// client configuration.
struct CachedUserQuery: GraphQLQuery {
    static let operationName = "CachedUser"
    static let operationDocument = "query CachedUser { user { __typename id name email } }"
    static let operationIdentifier = "cached-user"

    static let schema = SchemaMetadata(
        objectTypes: ["Query", "User"],
        cacheDirectives: CacheDirectives(typeMaxAge: ["User": 30], fieldMaxAge: ["User": ["email": 5]]))

    struct Data: RootSelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        static let __parentType = TypeCondition("Query")
        static var __schema: SchemaMetadata? { CachedUserQuery.schema }
        static let __selections: [Selection] = [.field("user", type: .object("User"), selections: User.__selections)]
        var user: User? { __data["user"] }

        struct User: SelectionSet {
            let __data: DataDict
            init(_dataDict: DataDict) { __data = _dataDict }
            static let __parentType = TypeCondition("User")
            static var __schema: SchemaMetadata? { CachedUserQuery.schema }
            static let __selections: [Selection] = [
                .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
                .field("name", type: .scalar("String")), .field("email", type: .scalar("String")),
            ]
            var name: String? { __data["name"] }
            var email: String? { __data["email"] }
        }
    }
}

/// The schema's `@cacheControl` max ages, from generated metadata to cache policies.
@Suite("Scenario: the schema's @cacheControl max ages")
struct SchemaMaxAgeScenario {
    static func response(name: String) -> JSONObject {
        ["data": ["user": ["__typename": "User", "id": "1", "name": .string(name), "email": "ann@example.com"]]]
    }

    @Test func theSchemasMaxAgesDecideWhenAFetchGoesToTheServer() async throws {
        let transport = MockNetworkTransport()
        let clock = ManualFreshnessClock()
        let client = BatonClient(networkTransport: transport, store: Store(clock: clock))
        transport.enqueue(body: Self.response(name: "Ann"), for: CachedUserQuery.self)
        _ = try await client.fetch(query: CachedUserQuery())
        #expect(client.store.read(OperationDescriptor(operation: CachedUserQuery())).staleAt == clock.now.addingTimeInterval(5))

        clock.advance(by: .seconds(4))
        #expect(try await client.fetch(query: CachedUserQuery()).source == .cache)
        clock.advance(by: .seconds(2))  // past User.email's 5 s (the @cacheControlField)
        transport.enqueue(body: Self.response(name: "Ann B."), for: CachedUserQuery.self)
        let refetched = try await client.fetch(query: CachedUserQuery())
        #expect(refetched.source == .server)
        #expect(refetched.data?.user?.name == "Ann B.")
        #expect(transport.requests.count == 2)

        // The client's configuration can turn the schema's directives off.
        let ignoring = BatonClient(
            networkTransport: transport, store: Store(freshness: CacheFreshness(usesSchemaDirectives: false), clock: clock))
        transport.enqueue(body: Self.response(name: "Ann"), for: CachedUserQuery.self)
        _ = try await ignoring.fetch(query: CachedUserQuery())
        clock.advance(by: .seconds(3600))
        #expect(try await ignoring.fetch(query: CachedUserQuery()).source == .cache)
    }
}
