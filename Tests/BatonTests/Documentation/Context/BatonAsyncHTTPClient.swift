// BatonAsyncHTTPClient.md: the server's URL.
import Baton
import BatonAsyncHTTPClient
import Foundation

// MARK: snippet
func snippet(serverURL: URL) async throws {
    /* snippet */
}
