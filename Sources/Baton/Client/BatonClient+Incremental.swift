import BatonAPI

extension BatonClient {
    /// Fetches a query from the server, handing on each result as it arrives: one for a plain
    /// response, one per part for an incremental one (`@defer`/`@stream`). Each is normalized
    /// into the store when `writeToStore`; the operation counts as fetched with the last part.
    func fetchIncrementally<Query: GraphQLQuery>(
        _ query: Query, writeToStore: Bool, _ handle: (GraphQLResult<Query.Data>) -> Void
    ) async throws {
        let responses = startExpectingKeptBody(for: query) { networkTransport.responses(for: query) }
        for try await response in responses {
            handle(try receive(response, for: query, .fetch(writesToStore: writeToStore, final: !response.hasNext)))
        }
    }
}
