import Baton
import BatonExampleServer
import Foundation

/// Runs `body` against a fresh example server on an ephemeral loopback port (its persisted
/// queries and WebSockets as given), then stops it. `body` runs in the caller's isolation (a
/// main-actor test's body stays on the main actor).
func withExampleServer<T>(
    persistedQueries: PersistedQueryStore = PersistedQueryStore(),
    webSocket: WebSocketOptions = .patient,
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

extension WebSocketOptions {
    /// The server's options for tests that are not about its time limits: 30 s for a client's
    /// `connection_init` instead of 3 s. A test suite on a loaded 2-core machine can hold a
    /// client's task past 3 s, and the server's close (4408) then makes the client reconnect,
    /// which a test that counts connections reads as a failure.
    static let patient = WebSocketOptions(connectionInitTimeout: .seconds(30))
}
