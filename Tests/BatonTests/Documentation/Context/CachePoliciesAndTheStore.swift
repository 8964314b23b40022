// CachePoliciesAndTheStore.md: a client, the example API's hero query, and (for the cache
// directives' example) the Book schema's query in BookShopAPI.
import Baton
import BatonExampleAPI
import BookShopAPI
import Foundation

// MARK: snippet
func snippet(serverURL: URL, client: BatonClient, hero: HeroAndFriendsQuery) async throws {
    /* snippet */
}
