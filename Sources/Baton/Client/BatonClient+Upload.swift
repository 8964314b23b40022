import BatonAPI

extension BatonClient {
    /// Performs an operation (usually a mutation) with files, by the GraphQL multipart request
    /// spec, and publishes its response to the store. Each file's `fieldName` names the variable
    /// it fills; files on disk are streamed, never read whole into memory.
    ///
    /// ```swift
    /// let file = GraphQLFile(fieldName: "file", originalName: "a.txt", mimeType: "text/plain", fileURL: url)
    /// let result = try await client.upload(operation: SingleUploadMutation(file: "a.txt"), files: [file])
    /// ```
    public func upload<Operation: GraphQLOperation>(
        operation: Operation, files: [GraphQLFile]
    ) async throws -> GraphQLResult<Operation.Data> {
        guard let transport = networkTransport as? any UploadingNetworkTransport else {
            throw BatonError.uploadsNotSupported(operationName: Operation.operationName)
        }
        return try await observing(operation) {
            let response = try await transport.upload(operation: operation, files: files)
            return try self.receive(response, for: operation, Receipt(fetched: Operation.operationType == .query))
        }
    }
}
