import BatonAPI

/// A message the client sends, in protocol-neutral terms.
enum ClientMessage: Sendable {
    case connectionInit(payload: JSONObject?)
    /// `subscribe` (graphql-transport-ws) or `start` (graphql-ws).
    case subscribe(id: String, payload: JSONObject)
    /// `complete` (graphql-transport-ws) or `stop` (graphql-ws).
    case complete(id: String)
    case ping
    case pong(payload: JSONValue?)
    /// `connection_terminate` (graphql-ws only).
    case terminate
}

/// A message the server sends, in protocol-neutral terms.
enum ServerMessage: Sendable, Equatable {
    case connectionAck
    /// `connection_error` (graphql-ws only).
    case connectionError(payload: JSONValue?)
    /// `ka` (graphql-ws only).
    case keepAlive
    case ping(payload: JSONValue?)
    case pong
    /// `next` (graphql-transport-ws) or `data` (graphql-ws): one execution result.
    case next(id: String, payload: JSONObject)
    /// The operation failed before or instead of executing; its GraphQL errors.
    case error(id: String, errors: [JSONValue])
    case complete(id: String)
}

extension GraphQLWebSocketProtocol {
    /// The text frame for `message`; nil when this protocol has no such message.
    func encode(_ message: ClientMessage) -> String? {
        var object = JSONObject()
        switch (self, message) {
        case (_, .connectionInit(let payload)):
            object["type"] = "connection_init"
            if let payload { object["payload"] = .object(payload) }
        case (.graphqlTransportWS, .subscribe(let id, let payload)):
            object = ["id": .string(id), "type": "subscribe", "payload": .object(payload)]
        case (.graphqlWS, .subscribe(let id, let payload)):
            object = ["id": .string(id), "type": "start", "payload": .object(payload)]
        case (.graphqlTransportWS, .complete(let id)):
            object = ["id": .string(id), "type": "complete"]
        case (.graphqlWS, .complete(let id)):
            object = ["id": .string(id), "type": "stop"]
        case (.graphqlTransportWS, .ping):
            object["type"] = "ping"
        case (.graphqlTransportWS, .pong(let payload)):
            object["type"] = "pong"
            if let payload { object["payload"] = payload }
        case (.graphqlWS, .terminate):
            object["type"] = "connection_terminate"
        case (.graphqlWS, .ping), (.graphqlWS, .pong), (.graphqlTransportWS, .terminate):
            return nil
        }
        return JSONValue.object(object).serializedString()
    }

    /// Reads a text frame from the server.
    func decode(_ text: String) throws(WebSocketTransportError) -> ServerMessage {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw .invalidMessage(reason: "not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw .invalidMessage(reason: "a message must be an object, found \(value.kindDescription)")
        }
        guard let type = object["type"]?.stringValue else {
            throw .invalidMessage(reason: "the message has no `type`")
        }
        func id() throws(WebSocketTransportError) -> String {
            guard let id = object["id"]?.stringValue else {
                throw .invalidMessage(reason: "a `\(type)` message needs a string `id`")
            }
            return id
        }
        func resultPayload() throws(WebSocketTransportError) -> JSONObject {
            guard let payload = object["payload"]?.objectValue else {
                throw .invalidMessage(reason: "a `\(type)` message needs an object `payload`")
            }
            guard payload["data"] != nil || payload["errors"] != nil else {
                throw .invalidMessage(reason: "the `\(type)` payload has neither `data` nor `errors`")
            }
            return payload
        }
        let payload = object["payload"].flatMap { (value: JSONValue) -> JSONValue? in value.isNull ? nil : value }

        switch (self, type) {
        case (_, "connection_ack"):
            return .connectionAck
        case (.graphqlTransportWS, "ping"):
            return .ping(payload: payload)
        case (.graphqlTransportWS, "pong"):
            return .pong
        case (.graphqlTransportWS, "next"), (.graphqlWS, "data"):
            return .next(id: try id(), payload: try resultPayload())
        case (.graphqlTransportWS, "error"):
            guard let errors = payload?.listValue else {
                throw .invalidMessage(reason: "an `error` message needs a list of errors as `payload`")
            }
            return .error(id: try id(), errors: errors)
        case (.graphqlWS, "error"):
            // Legacy servers send one error object (some send a list).
            return .error(id: try id(), errors: payload?.listValue ?? [payload ?? ["message": "unknown error"]])
        case (_, "complete"):
            return .complete(id: try id())
        case (.graphqlWS, "ka"):
            return .keepAlive
        case (.graphqlWS, "connection_error"):
            return .connectionError(payload: payload)
        default:
            throw .invalidMessage(reason: "`\(type)` is not a \(rawValue) server message")
        }
    }
}
