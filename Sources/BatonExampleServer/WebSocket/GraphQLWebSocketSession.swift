import Foundation
import GraphQL
import HummingbirdWebSocket
import NIOWebSocket

/// One GraphQL WebSocket connection: the protocol's state machine for either subprotocol.
///
/// It enforces graphql-transport-ws's rules: no `connection_init` within the timeout → 4408; a
/// second one → 4429; a refused payload → 4403; `subscribe` before the ack → 4401; a
/// `subscribe` reusing a running id → 4409; a message it does not know → 4400; no acceptable
/// subprotocol → 4406. The legacy protocol gets `connection_error` before a 4403 and `ka`
/// keep-alives; a repeated `start` id replaces the running operation, as its server did.
final class GraphQLWebSocketSession: Sendable {
    private struct Operation: Sendable {
        let serial: Int
        let task: Task<Void, Never>
    }

    private struct State: Sendable {
        var initReceived = false
        var acknowledged = false
        var authorization: String?
        var operations: [String: Operation] = [:]
        var nextSerial = 0
        var closed = false
    }

    let subprotocol: GraphQLWebSocketSubprotocol?
    private let outbound: WebSocketOutboundWriter
    private let schema: GraphQLSchema
    private let serverState: ServerState
    private let options: WebSocketOptions
    private let sessions: WebSocketSessions
    private let state: Locked<State>

    init(
        subprotocol: GraphQLWebSocketSubprotocol?, outbound: WebSocketOutboundWriter, upgradeAuthorization: String?,
        schema: GraphQLSchema, serverState: ServerState, options: WebSocketOptions, sessions: WebSocketSessions
    ) {
        self.subprotocol = subprotocol
        self.outbound = outbound
        self.schema = schema
        self.serverState = serverState
        self.options = options
        self.sessions = sessions
        self.state = Locked(State(authorization: upgradeAuthorization))
    }

    /// Serves the socket until it closes.
    func run(inbound: WebSocketInboundStream) async {
        sessions.record(.connected(subprotocol: subprotocol?.rawValue))
        let registration = sessions.register(self)
        defer {
            sessions.unregister(registration)
            sessions.record(.disconnected)
        }
        guard let subprotocol else {
            // Closed at the client's first message (or the init timeout), not at once: a close
            // frame that follows the upgrade response in the same read can be lost by the client.
            let timeout = Task {
                try? await Task.sleep(for: options.connectionInitTimeout)
                guard !Task.isCancelled else { return }
                await self.close(code: 4406, reason: "Subprotocol not acceptable")
            }
            var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
            _ = try? await messages.next()
            timeout.cancel()
            await close(code: 4406, reason: "Subprotocol not acceptable")
            while (try? await messages.next()) != nil {}
            return
        }
        let timeout = options.connectionInitTimeout
        let initTimer = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, !self.state.withLock({ $0.initReceived }) else { return }
            await self.close(code: 4408, reason: "Connection initialisation timeout")
        }
        var keepAlive: Task<Void, Never>?
        do {
            for try await message in inbound.messages(maxSize: 1 << 24) {
                guard case .text(let text) = message else {
                    await close(code: 4400, reason: "Binary messages are not GraphQL messages")
                    break
                }
                guard await handle(text, subprotocol: subprotocol, keepAlive: &keepAlive) else { break }
            }
        } catch {
            // The connection broke; what follows cleans up.
        }
        initTimer.cancel()
        keepAlive?.cancel()
        for operation in state.withLock({ $0.operations.values }) {
            operation.task.cancel()
        }
    }

    /// Handles one message; false when the socket is being closed.
    private func handle(
        _ text: String, subprotocol: GraphQLWebSocketSubprotocol, keepAlive: inout Task<Void, Never>?
    ) async -> Bool {
        guard let message = try? JSONDecoder().decode(Map.self, from: Data(text.utf8)),
            case .dictionary(let fields) = message, case .string(let type)? = fields["type"]
        else {
            await close(code: 4400, reason: "Invalid message received")
            return false
        }
        switch (subprotocol, type) {
        case (_, "connection_init"):
            let payload = fields["payload"].flatMap { $0.isNull || $0.isUndefined ? nil : $0 }
            sessions.record(.initialized(payload: payload.map(Self.json)))
            let repeated = state.withLock { state in
                defer { state.initReceived = true }
                return state.initReceived
            }
            if repeated {
                await close(code: 4429, reason: "Too many initialisation requests")
                return false
            }
            if let token = options.requiredConnectionToken, payload?["token"].string != token {
                if subprotocol == .graphqlWS {
                    await send(#"{"type":"connection_error","payload":{"message":"Forbidden"}}"#)
                }
                await close(code: 4403, reason: "Forbidden")
                return false
            }
            let authorization = payload.flatMap { $0["authorization"].string ?? $0["Authorization"].string ?? $0["authToken"].string }
            state.withLock { state in
                state.acknowledged = true
                if let authorization { state.authorization = authorization }
            }
            await send(#"{"type":"connection_ack"}"#)
            if subprotocol == .graphqlWS {
                await send(#"{"type":"ka"}"#)
                if let interval = options.keepAliveInterval {
                    keepAlive = Task {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: interval)
                            await self.send(#"{"type":"ka"}"#)
                        }
                    }
                }
            }
        case (.graphqlTransportWS, "ping"):
            sessions.record(.pingReceived)
            await send(#"{"type":"pong"}"#)
        case (.graphqlTransportWS, "pong"):
            sessions.record(.pongReceived)
        case (.graphqlTransportWS, "subscribe"), (.graphqlWS, "start"):
            guard state.withLock({ $0.acknowledged }) else {
                await close(code: 4401, reason: "Unauthorized")
                return false
            }
            guard case .string(let id)? = fields["id"], case .dictionary(let payloadFields)? = fields["payload"] else {
                await close(code: 4400, reason: "Invalid message received")
                return false
            }
            var payload: [String: Map] = [:]
            for (key, value) in payloadFields { payload[key] = value }
            let running = state.withLock { $0.operations[id] }
            if let running {
                guard subprotocol == .graphqlWS else {
                    await close(code: 4409, reason: "Subscriber for \(id) already exists")
                    return false
                }
                running.task.cancel()
            }
            start(id: id, payload: payload, subprotocol: subprotocol)
        case (.graphqlTransportWS, "complete"), (.graphqlWS, "stop"):
            guard case .string(let id)? = fields["id"] else {
                await close(code: 4400, reason: "Invalid message received")
                return false
            }
            sessions.record(.operationStoppedByClient(id: id))
            state.withLock { $0.operations.removeValue(forKey: id) }?.task.cancel()
        case (.graphqlWS, "connection_terminate"):
            sessions.record(.terminatedByClient)
            await close(code: 1000, reason: "")
            return false
        default:
            await close(code: 4400, reason: "Invalid message received")
            return false
        }
        return true
    }

    /// Runs an operation and sends its results, then `complete` unless the client stopped it.
    private func start(id: String, payload: [String: Map], subprotocol: GraphQLWebSocketSubprotocol) {
        sessions.record(.operationStarted(id: id))
        let (schema, serverState) = (self.schema, self.serverState)
        let context = ResolverContext(state: serverState, authorization: state.withLock { $0.authorization })
        let messageID = Self.json(.string(id))
        let resultType = subprotocol == .graphqlTransportWS ? "next" : "data"
        state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            let task = Task {
                // An `error` message ends the operation: no `complete` follows it.
                var failed = false
                switch await GraphQLWebSocketExecution.run(payload: payload, schema: schema, context: context) {
                case .failure(let errors):
                    await self.sendError(id: messageID, errors: errors.errors, subprotocol: subprotocol)
                    failed = true
                case .success(let results):
                    do {
                        for try await body in results {
                            guard !Task.isCancelled else { break }
                            await self.send(Self.message(type: resultType, id: messageID, payload: body))
                        }
                    } catch {
                        await self.sendError(id: messageID, errors: [GraphQLError(message: "\(error)")], subprotocol: subprotocol)
                        failed = true
                    }
                }
                let stillRunning = self.state.withLock { state in
                    guard state.operations[id]?.serial == serial else { return false }
                    state.operations[id] = nil
                    return true
                }
                guard stillRunning, !failed, !Task.isCancelled else { return }
                await self.send(#"{"id":\#(messageID),"type":"complete"}"#)
                self.sessions.record(.operationCompleted(id: id))
            }
            state.operations[id] = Operation(serial: serial, task: task)
        }
    }

    private func sendError(id: String, errors: [GraphQLError], subprotocol: GraphQLWebSocketSubprotocol) async {
        guard !Task.isCancelled else { return }
        let list = GraphQLWebSocketExecution.errorList(errors)
        switch subprotocol {
        case .graphqlTransportWS:
            await send(Self.message(type: "error", id: id, payload: list))
        case .graphqlWS:
            // The legacy protocol's `error` carries one error object.
            let first = GraphQLWebSocketExecution.errorList(Array(errors.prefix(1))).dropFirst().dropLast()
            await send(Self.message(type: "error", id: id, payload: first.isEmpty ? Data("{}".utf8) : Data(first)))
        }
    }

    // MARK: Test hooks and writing

    /// Sends a graphql-transport-ws `ping` (nothing in the legacy protocol).
    func ping() async {
        guard subprotocol == .graphqlTransportWS else { return }
        await send(#"{"type":"ping"}"#)
    }

    /// Closes the socket with `code` (once).
    func close(code: UInt16, reason: String) async {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        sessions.record(.closedByServer(code: code))
        try? await outbound.close(WebSocketErrorCode(codeNumber: Int(code)), reason: reason)
    }

    private func send(_ text: String) async {
        guard !state.withLock({ $0.closed }) else { return }
        try? await outbound.writeTextMessage(text)
    }

    private static func message(type: String, id: String, payload: Data) -> String {
        #"{"id":\#(id),"type":"\#(type)","payload":"# + String(decoding: payload, as: UTF8.self) + "}"
    }

    private static func json(_ value: Map) -> String {
        let encoder = GraphQLJSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
