import BatonAPI
import BatonExampleAPI
import BatonExampleMocks
import BatonTesting
import Foundation
import Testing

@testable import Baton

/// An app's operation may select the query root's introspection fields, `__schema` and
/// `__type(name:)` (GraphQL spec, "Schema Introspection"): they are typed like any other field,
/// answered by the server and kept in the cache. (A real app's admin screen did this, and
/// generation failed: no field "__schema" on type "Query".)
@Suite("Introspection fields in an app's operations")
struct IntrospectionOperationTests {
    @Test func schemaAndTypeFieldsAreFetchedTypedAndCached() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let schema = try await client.fetch(query: SchemaTypesQuery(), cachePolicy: .networkOnly)
            #expect(schema.errors == nil)
            let data = try #require(schema.data)
            #expect(data.__schema.queryType.name == "Query")
            let todo = try #require(data.__schema.types.first { $0.name == "Todo" })
            #expect(todo.kind == .object)
            #expect(data.__schema.types.contains { $0.name == "String" && $0.kind == .scalar })

            let type = try await client.fetch(query: TypeFieldsQuery(name: "Todo"), cachePolicy: .networkOnly)
            let fields = try #require(type.data?.__type?.fields)
            #expect(type.data?.__type?.kind == .object)
            let id = try #require(fields.first { $0.name == "id" })
            #expect(id.type.kind == .nonNull)
            #expect(id.type.ofType?.name == "ID")

            // Both are answered from the cache now, the same.
            let cached = try await client.fetch(query: SchemaTypesQuery(), cachePolicy: .returnCacheDataDontFetch)
            #expect(cached.data?.__schema.types.map(\.name) == data.__schema.types.map(\.name))
            let cachedType = try await client.fetch(query: TypeFieldsQuery(name: "Todo"), cachePolicy: .returnCacheDataDontFetch)
            #expect(cachedType.data?.__type?.fields?.map(\.name) == fields.map(\.name))
            // Another type's fields are another cache entry.
            await #expect(throws: (any Error).self) {
                _ = try await client.fetch(query: TypeFieldsQuery(name: "User"), cachePolicy: .returnCacheDataDontFetch)
            }
        }
    }

    /// Test mocks set them like any other field.
    @Test func mocksSetTheIntrospectionFields() throws {
        let data = try SchemaTypesQuery.Data.from(
            Mock<Query>(
                __schema: Mock<__Schema>(
                    queryType: Mock<__Type>(name: "Query"),
                    types: [Mock<__Type>(kind: .object, name: "Todo"), Mock<__Type>(kind: .scalar, name: "String")])))
        #expect(data.__schema.queryType.name == "Query")
        #expect(data.__schema.types.map(\.name) == ["Todo", "String"])
        #expect(data.__schema.types.map(\.kind) == [.object, .scalar])
    }
}
