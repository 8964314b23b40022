import BatonAPI

extension BatonClient {
    /// Fetches a query from the server, handing on each result as it arrives: one for a plain
    /// response, one per part for an incremental one (`@defer`/`@stream`). Each is normalized
    /// into the store when `writeToStore`; the operation counts as fetched with the last part.
    func fetchIncrementally<Query: GraphQLQuery>(
        _ query: Query, writeToStore: Bool, _ handle: (GraphQLResult<Query.Data>) -> Void
    ) async throws {
        for try await response in networkTransport.responses(for: query) {
            let result = try response.result(for: query, source: .server)
            guard writeToStore else {
                handle(readBackIfNeeded(result, for: query, response: response, published: false))
                continue
            }
            publish(response, for: query, fetched: !response.hasNext)
            if !response.hasNext {
                // Keep the query's records in the release buffer for later cache hits.
                store.retain(OperationDescriptor(operation: query)).release()
            }
            handle(readBackIfNeeded(result, for: query, response: response))
        }
    }
}
