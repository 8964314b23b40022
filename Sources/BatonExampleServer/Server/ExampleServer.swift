import Foundation
import Hummingbird
import HummingbirdWebSocket

/// A GraphQL server on loopback for the demo and the tests: Star Wars, posts, space trips,
/// Relay-style todos and uploads in one schema, with state kept in memory per server.
public struct ExampleServer: Sendable {
    /// Starts a server with fresh state on `host`:`port` (port 0 = the OS picks one).
    ///
    /// `/graphql` serves GraphQL over HTTP and, on a WebSocket upgrade, both graphql-transport-ws
    /// and the legacy graphql-ws protocol (chosen by `Sec-WebSocket-Protocol`) as `webSocket` says.
    /// Returns once the server accepts connections. It runs until `RunningExampleServer.stop()`.
    /// `persistedQueries` is an empty store for automatic persisted queries by default; pass
    /// `PersistedQueryStore(manifest:)` for a server that runs only a manifest's operations.
    /// - Throws: when the schema cannot be built or the address cannot be bound.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, persistedQueries: PersistedQueryStore = PersistedQueryStore(),
        webSocket: WebSocketOptions = WebSocketOptions()
    ) async throws -> RunningExampleServer {
        let schema = try ExampleSchema.executable.get()
        let state = ServerState(persistedQueries: persistedQueries)
        let handler = GraphQLHTTPHandler(schema: schema, state: state)
        let sessions = WebSocketSessions()
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .options] {
            router.on("/graphql", method: method) { request, _ in await handler.respond(to: request) }
        }

        let (events, continuation) = AsyncStream<StartEvent>.makeStream()
        var app = Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: 1 << 20, autoPing: .disabled))) {
                request, _, _ in
                guard request.path?.split(separator: "?").first == "/graphql" else { return .dontUpgrade }
                let subprotocol = GraphQLWebSocketSubprotocol.negotiate(request.headerFields[values: .secWebSocketProtocol])
                var headers = HTTPFields()
                if let subprotocol { headers[.secWebSocketProtocol] = subprotocol.rawValue }
                let authorization = request.headerFields[.authorization]
                return .upgrade(headers) { inbound, outbound, _ in
                    let session = GraphQLWebSocketSession(
                        subprotocol: subprotocol, outbound: outbound, upgradeAuthorization: authorization,
                        schema: schema, serverState: state, options: webSocket, sessions: sessions)
                    await session.run(inbound: inbound)
                }
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                continuation.yield(.running(port: channel.localAddress?.port, closeListener: { try? await channel.close() }))
            }
        )
        app.logger.logLevel = .warning
        let runningApp = app
        let task = Task {
            do {
                try await runningApp.run()
                continuation.yield(.stopped(nil))
            } catch {
                continuation.yield(.stopped(error))
            }
            continuation.finish()
        }

        for await event in events {
            switch event {
            case .running(let port?, let closeListener):
                return RunningExampleServer(
                    host: host, port: port, task: task, closeListener: closeListener, webSockets: sessions)
            case .running(nil, _):
                task.cancel()
                await task.value
                throw ExampleServerError(description: "The server started without a port.")
            case .stopped(let error):
                throw error ?? ExampleServerError(description: "The server stopped before it accepted connections.")
            }
        }
        // The stream ended without an event: the caller was cancelled.
        task.cancel()
        await task.value
        throw CancellationError()
    }

    /// The schema SDL the server serves (the text of its `schema.graphqls` resource).
    public static var schemaSDL: String {
        get throws { try ExampleSchema.sdl() }
    }

    private enum StartEvent: Sendable {
        case running(port: Int?, closeListener: @Sendable () async -> Void)
        case stopped((any Error)?)
    }
}

/// A server started by `ExampleServer.start(host:port:)`.
public final class RunningExampleServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// The open GraphQL WebSockets, what happened on them, and hooks to drop or ping them.
    public let webSockets: WebSocketSessions
    private let host: String
    private let task: Task<Void, Never>
    private let closeListener: @Sendable () async -> Void

    init(
        host: String, port: Int, task: Task<Void, Never>, closeListener: @escaping @Sendable () async -> Void,
        webSockets: WebSocketSessions
    ) {
        self.webSockets = webSockets
        self.host = host
        self.port = port
        self.task = task
        self.closeListener = closeListener
    }

    /// The GraphQL endpoint, `http://<host>:<port>/graphql` (loopback when bound to every interface).
    public var url: URL {
        let reachableHost: String
        switch host {
        case "0.0.0.0", "": reachableHost = "127.0.0.1"
        case "::": reachableHost = "[::1]"
        case _ where host.contains(":"): reachableHost = "[\(host)]"
        default: reachableHost = host
        }
        // Host and port come from a bound address, so the URL is well formed.
        return URL(string: "http://\(reachableHost):\(port)/graphql") ?? URL(fileURLWithPath: "/")
    }

    /// The GraphQL WebSocket endpoint, `ws://<host>:<port>/graphql`.
    public var webSocketURL: URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.scheme = "ws"
        return components?.url ?? url
    }

    /// Stops accepting connections, closes the open ones and frees the port. Returns once the
    /// server has stopped; calling it again does nothing.
    public func stop() async {
        // Closing the listening socket first ends the server's accept loop normally; cancelling
        // the task then closes the open connections (cancelling alone makes Hummingbird log an error).
        await closeListener()
        task.cancel()
        await task.value
    }
}

/// An error starting the example server.
public struct ExampleServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
