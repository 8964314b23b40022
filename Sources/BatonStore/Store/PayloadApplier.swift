import BatonAPI

/// A payload executed for an operation: its records and the directive handlers it calls for.
/// Made without the store (no lock held), so publishes from several tasks execute in parallel;
/// only ``PayloadApplier/apply(_:lookup:updater:)`` needs the store's records.
struct NormalizedPayload: Sendable {
    /// The payload in the store's shape: `__id` filled in where selected. Updaters get it (as
    /// relay-runtime's updaters get the payload read through the operation's selector), on
    /// either walk of the executor.
    let shapedData: JSONObject
    let descriptor: OperationDescriptor
    let cacheKeys: CacheKeyConfiguration
    private(set) var records: RecordSource
    let handles: [HandleInvocation]

    /// The records, moved out (the payload keeps none). A commit that holds the only reference
    /// to their table takes it over as the store's when the store holds fewer records (a first
    /// response); a reference kept here would make that a copy of every record.
    mutating func takeRecords() -> RecordSource {
        var taken = RecordSource()
        swap(&taken, &records)
        return taken
    }
}

/// Applies a server or optimistic payload: normalize, run the directive handlers, then the
/// updater, all as one set of changes.
enum PayloadApplier {
    typealias Updater = @Sendable (RecordSourceProxy, JSONObject) -> Void

    /// Normalizes `data` for `descriptor` (no records are read: this runs before the store's lock).
    /// `normalize: false` keeps only the data, for an optimistic update made by its updater alone.
    static func normalize(
        data: JSONObject, descriptor: OperationDescriptor, errors: [GraphQLError], cacheKeys: CacheKeyConfiguration,
        normalize: Bool = true
    ) -> NormalizedPayload {
        guard normalize else {
            return NormalizedPayload(
                shapedData: data, descriptor: descriptor, cacheKeys: cacheKeys, records: RecordSource(), handles: [])
        }
        // Unchecked: nothing can throw.
        return (try? execute(data: data, descriptor: descriptor, errors: errors, cacheKeys: cacheKeys, checks: .none))
            ?? NormalizedPayload(
                shapedData: data, descriptor: descriptor, cacheKeys: cacheKeys, records: RecordSource(), handles: [])
    }

    /// Checks `data` against `descriptor`'s selections as `checks` says and normalizes it, in
    /// the one walk of ``ResponseExecutor`` (no records are read: this runs before the lock).
    static func execute(
        data: JSONObject, descriptor: OperationDescriptor, errors: [GraphQLError], cacheKeys: CacheKeyConfiguration,
        checks: ExecutionChecks
    ) throws(SelectionSetDecodingError) -> NormalizedPayload {
        let result = try ResponseExecutor.execute(
            data, selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables, cacheKeys: cacheKeys, checks: checks, errors: errors)
        return NormalizedPayload(
            shapedData: result.data, descriptor: descriptor, cacheKeys: cacheKeys, records: result.records,
            handles: result.handles)
    }

    /// The payload's changes over the records `lookup` gives: its records, then what its
    /// directive handlers and `updater` change (under the store's lock).
    static func apply(_ payload: NormalizedPayload, lookup: @escaping Reader.Lookup, updater: Updater?) -> StoreChanges {
        apply(payload, records: payload.records, lookup: lookup, updater: updater)
    }

    /// ``apply(_:lookup:updater:)`` that takes the payload's records out of it
    /// (``NormalizedPayload/takeRecords()``), so that the changes hold the only reference to them.
    static func apply(taking payload: inout NormalizedPayload, lookup: @escaping Reader.Lookup, updater: Updater?) -> StoreChanges
    {
        let records = payload.takeRecords()
        return apply(payload, records: consume records, lookup: lookup, updater: updater)
    }

    private static func apply(
        _ payload: NormalizedPayload, records normalized: consuming RecordSource, lookup: @escaping Reader.Lookup,
        updater: Updater?
    ) -> StoreChanges {
        if payload.handles.isEmpty && updater == nil {
            return StoreChanges(records: normalized)
        }
        var changes = StoreChanges(records: RecordSource())
        let edits: RecordSource
        do {
            // Scoped: the proxy's base holds the records, and must let go of them before they
            // take the edits (else that copies every record).
            let base = copy normalized
            let proxy = RecordSourceProxy(
                base: { RecordState.layered(base.state(of: $0), over: lookup($0)) }, cacheKeys: payload.cacheKeys)
            for handle in payload.handles { DirectiveHandler.run(proxy, handle, variables: payload.descriptor.variables) }
            updater?(proxy, payload.shapedData)
            (edits, changes.invalidations, changes.readIDs) = (proxy.changes, proxy.invalidations, proxy.readIDs)
        }
        var records = consume normalized
        records.apply(edits)
        changes.records = records
        return changes
    }

    /// ``normalize(data:descriptor:errorPaths:cacheKeys:normalize:)`` and ``apply(_:lookup:updater:)`` in one.
    static func apply(
        data: JSONObject, descriptor: OperationDescriptor, errors: [GraphQLError], cacheKeys: CacheKeyConfiguration,
        lookup: @escaping Reader.Lookup, updater: Updater?, normalize: Bool = true
    ) -> StoreChanges {
        apply(
            Self.normalize(data: data, descriptor: descriptor, errors: errors, cacheKeys: cacheKeys, normalize: normalize),
            lookup: lookup, updater: updater)
    }
}
