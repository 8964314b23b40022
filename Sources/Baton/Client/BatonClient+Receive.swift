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
    /// part, watch refetches, the `Mutator`). One walk of the store's executor checks the
    /// response against the operation's selections (a mismatch throws and writes nothing) and
    /// normalizes it, before the store's lock; it is published in one commit as `receipt` says
    /// (a field the server nulled for an error in `errors` keeps the error in the store), and the result is the data in the store's
    /// shape (record IDs filled in for `__id`) without reading it back. Only an operation with a
    /// `@connection` field is read back, for the merged connection.
    ///
    /// The response's HTTP `Cache-Control` counts: `no-store` writes nothing to the store (an
    /// optimistic update it answers is reverted), `max-age` dates its fields' expiry.
    ///
    /// A query's whole response whose bytes are exactly those of the last response to the same
    /// request (the transport handed back the kept body) is not executed again: the payload,
    /// errors, extensions and typed data kept from then are taken, and the payload is committed
    /// as above, so the store, its watchers and its persistent cache see what a full receive
    /// would give them (``KeptResponses``).
    func receive<Operation: GraphQLOperation>(
        _ response: GraphQLResponse, for operation: Operation, _ receipt: Receipt = Receipt()
    ) throws -> GraphQLResult<Operation.Data> {
        let name = Operation.operationName
        // The descriptor the client's body reader made for this operation, else a new one.
        let descriptor = response.prepared?.descriptor ?? OperationDescriptor(operation: operation)
        // A whole response to a query: kept, and when its bytes repeat the last one's, what the
        // receive made of them then is taken instead of executing them again (KeptResponses).
        let keep: (key: KeptResponses.Key, body: ParsedResponseBody)? =
            if let body = response.parsedFrom, response.patches == nil, !response.hasNext,
                let key = keptResponses.key(for: operation)
            { (key, body) } else { nil }
        let kept = keep.flatMap { keptResponses.outcome(for: $0.key, body: $0.body) as? KeptOutcome<Operation.Data> }
        let errors: [GraphQLError]?
        let extensions: JSONObject?
        let prepared: PreparedPayload?
        if let kept {
            (errors, extensions, prepared) = (kept.errors, kept.extensions, kept.prepared)
        } else {
            do {
                (errors, extensions) = try response.errorsAndExtensions(operationName: name)
                let object = try response.dataObject(operationName: name)
                // GraphQL over HTTP, and the same for every transport (a subscription's event, an
                // operation over a WebSocket): `data` null means the operation failed and
                // `errors` says why; with neither, the caller would get nothing at all.
                if object == nil, errors == nil, response.patches == nil {
                    throw BatonError.invalidResponse(operationName: name, reason: "`data` is null and there are no `errors`")
                }
                if let object {
                    let fieldErrors = errors ?? []
                    do {
                        // A later part of an incremental response: only what it added, at its paths
                        // (an operation that selects `__id` is taken whole, for the IDs in its data).
                        if let patches = response.patches, !Operation.Data.__selections.selectsRecordID,
                            let part = try store.prepare(
                                patches: patches.map { ($0.path, $0.data) }, in: object, for: descriptor, errors: fieldErrors)
                        {
                            prepared = part
                        } else if response.patches == nil, let read = response.prepared, let payload = try read.payload?.get() {
                            // Read by the client's reader in the transport's one walk over the bytes.
                            prepared = payload
                            if read.readFromBytes { bodiesReadFromBytes.withLock { $0 += 1 } }
                        } else {
                            prepared = try store.prepare(data: object, for: descriptor, errors: fieldErrors)
                        }
                    } catch {
                        throw BatonError.dataMismatch(operationName: name, error)
                    }
                } else {
                    prepared = nil
                }
            } catch {
                if let layer = receipt.replacing { store.revertOptimisticUpdate(layer) }
                throw error
            }
        }
        guard let prepared else {
            if let layer = receipt.replacing { store.revertOptimisticUpdate(layer) }
            if kept == nil, let keep {
                keptResponses.keep(
                    keep.body,
                    outcome: KeptOutcome<Operation.Data>(errors: errors, extensions: extensions, prepared: nil, typed: nil),
                    for: keep.key)
            }
            return GraphQLResult(data: nil, errors: errors, extensions: extensions, source: .server)
        }
        let cacheControl = response.httpResponse.map { CacheControl($0.headerFields) } ?? CacheControl()
        let writes = receipt.writesToStore && !cacheControl.noStore
        if writes {
            store.publish(
                prepared, fetched: receipt.fetched, updater: receipt.updater, replacing: receipt.replacing,
                silencing: receipt.silencing, received: cacheControl.responseAge)
            if receipt.keepsInReleaseBuffer { store.retain(descriptor).release() }
        } else if let layer = receipt.replacing {
            store.revertOptimisticUpdate(layer)
        }
        // Field errors are in the data where the server nulled a field for them (the executor put
        // them there); `@catch`, `@required` and `@throwOnFieldError` apply to them here.
        let read: TypedRead<Operation.Data>
        if let typed = kept?.typed {
            read = typed
            logRequiredNulls(at: read.requiredNulls, operationName: name)
        } else {
            read = try typedRead(
                Operation.Data.self, checked: prepared.data, variables: descriptor.variables, operationName: name)
            if let keep {
                keptResponses.keep(
                    keep.body, outcome: KeptOutcome(errors: errors, extensions: extensions, prepared: prepared, typed: read),
                    for: keep.key)
            }
        }
        let result = GraphQLResult(
            data: read.data, errors: errors, extensions: extensions, source: .server, caughtFieldError: read.caught)
        return readBackIfNeeded(result, for: operation, response: response, published: writes)
    }
}

/// What a receive made of a response's bytes, kept with them (``KeptResponses``): everything
/// that depends on the bytes, the operation and its variables alone, nothing that depends on
/// the store.
struct KeptOutcome<Data: RootSelectionSet>: Sendable {
    let errors: [GraphQLError]?
    let extensions: JSONObject?
    /// The executed payload, committed again for a repeat; `nil` when the response had no data.
    let prepared: PreparedPayload?
    /// The typed data over the payload's data; `nil` when the response had no data.
    let typed: TypedRead<Data>?
}
