import Baton
import BatonAPI
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import WSCore

/// One operation a connection carries until the server completes it or its consumer stops.
struct ActiveOperation: Sendable {
    let operationName: String
    /// The `subscribe`/`start` payload: `query`, `operationName`, `variables`, `extensions`.
    let payload: JSONObject
    /// Whether it is sent again after a reconnect (subscriptions and queries, never mutations).
    let resumesAfterReconnect: Bool
    let continuation: AsyncThrowingStream<GraphQLResponse, any Error>.Continuation
    /// Its events not yet taken by its consumer.
    let backlog: OperationBacklog
}

/// A frame for the socket's writer task.
enum OutgoingFrame: Sendable {
    case text(String)
    case close(code: GraphQLWebSocketCloseCode, reason: String)
}

/// The one socket of a ``WebSocketNetworkTransport`` and the operations multiplexed over it.
///
/// The socket opens with the first operation and, as configured, closes when the last one
/// ends. A loop task owns it: it connects (with `connection_init`), runs the socket until it
/// closes, and then either stops (idle, or a fatal close code, which fails every operation) or
/// waits out a backoff delay and connects again, sending every resumable operation again under
/// its id once the new connection is acknowledged.
///
/// All writes go through one ordered stream per connection, so the actor never suspends
/// between deciding to send a message and queueing it.
actor WebSocketConnection {
    private typealias Writer = AsyncStream<OutgoingFrame>.Continuation

    private enum Phase {
        /// No loop runs.
        case idle
        /// The loop makes the payload or opens the socket.
        case connecting
        case awaitingAcknowledgement(Writer)
        case ready(Writer)
        /// The loop waits before reconnecting.
        case waitingToReconnect
    }

    private let url: String
    private let configuration: WebSocketTransportConfiguration
    private let logger: Logger

    private var operations: [String: ActiveOperation] = [:]
    private var phase = Phase.idle
    private var loop: Task<Void, Never>?
    /// Counts connections; messages of an older one are ignored.
    private var generation = 0
    private var acknowledgedGeneration = 0
    /// When the current connection was acknowledged: it proves healthy (and restarts the count of
    /// failed attempts) only by staying up for the policy's `healthyAfter` from then.
    private var acknowledgedAt: ContinuousClock.Instant?
    /// Why the current connection ends, when this side decided it (timeout, bad message, idle).
    private var endReason: WebSocketTransportError?
    private var closingBecauseIdle = false
    /// Set by ``disconnect()`` until the next operation starts: keeps an `.never`-idle socket closed.
    private var disconnectRequested = false
    private var idleTimer: Task<Void, Never>?
    private var pingTimer: Task<Void, Never>?
    private var acknowledgementTimer: Task<Void, Never>?
    private var backoff: Task<Void, any Error>?
    private var awaitingPong = false
    /// The data messages the current connection's socket delivered (counted on the event loop)
    /// and those this actor has handled: when the first is ahead, the reader is behind, and what
    /// it has yet to handle may be the pong.
    private var arrivedMessages: Locked<Int>?
    private var handledMessages = 0
    /// The operation the message being handled delivered an event to.
    private var lastDelivered: String?

    init(url: String, configuration: WebSocketTransportConfiguration, logger: Logger) {
        self.url = url
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Operations

    /// Adds an operation and sends it once the connection is acknowledged (connecting first if
    /// needed), unless its consumer already stopped.
    func start(id: String, operation: ActiveOperation, isStopped: @Sendable () -> Bool) {
        guard !isStopped() else { return }
        operations[id] = operation
        disconnectRequested = false
        idleTimer?.cancel()
        idleTimer = nil
        if case .ready(let writer) = phase {
            send(.subscribe(id: id, payload: operation.payload), on: writer)
        }
        if loop == nil {
            closingBecauseIdle = false
            phase = .connecting
            loop = Task { await self.runConnections() }
        }
    }

    /// The consumer stopped: tells the server (`complete`/`stop`) if it still runs the operation.
    func stop(id: String) {
        guard operations.removeValue(forKey: id) != nil else { return }
        if case .ready(let writer) = phase {
            send(.complete(id: id), on: writer)
        }
        closeIfIdle()
    }

    /// Ends every operation with ``WebSocketTransportError/disconnected`` and closes the socket.
    func disconnect() {
        disconnectRequested = true
        fail(operations.keys, with: .disconnected)
        closeIdleConnection()
    }

    /// Whether the socket should be open: an operation uses it, or it is kept while idle.
    private var shouldStayConnected: Bool {
        !operations.isEmpty || (configuration.idleClosing == .never && !disconnectRequested)
    }

    // MARK: The connection loop

    private func runConnections() async {
        var failures = 0
        while true {
            generation += 1
            let current = generation
            phase = .connecting
            endReason = nil
            acknowledgedAt = nil
            let outcome = await connect(generation: current)
            // Only a connection that stayed up for `healthyAfter` once acknowledged restarts the
            // count of failures. Messages prove nothing: a server that acknowledges, sends one
            // `next` and drops the connection would otherwise be reconnected to forever.
            let healthy = acknowledgedAt.map { ContinuousClock.now - $0 >= configuration.reconnect.healthyAfter } ?? false
            stopTimers()
            phase = .waitingToReconnect

            if closingBecauseIdle {
                closingBecauseIdle = false
                if !shouldStayConnected { return finishLoop() }
                continue  // an operation started while the socket closed: connect again at once
            }
            let error = endReason ?? outcome
            if error.closeCode?.isFatal == true || error.isFatalWithoutCode {
                logger.debug("WebSocket closed for good: \(error)")
                fail(operations.keys, with: error)
                return finishLoop()
            }
            if healthy { failures = 0 }
            failures += 1
            let mutations = operations.filter { !$0.value.resumesAfterReconnect }
            for (id, operation) in mutations {
                operations[id] = nil
                operation.continuation.finish(
                    throwing: WebSocketTransportError.connectionLost(operationName: operation.operationName, underlying: error))
            }
            if !shouldStayConnected { return finishLoop() }
            let policy = configuration.reconnect
            guard failures <= policy.maxAttempts else {
                let finalError =
                    policy.maxAttempts == 0
                    ? error : WebSocketTransportError.reconnectAttemptsExhausted(attempts: policy.maxAttempts, lastError: error)
                fail(operations.keys, with: finalError)
                return finishLoop()
            }
            let delay = policy.delay(beforeAttempt: failures)
            logger.debug("WebSocket dropped (\(error)); reconnecting in \(delay), attempt \(failures)")
            let sleep = Task<Void, any Error> { try await Task.sleep(for: delay) }
            backoff = sleep
            _ = try? await sleep.value
            backoff = nil
            if !shouldStayConnected { return finishLoop() }
        }
    }

    private func finishLoop() {
        phase = .idle
        loop = nil
        closingBecauseIdle = false
    }

    /// Opens one connection and runs it until it closes; returns why it closed.
    private func connect(generation: Int) async -> WebSocketTransportError {
        let payload: JSONObject?
        do {
            payload = try await configuration.connectionPayload()
        } catch {
            return .connectionPayloadFailed(underlying: error)
        }
        var headerFields = configuration.headerFields
        headerFields[.secWebSocketProtocol] = configuration.protocol.subprotocol
        // The connection loop runs in a task started by the operation that opened it, so the
        // current context is that operation's.
        configuration.telemetry?.inject(into: &headerFields)
        let request: WebSocketUpgradeRequest
        do {
            request = try WebSocketUpgradeRequest(url: url, origin: configuration.origin, headerFields: headerFields)
        } catch {
            return .connectionFailed(underlying: error)
        }
        let maxMessageSize = configuration.maxMessageSize
        let maxBufferedEvents = configuration.maxBufferedEvents
        let maxBufferedEventBytes = configuration.maxBufferedEventBytes
        let slowConsumerTimeout = configuration.slowConsumerTimeout
        // swift-websocket's frame handler dumps the first bytes of every frame at `trace` (a
        // subscription's variables, the connection payload's token); it only gets to log from `debug` up.
        var clientLogger = logger
        clientLogger.logLevel = max(logger.logLevel, .debug)
        let frameError = Locked<NIOWebSocketError?>(nil)
        let arrivedMessages = Locked(0)
        let client = WebSocketUpgradeClient(
            request: request, maxFrameSize: configuration.maxFrameSize, closeTimeout: configuration.closeTimeout,
            upgradeTimeout: configuration.upgradeTimeout, frameError: frameError, arrivedMessages: arrivedMessages,
            logger: clientLogger
        ) { inbound, outbound, _ in
            // Bounded: a server that sends (pings) faster than it reads our answers cannot make
            // them pile up (see `send(_:on:)`).
            let (outgoing, writer) = AsyncStream<OutgoingFrame>.makeStream(
                bufferingPolicy: .bufferingOldest(WebSocketConnection.maxQueuedFrames))
            await self.opened(generation: generation, writer: writer, payload: payload, arrivedMessages: arrivedMessages)
            let reader = InboundBox(inbound)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in outgoing {
                        switch frame {
                        case .text(let text):
                            try await outbound.writeTextMessage(text)
                        case .close(let code, let reason):
                            // Once our close frame is out, nothing more is read: the client waits
                            // `closeTimeout` for the server's answer, then drops the connection,
                            // so a server that never answers cannot hold it open.
                            try await outbound.close(
                                WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: WebSocketConnection.closeReason(reason))
                            return
                        }
                    }
                    // The outgoing side ended without a close: reading goes on until the server closes.
                    while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
                }
                group.addTask {
                    do {
                        for try await message in reader.inbound.messages(maxSize: maxMessageSize) {
                            // An operation whose consumer is behind holds the socket's reading
                            // back, for a while (see OperationBacklog).
                            guard let (id, backlog, waiting) = await self.received(message, generation: generation) else { continue }
                            // Reading resumes once the consumer took half of them: in bursts, not lockstep.
                            let drained = await backlog.drained(
                                below: max(1, maxBufferedEvents / 2), bytes: max(1, maxBufferedEventBytes / 2), within: slowConsumerTimeout)
                            if !drained {
                                await self.fellBehind(id: id, backlog: backlog, waiting: waiting, generation: generation)
                            }
                        }
                    } catch {
                        await self.inboundFailed(error, generation: generation)
                        throw error
                    }
                }
                try await group.next()
                writer.finish()
                group.cancelAll()
            }
        }
        // A frame the decoder refused is the server breaking the protocol, however the socket then ended.
        func violation() -> WebSocketTransportError? {
            frameError.withLock { $0 }.map { .protocolViolation(reason: Self.describe($0, configuration: configuration)) }
        }
        do {
            let closeFrame = try await client.run()
            if let violation = violation() { return violation }
            guard let frame = closeFrame else {
                return .closed(code: .abnormalClosure, reason: nil)
            }
            return .closed(code: GraphQLWebSocketCloseCode(rawValue: UInt16(webSocketErrorCode: frame.closeCode)), reason: frame.reason)
        } catch let refused as WebSocketUpgradeRefused {
            return .upgradeRefused(status: refused.status, body: refused.body)
        } catch is WebSocketUpgradeTimedOut {
            return .upgradeTimeout(configuration.upgradeTimeout)
        } catch {
            if let violation = violation() { return violation }
            return .connectionFailed(underlying: error)
        }
    }

    // MARK: Events of the current connection

    private func opened(generation: Int, writer: Writer, payload: JSONObject?, arrivedMessages: Locked<Int>) {
        guard generation == self.generation else {
            writer.finish()
            return
        }
        self.arrivedMessages = arrivedMessages
        handledMessages = 0
        phase = .awaitingAcknowledgement(writer)
        send(.connectionInit(payload: payload), on: writer)
        let timeout = configuration.acknowledgementTimeout
        acknowledgementTimer = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.acknowledgementTimedOut(generation: generation)
        }
        if closingBecauseIdle && operations.isEmpty {
            writer.yield(.close(code: .normalClosure, reason: "idle"))
        }
    }

    private func acknowledgementTimedOut(generation: Int) {
        guard generation == self.generation, case .awaitingAcknowledgement(let writer) = phase else { return }
        end(with: .acknowledgementTimeout(configuration.acknowledgementTimeout), code: .connectionAcknowledgementTimeout, writer)
    }

    /// Reading the server's frames failed. A connection that merely broke (reset, closed) is
    /// retried; anything else the frame reader throws is the server breaking the protocol (a frame
    /// or message over the limits, invalid UTF-8 in a text message, a malformed frame), which no
    /// reconnect fixes.
    private func inboundFailed(_ error: any Error, generation: Int) {
        guard generation == self.generation, endReason == nil else { return }
        if error is IOError || error is ChannelError || error is CancellationError || error is NIOSSLError { return }
        let reason: String
        if let error = error as? NIOWebSocketError {
            reason = Self.describe(error, configuration: configuration)
        } else {
            let described = String(describing: error)
            if described.contains("messageTooLarge") {
                reason = "a message larger than maxMessageSize (\(configuration.maxMessageSize) bytes)"
            } else if described.contains("dataInconsistentWithMessage") {
                reason = "a text message that is not valid UTF-8"
            } else {
                reason = described
            }
        }
        endReason = .protocolViolation(reason: reason)
    }

    /// A frame decoder's error in words.
    private static func describe(_ error: NIOWebSocketError, configuration: WebSocketTransportConfiguration) -> String {
        switch error {
        case .invalidFrameLength: "a frame larger than maxFrameSize (\(configuration.maxFrameSize) bytes)"
        case .fragmentedControlFrame: "a fragmented control frame"
        case .multiByteControlFrameLength: "a control frame longer than 125 bytes"
        }
    }

    /// Handles one message; returns the operation whose consumer now has
    /// ``WebSocketTransportConfiguration/maxBufferedEvents`` (or
    /// ``WebSocketTransportConfiguration/maxBufferedEventBytes``) waiting, if any, and how many
    /// events wait.
    private func received(_ message: WebSocketMessage, generation: Int) -> (String, OperationBacklog, waiting: Int)? {
        if generation == self.generation { handledMessages += 1 }
        handle(message, generation: generation)
        guard let id = lastDelivered, let operation = operations[id],
            operation.backlog.pending >= configuration.maxBufferedEvents
                || operation.backlog.pendingBytes >= configuration.maxBufferedEventBytes
        else { return nil }
        return (id, operation.backlog, operation.backlog.pending)
    }

    /// The operation `id`'s consumer did not catch up in time: it ends with
    /// ``WebSocketTransportError/consumerFellBehind(operationName:bufferedEvents:waited:)`` (the
    /// `waiting` events that stopped the reading) and the server is told to stop it; the other
    /// operations go on.
    private func fellBehind(id: String, backlog: OperationBacklog, waiting: Int, generation: Int) {
        guard let operation = operations[id], operation.backlog === backlog else { return }
        operations.removeValue(forKey: id)
        backlog.end()
        operation.continuation.finish(
            throwing: WebSocketTransportError.consumerFellBehind(
                operationName: operation.operationName, bufferedEvents: waiting,
                waited: configuration.slowConsumerTimeout))
        if generation == self.generation, case .ready(let writer) = phase {
            send(.complete(id: id), on: writer)
        }
        closeIfIdle()
    }

    private func handle(_ message: WebSocketMessage, generation: Int) {
        lastDelivered = nil
        guard generation == self.generation else { return }
        let writer: Writer
        switch phase {
        case .awaitingAcknowledgement(let current), .ready(let current): writer = current
        case .idle, .connecting, .waitingToReconnect: return
        }
        guard case .text(let text) = message else {
            return end(with: .invalidMessage(reason: "a binary message"), code: .badRequest, writer)
        }
        let decoded: ServerMessage
        do {
            decoded = try configuration.protocol.decode(text)
        } catch {
            return end(with: error, code: .badRequest, writer)
        }
        switch decoded {
        case .connectionAck:
            guard case .awaitingAcknowledgement = phase else { return }  // a repeated ack is harmless
            acknowledgementTimer?.cancel()
            acknowledgedGeneration = generation
            acknowledgedAt = .now
            phase = .ready(writer)
            for (id, operation) in operations.sorted(by: { Self.order($0.key, $1.key) }) {
                send(.subscribe(id: id, payload: operation.payload), on: writer)
            }
            startPinging(generation: generation, writer: writer)
            if operations.isEmpty { closeIfIdle() }
        case .connectionError(let payload):
            end(with: .connectionRejected(payload: payload), code: .forbidden, writer)
        case .keepAlive, .pong:
            awaitingPong = false
        case .ping(let payload):
            send(.pong(payload: payload), on: writer)
        case .next(let id, let payload):
            guard case .ready = phase else { return notAcknowledged("next", writer) }
            guard let operation = operations[id] else { return }
            var response = GraphQLResponse(body: payload)
            response.receivedBytes = text.utf8.count
            operation.backlog.delivered(bytes: response.receivedBytes)
            operation.continuation.yield(response)
            lastDelivered = id
        case .error(let id, let errors):
            guard case .ready = phase else { return notAcknowledged("error", writer) }
            guard let operation = operations.removeValue(forKey: id) else { return }
            operation.continuation.yield(GraphQLResponse(body: ["errors": .list(errors)]))
            operation.continuation.finish()
            closeIfIdle()
        case .complete(let id):
            guard case .ready = phase else { return notAcknowledged("complete", writer) }
            guard let operation = operations.removeValue(forKey: id) else { return }
            operation.continuation.finish()
            closeIfIdle()
        }
    }

    /// An operation's message before `connection_ack`: the protocol does not allow it (the
    /// client has subscribed to nothing yet), so the connection closes with 4400.
    private func notAcknowledged(_ type: String, _ writer: Writer) {
        end(with: .invalidMessage(reason: "`\(type)` before connection_ack"), code: .badRequest, writer)
    }

    /// A close frame's reason as sent: at most 123 bytes of UTF-8 (RFC 6455 §5.5: a control
    /// frame carries at most 125 bytes, two of them the code), cut at a character boundary and
    /// marked with "…". A reason quoting a long server message would otherwise make the frame
    /// invalid.
    static func closeReason(_ reason: String) -> String {
        let limit = 123
        guard reason.utf8.count > limit else { return reason }
        var kept = ""
        var bytes = 0
        for character in reason {
            let size = character.utf8.count
            if bytes + size > limit - 3 { break }  // room for "…", three bytes
            kept.append(character)
            bytes += size
        }
        return kept + "…"
    }

    /// Ends the connection from this side for `reason`, closing with `code`.
    private func end(with reason: WebSocketTransportError, code: GraphQLWebSocketCloseCode, _ writer: Writer) {
        guard endReason == nil else { return }
        logger.debug("Closing the WebSocket: \(reason)")
        endReason = reason
        writer.yield(.close(code: code, reason: reason.description))
    }

    private func startPinging(generation: Int, writer: Writer) {
        guard configuration.protocol == .graphqlTransportWS, let interval = configuration.pingInterval else { return }
        awaitingPong = false
        pingTimer = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, self.ping(generation: generation, writer: writer, interval: interval) else { return }
            }
        }
    }

    /// Sends a ping; false (and the connection ends) when the last one got no pong.
    private func ping(generation: Int, writer: Writer, interval: Duration) -> Bool {
        guard generation == self.generation, case .ready = phase else { return false }
        if awaitingPong {
            // A pong may wait unread behind other messages when this process is too busy to
            // read them (its tasks get no thread): only a reader that has caught up and still
            // saw no pong means the server stopped answering.
            if let arrivedMessages, arrivedMessages.withLock({ $0 }) > handledMessages {
                logger.debug("No pong handled within \(interval), but the socket delivered messages not yet read: waiting for them")
                return true
            }
            end(with: .pongTimeout(interval), code: .terminated, writer)
            return false
        }
        awaitingPong = true
        send(.ping, on: writer)
        return true
    }

    // MARK: Idle closing

    private func closeIfIdle() {
        guard operations.isEmpty else { return }
        switch configuration.idleClosing {
        case .never:
            return
        case .immediately:
            closeIdleConnection()
        case .after(let delay):
            idleTimer?.cancel()
            idleTimer = Task {
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                self.closeIdleConnection()
            }
        }
    }

    private func closeIdleConnection() {
        guard operations.isEmpty else { return }
        switch phase {
        case .idle:
            return
        case .connecting:
            closingBecauseIdle = true
        case .waitingToReconnect:
            backoff?.cancel()
        case .awaitingAcknowledgement(let writer):
            closingBecauseIdle = true
            writer.yield(.close(code: .normalClosure, reason: "idle"))
        case .ready(let writer):
            closingBecauseIdle = true
            send(.terminate, on: writer)
            writer.yield(.close(code: .normalClosure, reason: "idle"))
        }
    }

    // MARK: Helpers

    private func send(_ message: ClientMessage, on writer: Writer) {
        guard let text = configuration.protocol.encode(message) else { return }
        if case .dropped = writer.yield(.text(text)), endReason == nil {
            // The server does not read what it makes us send: nothing more is queued (memory
            // stays bounded) and, when the connection ends, it ends as a protocol violation,
            // not retried. Reading goes on, so a server blocked on its own writes is not
            // deadlocked against a client blocked on its writes.
            logger.debug("The WebSocket server does not read: \(Self.maxQueuedFrames) frames wait to be written")
            endReason = .protocolViolation(
                reason: "the server sends faster than it reads: \(Self.maxQueuedFrames) frames wait to be written")
        }
    }

    /// The most frames waiting to be written (answers to pings, subscriptions, completes).
    static let maxQueuedFrames = 1_024

    private func fail(_ ids: some Sequence<String>, with error: WebSocketTransportError) {
        for id in Array(ids) {
            operations.removeValue(forKey: id)?.continuation.finish(throwing: error)
        }
    }

    private func stopTimers() {
        acknowledgementTimer?.cancel()
        acknowledgementTimer = nil
        pingTimer?.cancel()
        pingTimer = nil
    }

    /// Numeric ids in number order, so operations are sent again in the order they started.
    private static func order(_ lhs: String, _ rhs: String) -> Bool {
        switch (Int(lhs), Int(rhs)) {
        case (let left?, let right?): left < right
        default: lhs < rhs
        }
    }
}

extension WebSocketTransportError {
    /// Errors that no reconnect fixes although no close code says so.
    var isFatalWithoutCode: Bool {
        switch self {
        case .connectionRejected, .connectionPayloadFailed, .disconnected: true
        case .invalidMessage, .protocolViolation: true
        case .upgradeRefused(let status, _): Self.upgradeRefusalIsFatal(status: status)
        // A URL that is not ws:// or wss:// with a host never gets better.
        case .connectionFailed(let underlying): underlying is WebSocketUpgradeRequest.Failure
        default: false
        }
    }
}

/// The inbound frames of one connection, read by one task of its handler.
private struct InboundBox: @unchecked Sendable {
    let inbound: WebSocketInboundStream
    init(_ inbound: WebSocketInboundStream) { self.inbound = inbound }
}
