import BatonAPI
import Dispatch
import Foundation
import HTTPTypes

/// The client apps talk to: fetch queries, perform mutations.
///
/// ```swift
/// let client = BatonClient(url: URL(string: "http://127.0.0.1:4000/graphql")!)
/// let result = try await client.fetch(query: HeroNameQuery(episode: .empire))
/// print(result.data?.hero?.name ?? "none", result.errors ?? [])
/// ```
///
/// A transport or parse failure throws a ``BatonError``; a response with GraphQL `errors` is a
/// result whose `errors` are set, with any partial `data`.
public final class BatonClient: Sendable {
    public let networkTransport: any NetworkTransport

    /// A client over HTTP to `url`, with optional fixed headers, interceptors and a preflight
    /// step that runs last before each request leaves.
    public convenience init(
        url: URL,
        headerFields: HTTPFields = [:],
        interceptors: [any GraphQLInterceptor] = [],
        httpClient: any HTTPClient = URLSessionHTTPClient(),
        timeout: Duration? = nil,
        preflight: PreflightInterceptor.Decide? = nil
    ) {
        var chain = interceptors
        if let preflight { chain.append(PreflightInterceptor(preflight)) }
        self.init(
            networkTransport: RequestChainNetworkTransport(
                url: url, headerFields: headerFields, interceptors: chain, httpClient: httpClient, timeout: timeout))
    }

    public init(networkTransport: any NetworkTransport) {
        self.networkTransport = networkTransport
    }

    /// Fetches a query from the server.
    public func fetch<Query: GraphQLQuery>(query: Query) async throws -> GraphQLResult<Query.Data> {
        try await execute(query)
    }

    /// Performs a mutation.
    public func perform<Mutation: GraphQLMutation>(mutation: Mutation) async throws -> GraphQLResult<Mutation.Data> {
        try await execute(mutation)
    }

    /// Fetches a query and delivers the outcome on `queue`. Cancel through the returned handle.
    @discardableResult
    public func fetch<Query: GraphQLQuery>(
        query: Query,
        queue: DispatchQueue = .main,
        resultHandler: @escaping @Sendable (Result<GraphQLResult<Query.Data>, any Error>) -> Void
    ) -> any Cancellable {
        deliver(on: queue, resultHandler) { try await self.fetch(query: query) }
    }

    /// Performs a mutation and delivers the outcome on `queue`. Cancel through the returned handle.
    @discardableResult
    public func perform<Mutation: GraphQLMutation>(
        mutation: Mutation,
        queue: DispatchQueue = .main,
        resultHandler: @escaping @Sendable (Result<GraphQLResult<Mutation.Data>, any Error>) -> Void
    ) -> any Cancellable {
        deliver(on: queue, resultHandler) { try await self.perform(mutation: mutation) }
    }

    /// The one path every operation takes. The normalized store plugs in here: a cache policy
    /// decides whether to read it first, and server responses are published to it.
    private func execute<Operation: GraphQLOperation>(_ operation: Operation) async throws -> GraphQLResult<Operation.Data> {
        let response = try await networkTransport.send(operation: operation)
        return try response.result(for: operation, source: .server)
    }

    private func deliver<Value: Sendable>(
        on queue: DispatchQueue,
        _ handler: @escaping @Sendable (Result<Value, any Error>) -> Void,
        _ work: @escaping @Sendable () async throws -> Value
    ) -> any Cancellable {
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            queue.async { handler(result) }
        }
        return TaskCancellable(task: task)
    }
}

/// A handle to an operation in flight.
public protocol Cancellable: Sendable {
    func cancel()
}

struct TaskCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() { task.cancel() }
}
