import BatonAPI

/// The records as an updater sees them (Relay's `RecordSourceProxy`): read any record, create,
/// delete, and edit through ``RecordProxy``. Edits are collected and published together when
/// the update ends. Valid only inside the update closure.
public final class RecordSourceProxy {
    let base: Reader.Lookup
    public let cacheKeys: CacheKeyConfiguration
    /// The edits so far, published when the update ends.
    public private(set) var changes = RecordSource()
    var invalidations = Invalidations()
    /// Every record read from `base`: an optimistic update that read a record the server then
    /// changed is computed again.
    private(set) var readIDs = Set<DataID>()

    init(base: @escaping Reader.Lookup, cacheKeys: CacheKeyConfiguration) {
        self.base = base
        self.cacheKeys = cacheKeys
    }

    /// The current state of a record: edited, else as in the store.
    func state(of id: DataID) -> RecordState? {
        readIDs.insert(id)
        return RecordState.layered(changes.state(of: id), over: base(id))
    }

    func record(_ id: DataID) -> Record? {
        if case .present(let record)? = state(of: id) { return record }
        return nil
    }

    func write(_ id: DataID, typename: String? = nil, key: String? = nil, value: RecordValue? = nil) {
        var edited = changes[id] ?? Record(id: id, typename: typename ?? record(id)?.typename)
        if let typename { edited.typename = typename }
        if let key, let value { edited.fields[key] = value }
        changes.set(edited)
    }

    /// The root record (`client:root`), parent of the root fields.
    public var root: RecordProxy { RecordProxy(source: self, id: .rootID) }

    /// A record, or `nil` when it is missing or deleted.
    public func get(_ id: DataID) -> RecordProxy? {
        record(id) == nil ? nil : RecordProxy(source: self, id: id)
    }

    /// Creates a record (or returns the existing one with that ID).
    @discardableResult
    public func create(id: DataID, typename: String) -> RecordProxy {
        if record(id) == nil {
            changes.set(Record(id: id, typename: typename))
        }
        return RecordProxy(source: self, id: id)
    }

    /// Deletes a record: readers see null where it was linked.
    public func delete(_ id: DataID) {
        changes.delete(id)
    }

    /// Makes every operation stale for the next cache-policy check.
    public func invalidateStore() {
        invalidations.store = true
    }
}

/// One record as an updater edits it (Relay's `RecordProxy`). Field names with arguments are
/// stored under storage keys (`todos(first:10)`), so pass the arguments.
public final class RecordProxy {
    let source: RecordSourceProxy
    public let dataID: DataID

    init(source: RecordSourceProxy, id: DataID) {
        self.source = source
        dataID = id
    }

    private var current: Record? { source.record(dataID) }

    public var typename: String? { current?.typename }

    /// A scalar field's value; `nil` when missing or when the field holds links.
    public func getValue(_ name: String, arguments: [String: JSONValue] = [:]) -> JSONValue? {
        current?.fields[StorageKey.make(fieldName: name, arguments: arguments)]?.scalarValue
    }

    @discardableResult
    public func setValue(_ value: JSONValue, _ name: String, arguments: [String: JSONValue] = [:]) -> RecordProxy {
        source.write(dataID, key: StorageKey.make(fieldName: name, arguments: arguments), value: .scalar(value))
        return self
    }

    /// The record a field links to, or `nil`.
    public func getLinkedRecord(_ name: String, arguments: [String: JSONValue] = [:]) -> RecordProxy? {
        guard let id = current?.fields[StorageKey.make(fieldName: name, arguments: arguments)]?.linkedID else { return nil }
        return source.get(id)
    }

    /// Links a field to a record, or to null with `nil`.
    @discardableResult
    public func setLinkedRecord(_ record: RecordProxy?, _ name: String, arguments: [String: JSONValue] = [:]) -> RecordProxy {
        let key = StorageKey.make(fieldName: name, arguments: arguments)
        source.write(dataID, key: key, value: record.map { .link($0.dataID) } ?? .null)
        return self
    }

    /// The records a list field links to (nulls as `nil`), or `nil` when the field is not a list of links.
    public func getLinkedRecords(_ name: String, arguments: [String: JSONValue] = [:]) -> [RecordProxy?]? {
        guard let ids = current?.fields[StorageKey.make(fieldName: name, arguments: arguments)]?.linkedIDs else { return nil }
        return ids.map { id in id.flatMap { source.get($0) } }
    }

    @discardableResult
    public func setLinkedRecords(_ records: [RecordProxy?], _ name: String, arguments: [String: JSONValue] = [:]) -> RecordProxy {
        let key = StorageKey.make(fieldName: name, arguments: arguments)
        source.write(dataID, key: key, value: .list(records.map { $0.map { .link($0.dataID) } ?? .null }))
        return self
    }

    /// The linked record, created with a client ID when the field links nowhere yet.
    public func getOrCreateLinkedRecord(_ name: String, typename: String, arguments: [String: JSONValue] = [:]) -> RecordProxy {
        if let existing = getLinkedRecord(name, arguments: arguments) { return existing }
        let key = StorageKey.make(fieldName: name, arguments: arguments)
        let created = source.create(id: ClientID.make(parentID: dataID, storageKey: key), typename: typename)
        setLinkedRecord(created, name, arguments: arguments)
        return created
    }

    /// Copies every field of another record onto this one.
    public func copyFields(from other: RecordProxy) {
        guard let fields = other.current?.fields else { return }
        for (key, value) in fields { source.write(dataID, key: key, value: value) }
    }

    /// Makes operations that read this record stale for the next cache-policy check.
    public func invalidateRecord() {
        source.invalidations.records.insert(dataID)
    }
}
