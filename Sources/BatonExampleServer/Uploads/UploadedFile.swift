/// A file received in a multipart upload, as the schema's `File` type shows it: its bytes were
/// hashed as they arrived and never kept.
struct UploadedFile: ObjectValue {
    static let typename = "File"
    let id: String
    /// The multipart field it came in (`"0"`, `"1"`, …).
    let path: String
    let filename: String
    let mimetype: String
    let size: Int
    /// SHA-256 of the content, lowercase hex.
    let sha256: String
}
