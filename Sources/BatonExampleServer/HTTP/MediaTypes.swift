import Foundation

/// The media types of GraphQL over HTTP.
enum GraphQLMediaType: String, Sendable {
    /// `application/graphql-response+json`: status codes tell request errors from executed requests.
    case graphQLResponse = "application/graphql-response+json"
    /// `application/json`: the legacy type; every well-formed request gets 200.
    case json = "application/json"

    /// The `Content-Type` header value of a response in this type.
    var contentType: String { rawValue + "; charset=utf-8" }

    /// The response media type for an `Accept` header, or nil when it accepts neither type.
    ///
    /// The type with the higher quality wins; the most specific range gives a type its quality
    /// (`application/json` before `application/*` before `*/*`). On a tie, and for a missing
    /// `Accept` or one that accepts anything, `application/graphql-response+json` wins, as the
    /// GraphQL-over-HTTP spec allows since 2025.
    static func negotiate(accept: String?) -> GraphQLMediaType? {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return .graphQLResponse }
        var qualities: [String: Double] = [:]
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let mediaRange = parts.first, !mediaRange.isEmpty else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            qualities[mediaRange] = max(qualities[mediaRange] ?? 0, quality)
        }
        func quality(of type: GraphQLMediaType) -> Double {
            qualities[type.rawValue] ?? qualities["application/*"] ?? qualities["*/*"] ?? 0
        }
        let (graphQLResponse, json) = (quality(of: .graphQLResponse), quality(of: .json))
        if graphQLResponse <= 0, json <= 0 { return nil }
        return graphQLResponse >= json ? .graphQLResponse : .json
    }

    /// Whether a request `Content-Type` is JSON (`application/json`, any parameters).
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";").first.map(String.init) ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == json.rawValue
    }
}
