import Baton
import BatonExampleServer
import Foundation

/// Runs `body` against a fresh example server on an ephemeral loopback port (its persisted
/// queries and WebSockets as given), then stops it. `body` runs in the caller's isolation (a
/// main-actor test's body stays on the main actor).
func withExampleServer<T>(
    persistedQueries: PersistedQueryStore = PersistedQueryStore(),
    webSocket: WebSocketOptions = WebSocketOptions(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningExampleServer) async throws -> T
) async throws -> T {
    let server = try await ExampleServer.start(persistedQueries: persistedQueries, webSocket: webSocket)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A token store as the space-trips tutorial keeps one, read by the preflight step.
final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var storedToken: String?

    var token: String? {
        get { lock.withLock { storedToken } }
        set { lock.withLock { storedToken = newValue } }
    }
}
