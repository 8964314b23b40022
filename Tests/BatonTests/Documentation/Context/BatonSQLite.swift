// BatonSQLite.md: the server's URL and the cache file's.
import Baton
import BatonSQLite
import Foundation

// MARK: snippet
func snippet(serverURL: URL, url: URL) async throws {
    /* snippet */
}
