import BatonAPI
import BatonStore
import HTTPTypes

/// A GraphQL response as the transport received it, before it is read into typed data: the
/// parsed body and, for HTTP, the response head.
public struct GraphQLResponse: Sendable {
    /// The parsed response body: `data`, `errors`, `extensions`.
    public let body: JSONObject
    /// The HTTP response head; `nil` for a transport without one (a WebSocket).
    public let httpResponse: HTTPResponse?
    /// For an incremental (`@defer`/`@stream`) response: whether more parts follow this one.
    /// The body is then the data merged so far.
    public let hasNext: Bool
    /// For a later part of an incremental response: the deferred data this part added, each at
    /// its path, so that the client executes only them (not the whole body again). `nil` when
    /// the body is to be taken whole (a first part, a plain response, streamed list items).
    public let patches: [IncrementalPatch]?
    /// The exact bytes `body` was parsed from, for a whole response read by the HTTP transport
    /// (`nil` otherwise): what lets the client recognize a response that repeats the last one.
    let parsedFrom: ParsedResponseBody?
    /// The body as the client's ``ParsedResponseBody/reader`` read it, with its `data` already
    /// prepared for the operation (`nil` when the transport parsed it alone).
    let prepared: PreparedResponse?
    /// The bytes received for this response, as a streaming transport counts them (a WebSocket
    /// message, the body bytes read since a subscription's previous event); 0 when not counted.
    /// What bounds the bytes of subscription events waiting for their consumer.
    package var receivedBytes = 0

    /// A response with its body, HTTP head and whether more parts follow.
    public init(body: JSONObject, httpResponse: HTTPResponse? = nil, hasNext: Bool = false, patches: [IncrementalPatch]? = nil) {
        self.init(body: body, httpResponse: httpResponse, hasNext: hasNext, patches: patches, parsedFrom: nil)
    }

    init(
        body: JSONObject, httpResponse: HTTPResponse?, hasNext: Bool = false, patches: [IncrementalPatch]? = nil,
        parsedFrom: ParsedResponseBody?, prepared: PreparedResponse? = nil
    ) {
        self.body = body
        self.httpResponse = httpResponse
        self.hasNext = hasNext
        self.patches = patches
        self.parsedFrom = parsedFrom
        self.prepared = prepared
    }
}

/// Deferred data that one part of an incremental response adds to the object at `path`.
public struct IncrementalPatch: Sendable, Hashable {
    /// Where the object is in the response's data: `hero.friends[1]`.
    public let path: ResponsePath
    /// The fields the deferred fragment adds to it.
    public let data: JSONObject

    /// A patch of `data` at `path`.
    public init(path: ResponsePath, data: JSONObject) {
        self.path = path
        self.data = data
    }
}

/// Sends operations to a server and returns the raw response. ``BatonClient`` reads it into
/// typed results (and, with a store, normalizes it).
public protocol NetworkTransport: Sendable {
    /// Sends an operation and returns its response; for an incremental response, the final one
    /// with every part merged.
    func send<Operation: GraphQLOperation>(operation: Operation) async throws -> GraphQLResponse

    /// Sends an operation and yields each response as it arrives: one for a plain response;
    /// for an incremental one (`@defer`/`@stream`), the data merged so far after each part, the
    /// last one with `hasNext == false`. The default yields the one response of ``send(operation:)``.
    func responses<Operation: GraphQLOperation>(for operation: Operation) -> AsyncThrowingStream<GraphQLResponse, any Error>
}

extension NetworkTransport {
    /// The one response of ``send(operation:)``, as a sequence.
    public func responses<Operation: GraphQLOperation>(for operation: Operation) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await send(operation: operation))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A transport that can also send files with an operation (the GraphQL multipart request spec).
public protocol UploadingNetworkTransport: NetworkTransport {
    func upload<Operation: GraphQLOperation>(operation: Operation, files: [GraphQLFile]) async throws -> GraphQLResponse
}
