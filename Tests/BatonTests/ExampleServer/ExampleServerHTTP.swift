import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonExampleServer

/// An HTTP response from the example server, its body parsed as JSON when it is JSON.
struct ExampleServerResponse {
    let status: Int
    let contentType: String?
    let body: Data
    let json: [String: Any]?

    var text: String { String(decoding: body, as: UTF8.self) }
    var data: [String: Any]? { json?["data"] as? [String: Any] }
    var errors: [[String: Any]] { json?["errors"] as? [[String: Any]] ?? [] }
    var errorMessages: [String] { errors.compactMap { $0["message"] as? String } }
    var hasNullData: Bool { json?["data"] is NSNull }
}

struct ExampleServerTestError: Error, CustomStringConvertible {
    let description: String
}

extension RunningExampleServer {
    /// POSTs a GraphQL request as JSON.
    func graphQLPost(
        _ query: String,
        variables: [String: Any]? = nil,
        operationName: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> ExampleServerResponse {
        var body: [String: Any] = ["query": query]
        if let variables { body["variables"] = variables }
        if let operationName { body["operationName"] = operationName }
        return try await httpSend(
            method: "POST",
            body: try JSONSerialization.data(withJSONObject: body),
            headers: ["Content-Type": "application/json"].merging(headers) { $1 }
        )
    }

    /// POSTs a query and returns its `data`, failing on any error.
    func graphQLData(_ query: String, variables: [String: Any]? = nil, headers: [String: String] = [:]) async throws -> [String: Any] {
        let response = try await graphQLPost(query, variables: variables, headers: headers)
        guard response.status == 200, response.errors.isEmpty, let data = response.data else {
            throw ExampleServerTestError(description: "\(response.status): \(response.text)")
        }
        return data
    }

    /// Sends a raw request to the GraphQL endpoint.
    func httpSend(
        method: String,
        query: [URLQueryItem] = [],
        body: Data? = nil,
        headers: [String: String] = [:]
    ) async throws -> ExampleServerResponse {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let requestURL = components?.url else { throw ExampleServerTestError(description: "bad URL") }
        var request = URLRequest(url: requestURL)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ExampleServerTestError(description: "not HTTP") }
        return ExampleServerResponse(
            status: http.statusCode,
            contentType: http.value(forHTTPHeaderField: "Content-Type"),
            body: data,
            json: (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        )
    }
}

/// The value at a path of dictionary keys and array indices.
func jsonValue(_ root: Any?, _ path: Any...) -> Any? {
    var current = root
    for step in path {
        switch step {
        case let key as String: current = (current as? [String: Any])?[key]
        case let index as Int:
            guard let array = current as? [Any], array.indices.contains(index) else { return nil }
            current = array[index]
        default: return nil
        }
    }
    return current
}
