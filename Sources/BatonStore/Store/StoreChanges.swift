import BatonAPI

/// What one write does to the store: record changes, invalidations, and the records it read.
struct StoreChanges {
    var records: RecordSource
    var invalidations = Invalidations()
    /// The records the write read (for rebasing optimistic updates).
    var readIDs = Set<DataID>()
    /// Records to drop from memory (garbage collection): they become missing, not deleted.
    var evictions = Set<DataID>()
    /// Everything goes first: records, roots, invalidation marks (`clear()`).
    var clearsAll = false
}

/// Invalidations carried by a publish.
public struct Invalidations: Sendable, Hashable {
    public var store: Bool
    public var records: Set<DataID>

    public init(store: Bool = false, records: Set<DataID> = []) {
        self.store = store
        self.records = records
    }
}
