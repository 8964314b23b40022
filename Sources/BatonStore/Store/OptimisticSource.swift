import BatonAPI

/// An optimistic update: its recipe, and the changes it made when last computed.
struct OptimisticLayer {
    let id: Int
    let recipe: @Sendable (@escaping Reader.Lookup) -> StoreChanges
    var changes: StoreChanges
}

/// The pending optimistic updates (relay-runtime's optimistic record source): an ordered list
/// of layers over the base records, their changes merged into one overlay, and indexes of which
/// layers read and wrote each record, so that a commit recomputes only the layers that read a
/// record it changed (relay-runtime runs them all again).
struct OptimisticSource {
    /// Pending optimistic updates by ID (IDs grow, so their order is the order applied).
    private(set) var layers: [Int: OptimisticLayer] = [:]
    private(set) var layerOrder: [Int] = []
    /// The layers' changes merged, in order (on top of the base records).
    private(set) var overlay = RecordSource()
    var nextLayerID = 0
    /// For each record, how many layers read it and which layers (in order) wrote it: rebasing
    /// looks up only the layers concerned.
    private var readers: [DataID: Int] = [:]
    private var writers: [DataID: [Int]] = [:]

    var isEmpty: Bool { layers.isEmpty }
    var count: Int { layers.count }

    mutating func add(_ layer: OptimisticLayer) {
        layers[layer.id] = layer
        layerOrder.append(layer.id)
        index(layer)
        overlay.apply(layer.changes.records)
    }

    /// Removes a layer from the list and the indexes (not from the overlay: see ``rebase(changedBase:removed:baseLookup:)``).
    mutating func remove(_ id: Int) -> OptimisticLayer? {
        guard let layer = layers.removeValue(forKey: id) else { return nil }
        if layerOrder.first == id { layerOrder.removeFirst() } else { layerOrder.removeAll { $0 == id } }
        unindex(layer)
        return layer
    }

    private mutating func index(_ layer: OptimisticLayer) {
        for id in layer.changes.readIDs { readers[id, default: 0] += 1 }
        for id in layer.changes.records.ids { writers[id, default: []].append(layer.id) }
    }

    private mutating func unindex(_ layer: OptimisticLayer) {
        for id in layer.changes.readIDs {
            let count = (readers[id] ?? 1) - 1
            readers[id] = count > 0 ? count : nil
        }
        for id in layer.changes.records.ids {
            writers[id]?.removeAll { $0 == layer.id }
            if writers[id]?.isEmpty == true { writers[id] = nil }
        }
    }

    /// Brings the overlay up to date after the base changed (`changedBase`) and/or a layer was
    /// removed. A layer that read a record that changed is computed again; the others keep their
    /// changes. When no layer has to be computed again, only the removed layer's records are
    /// folded anew from the layers that wrote them, so the cost does not grow with the number of
    /// pending updates. Returns the IDs whose overlay entries may have changed, and the root
    /// fields among them.
    mutating func rebase(
        changedBase: Set<DataID>, removed: OptimisticLayer?, baseLookup: @escaping Reader.Lookup
    ) -> (ids: Set<DataID>, rootFields: Set<String>) {
        let removedIDs = removed.map { Set($0.changes.records.ids) } ?? []
        let needsRecompute =
            changedBase.contains { readers[$0] != nil } || removedIDs.contains { readers[$0] != nil }
        let before = overlay
        var touched: Set<DataID>
        if needsRecompute {
            overlay = RecordSource()
            var changedSoFar = changedBase.union(removedIDs)
            for layerID in layerOrder {
                guard var layer = layers[layerID] else { continue }
                if !layer.changes.readIDs.isDisjoint(with: changedSoFar) {
                    let base = baseLookup
                    let below = overlay
                    let lookup: Reader.Lookup = { RecordState.layered(below.state(of: $0), over: base($0)) }
                    unindex(layer)
                    changedSoFar.formUnion(layer.changes.records.ids)
                    layer.changes = layer.recipe(lookup)
                    changedSoFar.formUnion(layer.changes.records.ids)
                    layers[layerID] = layer
                    index(layer)
                }
                overlay.apply(layer.changes.records)
            }
            touched = Set(before.ids).union(overlay.ids)
        } else {
            for id in removedIDs {
                var state: RecordState?
                for layerID in writers[id] ?? [] {
                    if let edit = layers[layerID]?.changes.records.state(of: id) { state = RecordState.layered(edit, over: state) }
                }
                if let state { overlay.replace(id, with: state) } else { overlay.remove(id) }
            }
            touched = removedIDs
        }
        var rootFields = Set<String>()
        if touched.contains(.rootID) {
            for source in [before, overlay] {
                if let root = source[.rootID] { rootFields.formUnion(root.fields.keys) }
            }
        }
        return (touched, rootFields)
    }

}
