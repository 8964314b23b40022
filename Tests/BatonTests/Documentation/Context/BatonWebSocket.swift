// BatonWebSocket.md: the server's URL.
import Baton
import BatonWebSocket
import Foundation

// MARK: snippet
func snippet(serverURL: URL) async throws {
    /* snippet */
}
