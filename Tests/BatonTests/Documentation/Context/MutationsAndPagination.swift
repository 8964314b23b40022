// MutationsAndPagination.md: a client (mutators live on the main actor) and a todo of the
// example API, whose live fragment the last block follows.
import Baton
import BatonExampleAPI
import Foundation

// MARK: snippet
@MainActor func snippet(client: BatonClient, someTodo: TodoDetails) async throws {
    /* snippet */
}
