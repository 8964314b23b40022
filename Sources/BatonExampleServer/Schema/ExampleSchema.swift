import Foundation
import GraphQL

/// The example server's schema: the SDL resource wired to the resolvers of every part.
enum ExampleSchema {
    /// The SDL text of `Resources/schema.graphqls`.
    static func sdl() throws -> String {
        guard let url = Bundle.module.url(forResource: "schema", withExtension: "graphqls") else {
            throw SchemaWiringError(description: "The resource schema.graphqls is missing from the bundle.")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The executable schema, built once per process.
    static let executable: Result<GraphQLSchema, any Error> = Result { try build() }

    static func build() throws -> GraphQLSchema {
        let document = try parse(source: Source(body: try sdl(), name: "schema.graphqls"))
        let description = document.definitions.lazy.compactMap { ($0 as? SchemaDefinition)?.description?.value }.first
        var resolvers = ResolverTable()
        for part in [
            StarWarsResolvers.table, PostResolvers.table, SpaceTripsResolvers.table, TodoResolvers.table,
            UploadAndCountResolvers.table,
        ] {
            resolvers.merge(part)
        }
        return try wireResolvers(
            into: try buildASTSchema(documentAST: document),
            description: description,
            resolvers: resolvers,
            typename: typename(of:)
        )
    }
}

extension ExampleSchema {
    /// The served schema and the schema built from the SDL resource alone, printed; equal when
    /// every type, field, argument and description of the resource is served.
    static func printedSchemas() throws -> (served: String, resource: String) {
        (printSchema(schema: try executable.get()), printSchema(schema: try buildSchema(source: try sdl())))
    }

    /// Runs a subscription operation against `state`; one JSON response per event.
    ///
    /// HTTP requests do not serve subscriptions; this is what a WebSocket transport will call.
    static func subscribe(
        _ query: String,
        variables: [String: Map] = [:],
        state: ServerState,
        authorization: String? = nil
    ) async throws -> AsyncThrowingStream<String, any Error> {
        let result = try await graphqlSubscribe(
            schema: try executable.get(),
            request: query,
            context: ResolverContext(state: state, authorization: authorization),
            variableValues: variables
        )
        switch result {
        case .success(let results):
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await result in results {
                            continuation.yield(result.description)
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        case .failure(let errors):
            throw errors
        }
    }
}
