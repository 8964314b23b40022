import Foundation

/// `PageInfo` of a connection.
struct PageInfo: ObjectValue {
    static let typename = "PageInfo"
    let startCursor: String?
    let endCursor: String?
    let hasNextPage: Bool
    let hasPreviousPage: Bool
}

/// Opaque cursors: base64 of a prefix and a value.
enum Cursor {
    static func make(_ prefix: String, _ value: String) -> String {
        Data((prefix + value).utf8).base64EncodedString()
    }

    /// The value of `cursor` made with `prefix`, or nil when it is not such a cursor.
    static func value(of cursor: String, prefix: String) -> String? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix(prefix)
        else { return nil }
        return String(text.dropFirst(prefix.count))
    }
}
