import BatonAPI

/// How the client takes one response in: whether it is written to the store, whether it counts
/// as the operation's fetch, and what goes with it (an updater, the optimistic update it
/// replaces, the watcher that does not hear of its own fetch).
struct Receipt {
    /// Normalize the response into the store (`false` for `.fetchIgnoringCacheCompletely`).
    var writesToStore = true
    /// The response is the operation's fetch: ``Store/check(_:)`` dates it.
    var fetched = false
    /// Keep the operation's records in the release buffer for later cache hits.
    var keepsInReleaseBuffer = false
    /// The watcher that takes the new data without being notified (a watch's own fetch).
    var silencing: StoreSubscription?
    /// Runs on the payload's records after its directive handlers, in the same commit.
    var updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)?
    /// The optimistic update this payload answers: removed in the same commit, or reverted when
    /// the response has no data or does not match the operation.
    var replacing: OptimisticUpdate?

    /// A query's response fetched from the server (written unless `writesToStore` is false).
    static func fetch(writesToStore: Bool = true, final: Bool = true) -> Receipt {
        Receipt(writesToStore: writesToStore, fetched: final, keepsInReleaseBuffer: final)
    }
}

extension BatonClient {
    /// The one receive: takes a transport's response for `operation` to its typed result, for
    /// every operation kind (`fetch`, `perform`, `upload`, subscriptions, each `@defer`/`@stream`
    /// part, watch refetches, the `Mutator`). Checks the response against the operation's
    /// selections (a mismatch throws and writes nothing), publishes its data to the store in one
    /// commit as `receipt` says (fields reported in `errors` are not written), and gives the
    /// data in the store's shape.
    func receive<Operation: GraphQLOperation>(
        _ response: GraphQLResponse, for operation: Operation, _ receipt: Receipt = Receipt()
    ) throws -> GraphQLResult<Operation.Data> {
        let result: GraphQLResult<Operation.Data>
        do {
            result = try response.result(for: operation, source: .server)
        } catch {
            if let layer = receipt.replacing { store.revertOptimisticUpdate(layer) }
            throw error
        }
        guard receipt.writesToStore else {
            return readBackIfNeeded(result, for: operation, response: response, published: false)
        }
        let descriptor = OperationDescriptor(operation: operation)
        if let data = response.body["data"]?.objectValue {
            let errorPaths = result.errors?.compactMap(\.path) ?? []
            store.publish(
                data: data, for: descriptor, errorPaths: errorPaths, fetched: receipt.fetched, updater: receipt.updater,
                replacing: receipt.replacing, silencing: receipt.silencing)
            if receipt.keepsInReleaseBuffer { store.retain(descriptor).release() }
        } else if let layer = receipt.replacing {
            store.revertOptimisticUpdate(layer)
        }
        return readBackIfNeeded(result, for: operation, response: response)
    }
}
