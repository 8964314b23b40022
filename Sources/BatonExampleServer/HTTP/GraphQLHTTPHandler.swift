import Foundation
import GraphQL
import Hummingbird

/// Serves `/graphql` as the GraphQL-over-HTTP spec says.
///
/// - `POST` with a `Content-Type: application/json` body `{query, operationName?, variables?, extensions?}`;
///   another content type gets 415.
/// - `GET` with `query`, `operationName`, `variables` and `extensions` (JSON) in the query string,
///   for queries only: a mutation over `GET` gets 405 with `Allow: POST`.
/// - Other methods get 405 with `Allow: GET, POST`.
/// - The response is `application/graphql-response+json` or `application/json`, as the `Accept`
///   header prefers (see `GraphQLMediaType.negotiate`); 406 when it accepts neither.
/// - A request that is not a well-formed GraphQL-over-HTTP request (body not JSON or not an
///   object, no `query` string, `variables` or `extensions` not an object) gets 400.
/// - A request error (the document does not parse or validate, the operation is unknown, the
///   variables do not coerce) gets `{"errors": […]}` with 400 in `application/graphql-response+json`
///   and 200 in `application/json`.
/// - A subscription is a request error too: subscriptions are not served over plain HTTP
///   requests (they need a WebSocket).
/// - An executed request gets 200 with `{"data": …, "errors": […]}`, even when field errors made
///   `data` null.
/// - Automatic persisted queries: `extensions.persistedQuery.sha256Hash` without `query` runs the
///   persisted document, or gets the error `PersistedQueryNotFound` (code
///   `PERSISTED_QUERY_NOT_FOUND`); with `query`, the hash is checked and the document registered.
///   A persisted-only server (started with a manifest) refuses documents it does not hold.
/// - `POST` with `multipart/form-data` is an upload by the GraphQL multipart request spec (see
///   `MultipartUploadReader`).
/// - A document with `@defer` or `@stream`, from a client that accepts `multipart/mixed`, gets an
///   incremental response (see `IncrementalDelivery`).
/// - An executed request's response carries the `Cache-Control` head its request asked for in
///   `X-Example-Cache-Control` (`max-age=60`, `no-store`): how tests make the server say how long
///   its data stays fresh, as a server that computes it from `@cacheControl` hints would.
struct GraphQLHTTPHandler: Sendable {
    /// The request head whose value an executed response's `Cache-Control` head repeats.
    static let requestedCacheControl = HTTPFields.Element.Name("X-Example-Cache-Control")!

    let schema: GraphQLSchema
    let state: ServerState

    /// The largest request body read.
    static let maximumBodySize = 16 * 1024 * 1024

    func respond(to request: Request) async -> Response {
        guard request.method == .get || request.method == .post else {
            return Self.response(.methodNotAllowed, .json, Self.message("Use GET or POST."), allow: "GET, POST")
        }
        let accept = request.headers[values: .accept]
        guard let mediaType = GraphQLMediaType.negotiate(accept: accept.isEmpty ? nil : accept.joined(separator: ",")) else {
            return Self.response(
                .notAcceptable, .json,
                Self.message("Accept application/graphql-response+json or application/json.")
            )
        }

        var graphQLRequest: GraphQLHTTPRequest
        var uploads: [String: UploadedFile] = [:]
        do throws(GraphQLHTTPRequest.Malformed) {
            if request.method == .post, let boundary = MultipartUploadReader.boundary(ofContentType: request.headers[.contentType]) {
                let upload: MultipartUploadReader.Upload
                do {
                    upload = try await MultipartUploadReader.read(request.body, boundary: boundary)
                } catch {
                    return Self.response(.badRequest, mediaType, Self.message(error.message))
                }
                uploads = upload.files
                graphQLRequest = try GraphQLHTTPRequest.decode(json: upload.operations)
            } else if request.method == .post {
                guard GraphQLMediaType.isJSON(contentType: request.headers[.contentType]) else {
                    return Self.response(
                        .unsupportedMediaType, mediaType,
                        Self.message("Send the request as Content-Type: application/json.")
                    )
                }
                guard let body = try? await request.body.collect(upTo: Self.maximumBodySize) else {
                    return Self.response(.contentTooLarge, mediaType, Self.message("The request body is too large."))
                }
                graphQLRequest = try GraphQLHTTPRequest.decode(json: Data(body.readableBytesView))
            } else {
                var parameters: [String: String] = [:]
                for (key, value) in request.uri.queryParameters {
                    parameters[String(key)] = String(value)
                }
                graphQLRequest = try GraphQLHTTPRequest.decode(queryParameters: parameters)
            }
        } catch {
            return Self.response(.badRequest, mediaType, Self.message(error.message))
        }

        if let problem = resolvePersistedQuery(&graphQLRequest) {
            return Self.response(
                mediaType == .graphQLResponse ? .badRequest : .ok, mediaType,
                GraphQLResponseBody.encode(data: nil, includesData: false, errors: [problem]))
        }

        return await execute(
            graphQLRequest,
            isGET: request.method == .get,
            authorization: request.headers[.authorization],
            mediaType: mediaType,
            incrementalFormat: IncrementalFormat.negotiate(accept: accept.isEmpty ? nil : accept.joined(separator: ",")),
            uploads: uploads,
            cacheControl: request.headers[Self.requestedCacheControl]
        )
    }

    /// Fills in the document of a persisted query, or registers it; the error to answer with
    /// when neither works.
    private func resolvePersistedQuery(_ request: inout GraphQLHTTPRequest) -> GraphQLError? {
        let store = state.persistedQueries
        guard let hash = request.persistedQueryHash else {
            if !store.acceptsDocuments, let query = request.query,
                store.document(forHash: PersistedQueryStore.sha256(query)) == nil
            {
                return GraphQLError(
                    message: "PersistedQueryNotAllowed: only persisted operations are accepted.",
                    extensions: ["code": "PERSISTED_QUERY_NOT_ALLOWED"])
            }
            return nil
        }
        if let query = request.query {
            if store.document(forHash: hash) == query { return nil }
            do {
                try store.register(hash: hash, document: query)
            } catch {
                let code = store.acceptsDocuments ? "PERSISTED_QUERY_HASH_MISMATCH" : "PERSISTED_QUERY_NOT_ALLOWED"
                return GraphQLError(message: error.description, extensions: ["code": .string(code)])
            }
            return nil
        }
        guard let document = store.document(forHash: hash) else {
            return GraphQLError(message: "PersistedQueryNotFound", extensions: ["code": "PERSISTED_QUERY_NOT_FOUND"])
        }
        request.query = document
        return nil
    }

    private func execute(
        _ request: GraphQLHTTPRequest,
        isGET: Bool,
        authorization: String?,
        mediaType: GraphQLMediaType,
        incrementalFormat: IncrementalFormat?,
        uploads: [String: UploadedFile],
        cacheControl: String?
    ) async -> Response {
        func requestError(_ errors: [GraphQLError]) -> Response {
            Self.response(
                mediaType == .graphQLResponse ? .badRequest : .ok, mediaType,
                GraphQLResponseBody.encode(data: nil, includesData: false, errors: errors)
            )
        }

        let source = request.query ?? ""
        var document: Document
        do {
            document = try parse(source: Source(body: source, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return requestError([error])
        } catch {
            return requestError([GraphQLError(message: "\(error)")])
        }

        if let operation = Self.operation(named: request.operationName, in: document) {
            if isGET, operation.operation != .query {
                return Self.response(
                    .methodNotAllowed, mediaType,
                    Self.message("Only queries can be sent with GET; send a \(operation.operation.rawValue) with POST."),
                    allow: "POST"
                )
            }
            if operation.operation == .subscription {
                return requestError([GraphQLError(message: "Subscriptions are not served over HTTP requests; use a WebSocket.")])
            }
        }

        // @defer and @stream: executed without them, split afterwards (the executor has neither).
        let original = document
        let stripped = IncrementalDelivery.strippingDirectives(from: source, document: document)
        if let stripped {
            do {
                document = try parse(source: Source(body: stripped, name: "GraphQL request"))
            } catch {
                return requestError([GraphQLError(message: "\(error)")])
            }
        }

        let validationErrors = validate(schema: schema, ast: document)
        guard validationErrors.isEmpty else {
            return requestError(validationErrors)
        }

        var context = ResolverContext(state: state, authorization: authorization)
        context.uploads = uploads
        let result: GraphQLResult
        do {
            result = try await GraphQL.execute(
                schema: schema,
                documentAST: document,
                rootValue: (),
                context: context,
                variableValues: request.variables,
                operationName: request.operationName
            )
        } catch {
            return requestError([GraphQLError(message: "\(error)")])
        }
        // Errors raised before execution (unknown operation, variables that do not coerce) have no
        // path and leave no data; field errors always have a path.
        if result.data == nil, result.errors.allSatisfy({ $0.path.elements.isEmpty }) {
            return requestError(result.errors)
        }
        if stripped != nil, let incrementalFormat {
            let delivery = IncrementalDelivery(document: original, variables: request.variables, operationName: request.operationName)
            return delivery.response(data: result.data?.dictionary, errors: result.errors, format: incrementalFormat)
        }
        var response = Self.response(.ok, mediaType, GraphQLResponseBody.encode(data: result.data, includesData: true, errors: result.errors))
        if let cacheControl { response.headers[.cacheControl] = cacheControl }
        return response
    }

    /// The operation `name` selects, or the only one; nil when that is ambiguous or unknown
    /// (execution then reports it).
    private static func operation(named name: String?, in document: Document) -> OperationDefinition? {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        if let name {
            return operations.first { $0.name?.value == name }
        }
        return operations.count == 1 ? operations[0] : nil
    }

    private static func message(_ text: String) -> Data {
        GraphQLResponseBody.encode(message: text)
    }

    private static func response(
        _ status: HTTPResponse.Status,
        _ mediaType: GraphQLMediaType,
        _ body: Data,
        allow: String? = nil
    ) -> Response {
        var headers: HTTPFields = [.contentType: mediaType.contentType]
        if let allow {
            headers[.allow] = allow
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
