// ClientAppTutorial.md: the blocks after "Fetch a list" continue that program, whose client (with
// its token store) and first page they use.
import Baton
import BatonWebSocket
import Foundation
import MyAPI
import Synchronization

/// The tutorial's own token store, as "Fetch a list" declares it.
final class TokenStore: Sendable {
    private let stored = Mutex<String?>(nil)
    var token: String? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

// MARK: snippet
func snippet(serverURL: URL, client: BatonClient, tokens: TokenStore, first: GraphQLResult<LaunchListQuery.Data>) async throws {
    /* snippet */
}
