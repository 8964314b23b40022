/// The example server's open GraphQL WebSockets and what happened on them, with hooks that
/// let tests act as the server would (drop every socket, ping every client).
public final class WebSocketSessions: Sendable {
    private struct State: Sendable {
        var sessions: [Int: GraphQLWebSocketSession] = [:]
        var nextID = 0
        var events: [WebSocketServerEvent] = []
    }

    private let state = Locked(State())

    init() {}

    /// Everything recorded so far, oldest first.
    public var events: [WebSocketServerEvent] {
        state.withLock { $0.events }
    }

    /// How many sockets are open.
    public var openCount: Int {
        state.withLock { $0.sessions.count }
    }

    /// Closes every open socket with `code` (default 1001 going away), as a server restart would.
    public func closeAll(code: UInt16 = 1001, reason: String = "Going away") async {
        for session in state.withLock({ Array($0.sessions.values) }) {
            await session.close(code: code, reason: reason)
        }
    }

    /// Sends a graphql-transport-ws `ping` on every socket speaking it.
    public func pingAll() async {
        for session in state.withLock({ Array($0.sessions.values) }) {
            await session.ping()
        }
    }

    /// Waits until `condition` holds for the recorded events; false when `timeout` passed first.
    public func wait(
        timeout: Duration = .seconds(60), until condition: @Sendable ([WebSocketServerEvent]) -> Bool
    ) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if condition(events) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(events)
    }

    func record(_ event: WebSocketServerEvent) {
        state.withLock { $0.events.append(event) }
    }

    func register(_ session: GraphQLWebSocketSession) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.sessions[id] = session
            return id
        }
    }

    func unregister(_ id: Int) {
        state.withLock { _ = $0.sessions.removeValue(forKey: id) }
    }
}
