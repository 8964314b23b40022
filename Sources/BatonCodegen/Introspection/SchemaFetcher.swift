import Foundation
import GraphQL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads a schema from a GraphQL endpoint with the introspection query.
public struct SchemaFetcher: Sendable {
    /// What the server sent.
    public struct Result: Sendable {
        /// The response body: `{"data": {"__schema": …}}`.
        public let introspectionJSON: String
        let source: String

        /// The schema as SDL.
        public func sdl() throws(CodegenErrors) -> String {
            let loaded = try SchemaLoader.load(sources: [(introspectionJSON, source)])
            return printSchema(schema: loaded.schema) + "\n"
        }
    }

    /// The GraphQL endpoint.
    public let url: URL
    /// Header fields sent with the query (`Authorization`, …), as name and value.
    public let headers: [(String, String)]
    /// Seconds to wait for the response.
    public let timeout: TimeInterval

    /// A fetcher for `url`.
    public init(url: URL, headers: [(String, String)] = [], timeout: TimeInterval = 30) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }

    /// Sends the introspection query; a transport failure or an HTTP error status is a
    /// ``CodegenError``.
    public func fetch() async throws(CodegenError) -> Result {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/graphql-response+json, application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let body = "{\"operationName\":\"IntrospectionQuery\",\"query\":\(Self.jsonString(IntrospectionQuery.text))}"
        request.httpBody = Data(body.utf8)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw CodegenError("cannot reach \(url.absoluteString): \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw CodegenError("\(url.absoluteString) answered HTTP \(http.statusCode): \(text.prefix(500))")
        }
        let source = url.absoluteString + ".json"
        let json = try LocatedJSON.parse(text, path: url.absoluteString)
        if let errors = json["errors"]?.arrayValue, !errors.isEmpty {
            let messages = errors.compactMap { $0["message"]?.stringValue }
            throw CodegenError("\(url.absoluteString) answered with errors: \(messages.joined(separator: "; "))")
        }
        guard let data = json["data"], data["__schema"] != nil else {
            throw CodegenError("\(url.absoluteString) sent no data.__schema", at: json.location(in: url.absoluteString))
        }
        return Result(introspectionJSON: text, source: source)
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
