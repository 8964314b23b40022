import Foundation

/// A file to upload with an operation, by the GraphQL multipart request spec. `fieldName` names
/// the operation's variable the file is for (`file` for `singleUpload(file: $file)`); several
/// files with the same field name fill a list variable in order.
public struct GraphQLFile: Sendable, Hashable {
    /// Where the bytes come from.
    public enum Content: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A local file, read as it is sent (never all at once).
        case file(URL)
    }

    /// The operation's variable the file is for; several files with one name fill a list in order.
    public let fieldName: String
    /// The file name sent to the server.
    public let originalName: String
    /// The file's `Content-Type`.
    public let mimeType: String
    /// Where the file's bytes come from.
    public let content: Content

    /// A file whose bytes are in memory.
    public init(fieldName: String, originalName: String, mimeType: String = "application/octet-stream", data: Data) {
        self.fieldName = fieldName
        self.originalName = originalName
        self.mimeType = mimeType
        content = .data(data)
    }

    /// A file on disk, streamed from it when sent; `nil` when `fileURL` is not a local file URL
    /// (as Apollo iOS's initializer, it can fail: `guard let file = GraphQLFile(…) else { … }`).
    /// A local file that cannot be read when the upload starts fails the upload with
    /// ``BatonError/unreadableFile(operationName:fileURL:underlying:)``.
    public init?(fieldName: String, originalName: String, mimeType: String = "application/octet-stream", fileURL: URL) {
        guard fileURL.isFileURL else { return nil }
        self.fieldName = fieldName
        self.originalName = originalName
        self.mimeType = mimeType
        content = .file(fileURL)
    }
}
