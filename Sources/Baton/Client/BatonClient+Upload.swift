import BatonAPI
import Dispatch

extension BatonClient {
    /// Performs an operation (usually a mutation) with files, by the GraphQL multipart request
    /// spec, and publishes its response to the store. Each file's `fieldName` names the variable
    /// it fills; files on disk are streamed, never read whole into memory.
    ///
    /// ```swift
    /// guard let file = GraphQLFile(fieldName: "file", originalName: "a.txt", mimeType: "text/plain", fileURL: url)
    /// else { return }
    /// let result = try await client.upload(operation: SingleUploadMutation(file: "a.txt"), files: [file])
    /// ```
    public func upload<Operation: GraphQLOperation>(
        operation: Operation, files: [GraphQLFile]
    ) async throws -> GraphQLResult<Operation.Data> {
        guard let transport = networkTransport as? any UploadingNetworkTransport else {
            throw BatonError.uploadsNotSupported(operationName: Operation.operationName)
        }
        return try await observing(operation) {
            let response = try await self.expectingKeptBody(for: operation) { try await transport.upload(operation: operation, files: files) }
            return try self.receive(response, for: operation, Receipt(fetched: Operation.operationType == .query))
        }
    }

    /// Uploads files with an operation, as ``upload(operation:files:)``, and calls
    /// `resultHandler` on the main actor with the outcome (Apollo iOS's callback form).
    ///
    /// ```swift
    /// client.upload(operation: SingleUploadMutation(file: "a.txt"), files: [file]) { result in
    ///     if case .success(let graphQLResult) = result { print(graphQLResult.data?.singleUpload.id ?? "") }
    /// }
    /// ```
    @discardableResult
    public func upload<Operation: GraphQLOperation>(
        operation: Operation, files: [GraphQLFile],
        resultHandler: @escaping @MainActor @Sendable (Result<GraphQLResult<Operation.Data>, any Error>) -> Void
    ) -> any Cancellable {
        deliver(single { try await self.upload(operation: operation, files: files) }, onMainActor: resultHandler)
    }

    /// Uploads files with an operation and calls `resultHandler` on the main actor with the
    /// outcome, as ``upload(operation:files:resultHandler:)`` does: `queue: .main` written out.
    @discardableResult
    public func upload<Operation: GraphQLOperation>(
        operation: Operation, files: [GraphQLFile], queue: MainActorQueue,
        resultHandler: @escaping @MainActor @Sendable (Result<GraphQLResult<Operation.Data>, any Error>) -> Void
    ) -> any Cancellable {
        upload(operation: operation, files: files, resultHandler: resultHandler)
    }

    /// Uploads files with an operation and calls `resultHandler` on `queue` with the outcome.
    @_disfavoredOverload
    @discardableResult
    public func upload<Operation: GraphQLOperation>(
        operation: Operation, files: [GraphQLFile], queue: DispatchQueue,
        resultHandler: @escaping @Sendable (Result<GraphQLResult<Operation.Data>, any Error>) -> Void
    ) -> any Cancellable {
        deliver(single { try await self.upload(operation: operation, files: files) }, on: queue, resultHandler)
    }
}
