import BatonAPI
import BatonStore
import Foundation
import Logging
import Observation

/// Commits one kind of mutation, Relay style: an optimistic response and updater show the
/// result at once, the server's payload replaces it (directive handlers, then `updater`), and a
/// failure or cancellation rolls it back exactly. `isInFlight` is observable; it and the
/// completion change and run on the main actor, while the request and the store's work happen
/// elsewhere.
///
/// ```swift
/// let changeStatus = client.mutator(ChangeTodoStatusWithCountsMutation.self)
/// changeStatus.commit(
///     variables: ChangeTodoStatusWithCountsMutation(input: .init(complete: true, id: todo.id, userId: user.id)),
///     optimisticResponse: ["changeTodoStatus": ["__typename": "ChangeTodoStatusPayload", "todo": […], "user": […]]],
///     completion: { result in … })
/// ```
///
/// Add conveniences for one operation in an extension, as Relay.swift's page does:
/// `extension Mutation.Mutator where Operation == ChangeTodoStatusMutation { func commit(id:complete:) … }`
/// (`Mutator<Operation>` is `Mutation<Operation>.Mutator`). In SwiftUI, `@Mutation` keeps one in
/// the view's state.
///
/// A commit that fails always reaches the caller: through `completion`, through the returned
/// ``MutationCommit`` (`failure`, `result()`), and, when no completion was given, in the
/// client's `logger` at error level.
public typealias Mutator<Operation: GraphQLMutation> = Mutation<Operation>.Mutator

#if !canImport(SwiftUI)
    /// Where ``Mutator`` lives, as Relay.swift's `Mutation.Mutator` does; with SwiftUI, `Mutation`
    /// is also the `@Mutation` property wrapper.
    public enum Mutation<Operation: GraphQLMutation> {}
#endif

extension Mutation {
    /// Commits one kind of mutation: see ``Baton/Mutator``.
    @MainActor
    @Observable
    public final class Mutator {
        /// Edits the store with the mutation's data (`nil` for an optimistic updater without a response).
        public typealias Updater = @Sendable (RecordSourceProxy, Operation.Data?) -> Void
        /// Called once, on the main actor, with the server's result or the error.
        public typealias Completion = @MainActor (Result<GraphQLResult<Operation.Data>, any Error>) -> Void

        /// The client that sends the mutation and owns the store it updates (`nil` until `@Mutation`
        /// gets one from the environment).
        @ObservationIgnored public private(set) var client: BatonClient?
        private var inFlight = 0

        /// A mutator for `client`; `client.mutator(_:)` makes one too.
        public init(client: BatonClient) {
            self.client = client
        }

        /// A mutator without a client yet: `@Mutation` gives it the environment's.
        init() {}

        /// Gives the mutator its client (the SwiftUI wrapper's environment client).
        func use(_ client: BatonClient?) {
            if let client, self.client !== client { self.client = client }
        }

        /// Whether any commit of this mutator is waiting for the server. Observable.
        public var isInFlight: Bool { inFlight > 0 }

        /// Commits with an optimistic response given as typed data (the generated initializers:
        /// `Operation.Data(changeTodoStatus: .init(todo: .init(id: id, complete: true)))`).
        @discardableResult
        public func commit(
            variables: Operation,
            optimisticResponse: Operation.Data?,
            optimisticUpdater: Updater? = nil,
            updater: Updater? = nil,
            completion: Completion? = nil
        ) -> MutationCommit {
            start(variables, optimistic: .success(optimisticResponse?.jsonObject), checks: false, optimisticUpdater, updater, completion)
        }

        /// Commits, with an optimistic response given as a JSON literal, taken as Relay takes one:
        /// checked against the mutation's selections, where a concrete type needs no `__typename`
        /// and a field left out is not written (the record keeps its value). A value of the wrong
        /// type fails the commit with an error that names the path, and nothing is sent.
        @discardableResult
        public func commit(
            variables: Operation,
            optimisticResponse: JSONObject? = nil,
            optimisticUpdater: Updater? = nil,
            updater: Updater? = nil,
            completion: Completion? = nil
        ) -> MutationCommit {
            start(variables, optimistic: .success(optimisticResponse), checks: true, optimisticUpdater, updater, completion)
        }

        /// Commits, with an optimistic response as Relay.swift takes one, a `[String: Any]` whose
        /// values may come from Swift variables (`["todo": ["id": id, "complete": complete]]`).
        /// A value with no JSON form fails the commit with ``BatonError/invalidOptimisticResponse(operationName:path:reason:)``,
        /// naming its path; then the response is checked as a JSON literal is.
        @_disfavoredOverload
        @discardableResult
        public func commit(
            variables: Operation,
            optimisticResponse: [String: Any],
            optimisticUpdater: Updater? = nil,
            updater: Updater? = nil,
            completion: Completion? = nil
        ) -> MutationCommit {
            start(variables, optimistic: converted(optimisticResponse), checks: true, optimisticUpdater, updater, completion)
        }

        /// The literal converted to JSON (the store checks it when it applies it).
        func converted(_ response: [String: Any]) -> Result<JSONObject?, any Error> {
            do {
                return .success(try JSONObject(any: response))
            } catch {
                return .failure(
                    BatonError.invalidOptimisticResponse(
                        operationName: Operation.operationName, path: error.path, reason: "\(error.type) has no JSON form"))
            }
        }

        /// Starts a commit; `checks` has the store check the optimistic response (a literal, not
        /// typed data).
        private func start(
            _ operation: Operation, optimistic: Result<JSONObject?, any Error>, checks: Bool, _ optimisticUpdater: Updater?,
            _ updater: Updater?, _ completion: Completion?
        ) -> MutationCommit {
            guard let client else {
                let error = BatonError.noClient(operationName: Operation.operationName)
                report(error, completion: completion, logger: Self.fallbackLogger)
                return MutationCommit(failing: error, store: nil)
            }
            let store = client.store
            let descriptor = OperationDescriptor(operation: operation)
            let variables = operation.variablesJSON
            let optimisticData: JSONObject?
            switch optimistic {
            case .failure(let error):
                report(error, completion: completion, logger: client.logger)
                return MutationCommit(failing: error, store: store)
            case .success(let data):
                optimisticData = data
            }
            var layer: OptimisticUpdate?
            if optimisticData != nil || optimisticUpdater != nil {
                let typedUpdater = optimisticUpdater.map { updater in
                    { @Sendable (proxy: RecordSourceProxy, json: JSONObject) in
                        updater(proxy, try? Operation.Data(jsonObject: json, variables: variables))
                    }
                }
                if checks, let optimisticData {
                    do {
                        layer = try store.applyOptimisticResponse(optimisticData, for: descriptor, updater: typedUpdater)
                    } catch {
                        let failure = BatonError.dataMismatch(operationName: Operation.operationName, error)
                        report(failure, completion: completion, logger: client.logger)
                        return MutationCommit(failing: failure, store: store)
                    }
                } else {
                    layer = store.applyOptimisticUpdate(data: optimisticData, for: descriptor, updater: typedUpdater)
                }
            }
            inFlight += 1
            let appliedLayer = layer
            let logger = client.logger
            let task = Task { () -> (any Error)? in
                let outcome = await Self.send(operation, client: client, descriptor: descriptor, updater: updater, replacing: appliedLayer)
                self.inFlight -= 1
                if case .failure(let error) = outcome {
                    self.report(error, completion: completion, logger: logger)
                    return error
                }
                completion?(outcome)
                return nil
            }
            return MutationCommit(task: task, store: store, optimisticUpdate: appliedLayer)
        }

        /// Hands a failure to the completion, or, without one, to the logger at error level (a
        /// cancellation the caller asked for is logged at debug level).
        private func report(_ error: any Error, completion: Completion?, logger: Logger) {
            if let completion { return completion(.failure(error)) }
            if error is CancellationError {
                logger.debug("\(Operation.operationName): the commit was cancelled")
            } else {
                logger.error("\(Operation.operationName): the commit failed and no completion was given: \(error)")
            }
        }

        private static var fallbackLogger: Logger { Logger(label: "Baton.Mutator") }

        /// Sends the mutation and publishes its payload (or rolls the optimistic layer back), off
        /// the main actor.
        nonisolated private static func send(
            _ operation: Operation, client: BatonClient, descriptor: OperationDescriptor, updater: Updater?,
            replacing appliedLayer: OptimisticUpdate?
        ) async -> Result<GraphQLResult<Operation.Data>, any Error> {
            let store = client.store
            let variables = operation.variablesJSON
            do {
                try Task.checkCancellation()
                let response = try await client.sendObserved(operation)
                try Task.checkCancellation()
                let payloadUpdater = updater.map { updater in
                    { @Sendable (proxy: RecordSourceProxy, json: JSONObject) in
                        updater(proxy, try? Operation.Data(jsonObject: json, variables: variables))
                    }
                }
                return .success(try client.receive(response, for: operation, Receipt(updater: payloadUpdater, replacing: appliedLayer)))
            } catch {
                if let appliedLayer { store.revertOptimisticUpdate(appliedLayer) }
                return .failure(error)
            }
        }
    }
}

extension Mutation.Mutator where Operation: GraphQLMutationWithoutVariables {
    /// Commits a mutation that declares no variables: `commit()`.
    @discardableResult
    public func commit(
        optimisticResponse: JSONObject? = nil,
        optimisticUpdater: Updater? = nil,
        updater: Updater? = nil,
        completion: Completion? = nil
    ) -> MutationCommit {
        commit(
            variables: Operation(), optimisticResponse: optimisticResponse, optimisticUpdater: optimisticUpdater,
            updater: updater, completion: completion)
    }

    /// Commits a mutation that declares no variables, with a `[String: Any]` optimistic response.
    @_disfavoredOverload
    @discardableResult
    public func commit(
        optimisticResponse: [String: Any],
        optimisticUpdater: Updater? = nil,
        updater: Updater? = nil,
        completion: Completion? = nil
    ) -> MutationCommit {
        commit(
            variables: Operation(), optimisticResponse: optimisticResponse, optimisticUpdater: optimisticUpdater,
            updater: updater, completion: completion)
    }
}

/// A commit in flight. Cancelling it removes its optimistic update; if the server already has
/// the request, its response is ignored. It reports how the commit ended: `failure` (or
/// `immediateFailure`, known at once when the commit was refused before anything was sent).
public struct MutationCommit: Sendable {
    let task: Task<(any Error)?, Never>?
    let store: Store?
    let optimisticUpdate: OptimisticUpdate?
    /// The error that refused the commit before anything was sent (an optimistic response that
    /// does not fit the mutation, no client); `nil` for a commit that was sent.
    public let immediateFailure: (any Error)?

    init(task: Task<(any Error)?, Never>, store: Store, optimisticUpdate: OptimisticUpdate?) {
        self.task = task
        self.store = store
        self.optimisticUpdate = optimisticUpdate
        immediateFailure = nil
    }

    init(failing error: any Error, store: Store?) {
        task = nil
        self.store = store
        optimisticUpdate = nil
        immediateFailure = error
    }

    /// Cancels the commit: its optimistic update is removed at once, and a response that still
    /// arrives is not applied; the completion gets a `CancellationError`.
    public func cancel() {
        task?.cancel()
        if let optimisticUpdate { store?.revertOptimisticUpdate(optimisticUpdate) }
    }

    /// Waits until the commit has finished (its completion has run).
    public func finished() async { _ = await task?.value }

    /// Waits until the commit has finished; the error that failed it, or `nil` when it succeeded.
    public var failure: (any Error)? {
        get async {
            if let immediateFailure { return immediateFailure }
            return await task?.value ?? nil
        }
    }

    /// Waits until the commit has finished, and throws the error that failed it.
    public func get() async throws {
        if let error = await failure { throw error }
    }
}

extension BatonClient {
    /// A mutator for one mutation type.
    @MainActor
    public func mutator<Operation: GraphQLMutation>(_ type: Operation.Type) -> Mutator<Operation> {
        Mutator<Operation>(client: self)
    }
}
