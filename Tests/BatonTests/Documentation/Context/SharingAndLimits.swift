// SharingAndLimits.md: the app group's folder, shared by the app and its extension.
import Baton
import BatonSQLite
import Foundation

// MARK: snippet
func snippet(appGroupURL: URL) async throws {
    /* snippet */
}
