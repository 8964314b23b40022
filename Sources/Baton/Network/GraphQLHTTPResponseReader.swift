import BatonAPI
import BatonStore
import Foundation
import HTTPTypes

/// Reads an HTTP response into a GraphQL response by the GraphQL-over-HTTP spec.
///
/// - `application/graphql-response+json`: any status; a body that is a GraphQL response is one
///   (a 400 with `errors` is a request error reported as GraphQL errors).
/// - `application/json` (or no content type): a 2xx body is the response; any other status is
///   ``BatonError/httpStatus(operationName:status:contentType:bodyExcerpt:errors:)``, with the
///   body's GraphQL errors when it has some.
/// - Anything else (an HTML error page): ``BatonError/httpStatus(operationName:status:contentType:bodyExcerpt:errors:)``.
///
/// A body whose `data` is null or absent with no (or an empty list of) `errors` is
/// ``BatonError/invalidResponse(operationName:reason:)``: the spec requires `errors` then.
enum GraphQLHTTPResponseReader {
    static func read(_ result: HTTPResult, operationName: String) throws -> GraphQLResponse {
        let status = result.response.status.code
        let contentType = result.response.headerFields[.contentType]
        let mediaType = contentType.map(Self.mediaType(of:))
        let isSuccess = (200..<300).contains(status)

        switch mediaType {
        case "application/graphql-response+json":
            let (body, parsed) = try parseBody(result.body, operationName: operationName)
            guard isSuccess || body["data"] != nil || body["errors"] != nil else {
                throw statusError(result, operationName: operationName, errors: [])
            }
            return try checked(body, parsed, result, operationName: operationName)
        case nil, "application/json":
            guard isSuccess else {
                let errors = (try? JSONValue(parsing: result.body))?["errors"]?.listValue?.map(GraphQLError.init(json:))
                throw statusError(result, operationName: operationName, errors: errors ?? [])
            }
            let (body, parsed) = try parseBody(result.body, operationName: operationName)
            return try checked(body, parsed, result, operationName: operationName)
        default:
            throw statusError(result, operationName: operationName, errors: [])
        }
    }

    /// `application/json; charset=utf-8` → `application/json`.
    static func mediaType(of contentType: String) -> String {
        let base = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return base.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The body parsed, with its bytes (see ``ParsedResponseBody``: a body whose bytes are
    /// exactly those the client expects is not parsed again).
    private static func parseBody(_ data: Data, operationName: String) throws -> (JSONObject, ParsedBody) {
        let value: JSONValue
        let parsed: ParsedResponseBody?
        let prepared: PreparedResponse?
        do {
            (value, parsed, prepared) = try ParsedResponseBody.parse(data, operationName: operationName)
        } catch {
            throw BatonError.malformedResponse(operationName: operationName, error)
        }
        guard let parsed else {
            throw BatonError.invalidResponse(operationName: operationName, reason: "the body is \(value.kindDescription), not an object")
        }
        return (parsed.object, ParsedBody(parsed: parsed, prepared: prepared))
    }

    /// A body as ``ParsedResponseBody/parse(_:)`` gave it.
    private struct ParsedBody {
        let parsed: ParsedResponseBody
        let prepared: PreparedResponse?
    }

    private static func checked(
        _ body: JSONObject, _ parsed: ParsedBody, _ result: HTTPResult, operationName: String
    ) throws -> GraphQLResponse {
        guard body["data"] != nil || body["errors"] != nil else {
            throw BatonError.invalidResponse(operationName: operationName, reason: "the body has neither `data` nor `errors`")
        }
        // GraphQL over HTTP: `data` null means the operation failed, and then `errors` says why;
        // a response with neither a result nor a reason would reach the caller as nothing at all.
        let hasErrors = body["errors"]?.listValue.map { !$0.isEmpty } ?? (body["errors"] != nil && body["errors"] != .null)
        if body["data"] == nil || body["data"] == .null, !hasErrors {
            throw BatonError.invalidResponse(operationName: operationName, reason: "`data` is null and there are no `errors`")
        }
        return GraphQLResponse(body: body, httpResponse: result.response, parsedFrom: parsed.parsed, prepared: parsed.prepared)
    }

    private static func statusError(_ result: HTTPResult, operationName: String, errors: [GraphQLError]) -> BatonError {
        let excerpt = String(decoding: result.body.prefix(200), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
        return .httpStatus(
            operationName: operationName, status: result.response.status.code,
            contentType: result.response.headerFields[.contentType], bodyExcerpt: excerpt, errors: errors)
    }
}
