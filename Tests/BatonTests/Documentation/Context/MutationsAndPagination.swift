// MutationsAndPagination.md: a client (mutators live on the main actor), the example API's
// paginated query's data, and a todo read from it.
import Baton
import BatonExampleAPI
import Foundation

// MARK: snippet
@MainActor func snippet(client: BatonClient, data: PaginatedTodosQuery.Data, someTodo: TodoDetails) async throws {
    /* snippet */
}
