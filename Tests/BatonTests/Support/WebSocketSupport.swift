import Baton
import BatonAPI
import BatonExampleServer
import BatonWebSocket
import Foundation

/// A WebSocket transport to the example server that reconnects quickly (tests drop sockets on purpose).
func webSocketTransport(
    _ server: RunningExampleServer,
    protocol: GraphQLWebSocketProtocol = .graphqlTransportWS,
    payload: JSONObject? = nil,
    pingInterval: Duration? = nil,
    idleClosing: WebSocketTransportConfiguration.IdleClosing = .immediately,
    reconnect: ReconnectPolicy = .exponentialBackoff(maxAttempts: 5, initialDelay: .milliseconds(50), maxDelay: .milliseconds(400))
) -> WebSocketNetworkTransport {
    WebSocketNetworkTransport(
        url: server.webSocketURL,
        configuration: WebSocketTransportConfiguration(
            // 30 s for the server's `connection_ack`: a loaded machine can hold the server's reply
            // past a few seconds, and a reconnect after the time-out fails tests that count
            // connections (the time-out itself is tested with its own transports).
            protocol: `protocol`, connectionPayload: { payload }, acknowledgementTimeout: .seconds(30),
            pingInterval: pingInterval, idleClosing: idleClosing, reconnect: reconnect))
}

/// Consumes a sequence in a task, keeping what it yields and how it ended.
final class Collector<Element: Sendable>: Sendable {
    private let state = Locked<(elements: [Element], error: (any Error)?, finished: Bool)>(([], nil, false))
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let state = self.state
        task.withLock {
            $0 = Task {
                do {
                    for try await element in sequence {
                        state.withLock { $0.elements.append(element) }
                    }
                } catch {
                    state.withLock { $0.error = error }
                }
                state.withLock { $0.finished = true }
            }
        }
    }

    var elements: [Element] { state.withLock { $0.elements } }
    var error: (any Error)? { state.withLock { $0.error } }
    var finished: Bool { state.withLock { $0.finished } }

    /// Cancels the consuming task (and so the subscription).
    func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// Waits until `condition` holds; false when `timeout` passed first.
    @discardableResult
    func wait(timeout: Duration = .seconds(60), until condition: @Sendable (Collector) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { condition(self) }
    }
}

/// Polls `condition` until it holds; false when `timeout` passed first.
func eventually(timeout: Duration = .seconds(60), _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
