// Guide.md: a client and the URLs it is made with, a query and a todo of the example API, and a
// render function; its SwiftUI screens compile against the SwiftUI stand-in
// (Tests/BatonTests/SwiftUIStandIn).
import Baton
import BatonExampleAPI
import BatonSQLite
import BatonWebSocket
import Foundation
import Logging
import Observation
import SwiftUI

/// The app's own drawing.
func render<Query>(_ state: QueryObserver<Query>.State) {}

// MARK: snippet
@MainActor func snippet(
    client: BatonClient, serverURL: URL, streamURL: URL, endpoint: URL, cacheURL: URL, url: URL,
    hero: HeroAndFriendsQuery, someTodo: TodoDetails
) async throws {
    /* snippet */
}
