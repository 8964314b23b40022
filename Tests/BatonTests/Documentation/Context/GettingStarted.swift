// GettingStarted.md: "Authenticate" uses the server's URL and the app's own token store.
import Baton
import Foundation
import MyAPI

/// Wherever the app keeps its token.
final class TokenStore: Sendable {
    var token: String? { nil }
}

// MARK: snippet
func snippet(serverURL: URL, tokens: TokenStore) async throws {
    /* snippet */
}
