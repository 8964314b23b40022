/// The persisted-query manifest, in the format of Apollo's persisted query manifests:
/// `{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id","name","type","body"}]}`.
public struct OperationManifest: Sendable, Hashable {
    /// One operation of the manifest.
    public struct Operation: Sendable, Hashable {
        /// SHA-256 of `body`, lowercase hex: the generated `operationIdentifier`.
        public let id: String
        /// The operation's name.
        public let name: String
        /// `query`, `mutation` or `subscription`.
        public let type: String
        /// The generated `operationDocument`.
        public let body: String
    }

    /// Every operation generated.
    public let operations: [Operation]

    /// The manifest as JSON, operations sorted by name, two-space indented.
    public var json: String {
        var text = "{\n  \"format\": \"apollo-persisted-query-manifest\",\n  \"version\": 1,\n  \"operations\": ["
        for (offset, operation) in operations.enumerated() {
            text += offset == 0 ? "\n" : ",\n"
            text += "    {\n"
            text += "      \"id\": \(jsonString(operation.id)),\n"
            text += "      \"name\": \(jsonString(operation.name)),\n"
            text += "      \"type\": \(jsonString(operation.type)),\n"
            text += "      \"body\": \(jsonString(operation.body))\n"
            text += "    }"
        }
        text += operations.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return text
    }

    /// A JSON string literal: GraphQL's string escapes are JSON's.
    private func jsonString(_ text: String) -> String {
        DocumentPrinter.quoted(text)
    }
}
