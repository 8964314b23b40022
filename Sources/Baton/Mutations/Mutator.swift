import BatonAPI
import BatonStore
import Foundation
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
/// Add conveniences for one operation in an extension:
/// `extension Mutator where Operation == ChangeTodoStatusWithCountsMutation { func commit(todo:complete:) … }`.
/// In SwiftUI, `@Mutation` keeps one in the view's state.
@MainActor
@Observable
public final class Mutator<Operation: GraphQLMutation> {
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

    /// Commits with an optimistic response given as typed data.
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
    /// checked against the mutation's selections, where a concrete type needs no `__typename` and
    /// a field left out is not written (the record keeps its value). A value of the wrong type
    /// fails the commit with an error that names the path (logged when there is no
    /// `completion`), and nothing is sent.
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

    /// Starts a commit; `checks` has the store check the optimistic response (a JSON literal).
    private func start(
        _ operation: Operation, optimistic: Result<JSONObject?, any Error>, checks: Bool, _ optimisticUpdater: Updater?,
        _ updater: Updater?, _ completion: Completion?
    ) -> MutationCommit {
        guard let client else {
            completion?(.failure(BatonError.noClient(operationName: Operation.operationName)))
            return MutationCommit(task: nil, store: nil, optimisticUpdate: nil)
        }
        let store = client.store
        let descriptor = OperationDescriptor(operation: operation)
        let variables = operation.variablesJSON
        let optimisticData: JSONObject?
        switch optimistic {
        case .failure(let error):
            completion?(.failure(error))
            return MutationCommit(task: nil, store: store, optimisticUpdate: nil)
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
                    if let completion {
                        completion(.failure(failure))
                    } else {
                        client.logger.error("\(Operation.operationName)'s optimistic response was refused: \(failure)")
                    }
                    return MutationCommit(task: nil, store: store, optimisticUpdate: nil)
                }
            } else {
                layer = store.applyOptimisticUpdate(data: optimisticData, for: descriptor, updater: typedUpdater)
            }
        }
        inFlight += 1
        let appliedLayer = layer
        let task = Task {
            let outcome = await Self.send(operation, client: client, descriptor: descriptor, updater: updater, replacing: appliedLayer)
            self.inFlight -= 1
            completion?(outcome)
        }
        return MutationCommit(task: task, store: store, optimisticUpdate: appliedLayer)
    }

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

/// A commit in flight. Cancelling it removes its optimistic update; if the server already has
/// the request, its response is ignored.
public struct MutationCommit: Sendable {
    let task: Task<Void, Never>?
    let store: Store?
    let optimisticUpdate: OptimisticUpdate?

    /// Cancels the commit: its optimistic update is removed at once, and a response that still
    /// arrives is not applied; the completion gets a `CancellationError`.
    public func cancel() {
        task?.cancel()
        if let optimisticUpdate { store?.revertOptimisticUpdate(optimisticUpdate) }
    }

    /// Waits until the commit has finished (its completion has run).
    public func finished() async { await task?.value }
}

extension BatonClient {
    /// A mutator for one mutation type.
    @MainActor
    public func mutator<Operation: GraphQLMutation>(_ type: Operation.Type) -> Mutator<Operation> {
        Mutator(client: self)
    }
}
