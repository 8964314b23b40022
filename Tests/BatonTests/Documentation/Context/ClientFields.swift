// ClientFields.md: a client and a todo's id; TodoSelectionQuery is the example API's (its
// isSelected is declared in BatonExampleAPI's graphql/ClientSchema.graphql).
import Baton
import BatonExampleAPI
import Foundation

// MARK: snippet
func snippet(client: BatonClient, todoID: String) async throws {
    /* snippet */
}
