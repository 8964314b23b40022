import BatonAPI
import Foundation
import HTTPTypes

/// One GraphQL request on its way through the interceptor chain. Interceptors may change any
/// of its `var`s: headers, variables, extensions, whether the document is sent.
public struct GraphQLRequest: Sendable {
    /// The GraphQL endpoint.
    public var url: URL
    /// HTTP header fields to send (the chain's last step adds `Content-Type` and `Accept`).
    public var headerFields: HTTPFields
    /// The operation's name, as sent in `operationName`.
    public let operationName: String
    /// Query, mutation or subscription.
    public let operationType: GraphQLOperationType
    /// The operation's minimal document.
    public let document: String
    /// SHA-256 of the document, lowercase hex.
    public let operationIdentifier: String
    /// Whether `query` carries the document; persisted-query steps send only the hash.
    public var sendsDocument: Bool = true
    /// The operation's variables, as JSON.
    public var variables: JSONObject
    /// The request's `extensions` (`persistedQuery` lives here).
    public var extensions: JSONObject
    /// How long to wait for the whole response; `nil` for the HTTP client's default.
    public var timeout: Duration?
    /// The bounds kept against the server while this request's response is read.
    public var limits: ResponseLimits = .default
    /// Whether the chain's last step sends the request as `GET` (a query only; a request with
    /// files is always a multipart `POST`).
    public var usesGET: Bool = false
    /// Files to upload: when there are some, the request is sent by the GraphQL multipart
    /// request spec instead of as JSON.
    public var files: [GraphQLFile] = []
    /// Whether the response may come in parts (`multipart/mixed`): the document uses `@defer`
    /// or `@stream`.
    public var acceptsIncrementalDelivery: Bool
    /// For a subscription sent over HTTP: the protocol its events stream by (the chain's last
    /// step asks for it in `Accept`); `nil` for every other request.
    public var subscriptionProtocol: HTTPSubscriptionProtocol?

    /// A request for an operation; ``BatonClient`` makes these from generated operations.
    public init(
        url: URL, headerFields: HTTPFields = [:], operationName: String, operationType: GraphQLOperationType,
        document: String, operationIdentifier: String, variables: JSONObject = [:], extensions: JSONObject = [:],
        timeout: Duration? = nil
    ) {
        self.url = url
        self.headerFields = headerFields
        self.operationName = operationName
        self.operationType = operationType
        self.document = document
        self.operationIdentifier = operationIdentifier
        self.variables = variables
        self.extensions = extensions
        self.timeout = timeout
        acceptsIncrementalDelivery = Self.usesIncrementalDelivery(document)
    }

    /// Whether a document asks for incremental delivery (`@defer` or `@stream`).
    static func usesIncrementalDelivery(_ document: String) -> Bool {
        document.contains("@defer") || document.contains("@stream")
    }

    /// A request for an operation.
    public init<Operation: GraphQLOperation>(operation: Operation, url: URL, headerFields: HTTPFields = [:]) {
        self.init(
            url: url, headerFields: headerFields, operationName: Operation.operationName,
            operationType: Operation.operationType, document: Operation.operationDocument,
            operationIdentifier: Operation.operationIdentifier, variables: operation.variablesJSON)
    }

    /// The JSON body of a POST by GraphQL over HTTP: `query`, `operationName`, `variables`, `extensions`.
    public var bodyJSON: JSONObject {
        var body = JSONObject()
        if sendsDocument { body["query"] = .string(document) }
        body["operationName"] = .string(operationName)
        if !variables.isEmpty { body["variables"] = .object(variables) }
        if !extensions.isEmpty { body["extensions"] = .object(extensions) }
        return body
    }
}

/// What came back for a request: the HTTP response head and its whole body, or, for an
/// incremental (`multipart/mixed`) response, its body's chunks as they arrive.
public struct HTTPResult: Sendable {
    /// The response head: status and header fields.
    public var response: HTTPResponse
    /// The whole body; empty when the body is streamed.
    public var body: Data
    /// The body's chunks as they arrive, for a `multipart/mixed` response; `nil` otherwise.
    public var streamedBody: AsyncThrowingStream<Data, any Error>?

    /// A result with a whole body, or a streamed one.
    public init(response: HTTPResponse, body: Data, streamedBody: AsyncThrowingStream<Data, any Error>? = nil) {
        self.response = response
        self.body = body
        self.streamedBody = streamedBody
    }
}
