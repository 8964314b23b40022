import Foundation
import GraphQL

/// Runs the operation of one `subscribe`/`start` message against the example schema.
enum GraphQLWebSocketExecution {
    /// The result bodies (`{"data": …, "errors": […]}` as JSON) of the operation in `payload`
    /// (`query`, `operationName`, `variables`): one per event for a subscription, one for a query
    /// or mutation; or the request errors when it does not parse, validate or start.
    static func run(
        payload: [String: Map], schema: GraphQLSchema, context: ResolverContext
    ) async -> Result<AsyncThrowingStream<Data, any Error>, GraphQLErrors> {
        guard case .string(let query)? = payload["query"] else {
            return .failure(GraphQLErrors([GraphQLError(message: "The payload has no query string.")]))
        }
        let operationName = payload["operationName"]?.string
        var variables: [String: Map] = [:]
        if case .dictionary(let fields)? = payload["variables"] {
            for (key, value) in fields { variables[key] = value }
        }

        let document: Document
        do {
            document = try parse(source: Source(body: query, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return .failure(GraphQLErrors([error]))
        } catch {
            return .failure(GraphQLErrors([GraphQLError(message: "\(error)")]))
        }
        let validationErrors = validate(schema: schema, ast: document)
        guard validationErrors.isEmpty else { return .failure(GraphQLErrors(validationErrors)) }

        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let operation = operationName.map { name in operations.first { $0.name?.value == name } } ?? operations.first
        do {
            if operation?.operation == .subscription {
                let subscribed = try await graphqlSubscribe(
                    schema: schema, request: query, context: context, variableValues: variables, operationName: operationName)
                switch subscribed {
                case .success(let results):
                    return .success(encoded(results))
                case .failure(let errors):
                    return .failure(errors)
                }
            }
            let result = try await execute(
                schema: schema, documentAST: document, rootValue: (), context: context,
                variableValues: variables, operationName: operationName)
            // Errors before execution (unknown operation, variables that do not coerce) have no path.
            if result.data == nil, result.errors.allSatisfy({ $0.path.elements.isEmpty }) {
                return .failure(GraphQLErrors(result.errors))
            }
            return .success(AsyncThrowingStream { continuation in
                continuation.yield(GraphQLResponseBody.encode(data: result.data, includesData: true, errors: result.errors))
                continuation.finish()
            })
        } catch let errors as GraphQLErrors {
            return .failure(errors)
        } catch let error as GraphQLError {
            return .failure(GraphQLErrors([error]))
        } catch {
            return .failure(GraphQLErrors([GraphQLError(message: "\(error)")]))
        }
    }

    private static func encoded(_ results: AsyncThrowingStream<GraphQLResult, any Error>) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await result in results {
                        continuation.yield(GraphQLResponseBody.encode(data: result.data, includesData: true, errors: result.errors))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The errors as the JSON list an `error` message carries.
    static func errorList(_ errors: [GraphQLError]) -> Data {
        let body = GraphQLResponseBody.encode(data: nil, includesData: false, errors: errors)
        // The body is `{"errors":[…]}`: the list is what lies between the first `[` and the last `]`.
        guard let start = body.firstIndex(of: UInt8(ascii: "[")), let end = body.lastIndex(of: UInt8(ascii: "]")) else {
            return Data("[]".utf8)
        }
        return body[start...end]
    }
}
