// SubscriptionsAndTransports.md: the server's URL, a client, and a file to upload.
import Baton
import BatonExampleAPI
import Foundation

// MARK: snippet
func snippet(serverURL: URL, client: BatonClient, url: URL) async throws {
    /* snippet */
}
