import BatonAPI

/// Applies a server or optimistic payload: normalize, run the directive handlers, then the
/// updater, all as one set of changes.
enum PayloadApplier {
    typealias Updater = @Sendable (RecordSourceProxy, JSONObject) -> Void

    static func apply(
        data: JSONObject, descriptor: OperationDescriptor, errorPaths: [ResponsePath], cacheKeys: CacheKeyConfiguration,
        lookup: @escaping Reader.Lookup, updater: Updater?, normalize: Bool = true
    ) -> StoreChanges {
        let (normalized, handles) =
            normalize
            ? ResponseNormalizer.normalizeWithHandles(
                data, selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
                variables: descriptor.variables, cacheKeys: cacheKeys, errorPaths: errorPaths)
            : (RecordSource(), [])
        if handles.isEmpty && updater == nil {
            return StoreChanges(records: normalized)
        }
        let proxy = RecordSourceProxy(base: { RecordState.layered(normalized.state(of: $0), over: lookup($0)) }, cacheKeys: cacheKeys)
        for handle in handles { DirectiveHandler.run(proxy, handle, variables: descriptor.variables) }
        updater?(proxy, data)
        var records = normalized
        records.apply(proxy.changes)
        return StoreChanges(records: records, invalidations: proxy.invalidations, readIDs: proxy.readIDs)
    }
}
