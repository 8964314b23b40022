import Foundation
import GraphQL

/// A GraphQL-over-HTTP request: `{query, operationName?, variables?, extensions?}`. `query` may
/// be absent when `extensions.persistedQuery` names a persisted document.
struct GraphQLHTTPRequest: Sendable {
    var query: String?
    var operationName: String?
    var variables: [String: Map]
    var extensions: [String: Map]

    /// Why a request is not a well-formed GraphQL-over-HTTP request.
    struct Malformed: Error {
        let message: String
    }

    /// Reads a JSON request body.
    static func decode(json body: Data) throws(Malformed) -> GraphQLHTTPRequest {
        let parameters: Map
        do {
            parameters = try JSONDecoder().decode(Map.self, from: body)
        } catch {
            throw Malformed(message: "The request body is not valid JSON.")
        }
        guard case .dictionary(let fields) = parameters else {
            throw Malformed(message: "The request body must be a JSON object.")
        }
        return try GraphQLHTTPRequest(
            query: fields["query"],
            operationName: fields["operationName"],
            variables: fields["variables"],
            extensions: fields["extensions"]
        )
    }

    /// Reads the parameters of a GET request's query string; `variables` and `extensions` are JSON.
    static func decode(queryParameters: [String: String]) throws(Malformed) -> GraphQLHTTPRequest {
        func json(_ name: String) throws(Malformed) -> Map? {
            guard let text = queryParameters[name] else { return nil }
            do {
                return try JSONDecoder().decode(Map.self, from: Data(text.utf8))
            } catch {
                throw Malformed(message: "The \(name) parameter is not valid JSON.")
            }
        }
        return try GraphQLHTTPRequest(
            query: queryParameters["query"].map(Map.string),
            operationName: queryParameters["operationName"].map(Map.string),
            variables: json("variables"),
            extensions: json("extensions")
        )
    }

    private init(query: Map?, operationName: Map?, variables: Map?, extensions: Map?) throws(Malformed) {
        switch query {
        case nil, .null?, .undefined?: self.query = nil
        case .string(let query)?: self.query = query
        default: throw Malformed(message: "The request has no query string.")
        }
        switch operationName {
        case nil, .null, .undefined: self.operationName = nil
        case .string(let name): self.operationName = name
        default: throw Malformed(message: "operationName must be a string.")
        }
        self.variables = try Self.object(variables, named: "variables")
        self.extensions = try Self.object(extensions, named: "extensions")
        if self.query == nil, persistedQueryHash == nil {
            throw Malformed(message: "The request has no query string.")
        }
    }

    /// `extensions.persistedQuery.sha256Hash` (version 1).
    var persistedQueryHash: String? {
        guard case .dictionary(let persisted)? = extensions["persistedQuery"] else { return nil }
        return persisted["sha256Hash"]?.string
    }

    private static func object(_ value: Map?, named name: String) throws(Malformed) -> [String: Map] {
        switch value {
        case nil, .null, .undefined: return [:]
        case .dictionary(let fields): return Dictionary(fields.map { ($0.key, $0.value) }) { $1 }
        default: throw Malformed(message: "\(name) must be a JSON object.")
        }
    }
}
