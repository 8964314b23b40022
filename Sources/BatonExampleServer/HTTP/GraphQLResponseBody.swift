import Foundation
import GraphQL

/// The JSON body of a GraphQL response, encoded with `GraphQLJSONEncoder` so the keys of `data`
/// keep the order of the query's selections.
enum GraphQLResponseBody {
    /// `{"data": …, "errors": […]}`; `data` is left out when `includesData` is false (a request
    /// error), `errors` when there are none.
    static func encode(data: Map?, includesData: Bool, errors: [GraphQLError]) -> Data {
        var fields: [(String, Map)] = []
        if includesData {
            fields.append(("data", data ?? .null))
        }
        if !errors.isEmpty {
            fields.append(("errors", .array(errors.map(map(of:)))))
        }
        let encoder = GraphQLJSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        if let body = try? encoder.encode(Map.dictionary(.init(uniqueKeysWithValues: fields))) {
            return body
        }
        // Only a value JSON cannot hold (NaN, infinity) fails; say so instead of sending nothing.
        return Data(#"{"errors":[{"message":"The response could not be encoded as JSON."}]}"#.utf8)
    }

    /// A request error's body: `{"errors": [{"message": message}]}`.
    static func encode(message: String) -> Data {
        encode(data: nil, includesData: false, errors: [GraphQLError(message: message)])
    }

    /// An error as the GraphQL spec shows it: message, locations and path (when known), extensions.
    private static func map(of error: GraphQLError) -> Map {
        var fields: [(String, Map)] = [("message", .string(error.message))]
        if !error.locations.isEmpty {
            fields.append(("locations", .array(error.locations.map { .dictionary(["line": .int($0.line), "column": .int($0.column)]) })))
        }
        if !error.path.elements.isEmpty {
            fields.append(("path", .array(error.path.elements.map {
                switch $0 {
                case .index(let index): .int(index)
                case .key(let key): .string(key)
                }
            })))
        }
        if !error.extensions.isEmpty {
            fields.append(("extensions", .dictionary(.init(uniqueKeysWithValues: error.extensions.sorted { $0.key < $1.key }))))
        }
        return .dictionary(.init(uniqueKeysWithValues: fields))
    }
}
