import BatonAPI

/// What a record source knows about an ID: the record, or that it was deleted. An ID it does
/// not know at all is *missing* (unknown), which is different from *deleted* (known to be gone).
public enum RecordState: Sendable, Hashable {
    case present(Record)
    case deleted
}

extension RecordState {
    /// `overlay` (a partial record of edits, or a deletion) on top of `base`: fields of the
    /// overlay replace the base's, the rest stay.
    public static func layered(_ overlay: RecordState?, over base: RecordState?) -> RecordState? {
        switch (overlay, base) {
        case (nil, let base): return base
        case (.deleted?, _): return .deleted
        case (.present(let edits)?, .present(var original)?):
            if let typename = edits.typename { original.typename = typename }
            for (key, value) in edits.fields { original.fields[key] = value.merged(over: original.fields[key]) }
            return .present(original)
        case (.present(let edits)?, _): return .present(edits)
        }
    }
}

/// A set of records by ID, with deletions kept apart from unknown IDs.
public struct RecordSource: Sendable, Hashable {
    public private(set) var states: [DataID: RecordState]

    public init(_ states: [DataID: RecordState] = [:]) {
        self.states = states
    }

    public init(records: [Record]) {
        states = Dictionary(records.map { ($0.id, .present($0)) }, uniquingKeysWith: { _, last in last })
    }

    /// The record, or `nil` when deleted or missing (see ``state(of:)``).
    public subscript(id: DataID) -> Record? {
        if case .present(let record)? = states[id] { return record }
        return nil
    }

    /// `nil` when the ID is missing (unknown to this source).
    public func state(of id: DataID) -> RecordState? { states[id] }

    /// Whether the source knows `id` (a record or a deletion), without copying its state.
    @inlinable public func contains(_ id: DataID) -> Bool { states.index(forKey: id) != nil }

    public var count: Int { states.count }
    public var ids: Dictionary<DataID, RecordState>.Keys { states.keys }

    public mutating func set(_ record: Record) { states[record.id] = .present(record) }
    /// Sets a record, or, when its ID has a record already, merges its fields over that one. The
    /// merged record takes this typename when `replacesTypename`, else keeps its own unless it
    /// has none: the executor's way of keeping what it walked.
    ///
    /// The record is taken `__owned`, not `consuming`: with `consuming` this compiler copied
    /// each record into its state and destroyed the original (five retains and five releases
    /// per record, in the GitHub receive a tenth of all its reference counting).
    mutating func merge(_ record: __owned Record, replacesTypename: Bool) {
        if let index = states.index(forKey: record.id) {
            Self.merge(record, into: &states.values[index], replacesTypename: replacesTypename)
            return
        }
        // An ID met for the first time (most of them): the record moves into the table.
        let id = record.id
        states[id] = .present(record)
    }

    private static func merge(_ record: __owned Record, into state: inout RecordState, replacesTypename: Bool) {
        guard case .present(let existing) = state else {
            state = .present(record)
            return
        }
        if record.fields.replacesEveryValue(of: existing.fields) {
            // The same fields again (an object met twice, read by the same selections): every
            // value is replaced, so the new record takes the old one's place whole.
            if !replacesTypename, let typename = existing.typename {
                var record = record
                record.typename = typename
                state = .present(record)
            } else {
                state = .present(record)
            }
            return
        }
        var merged = existing
        state = .deleted  // so that `merged` is the only reference to its storage
        if replacesTypename || merged.typename == nil { merged.typename = record.typename }
        merged.fields.merge(record.fields)
        state = .present(merged)
    }

    /// Makes room for `count` IDs in all.
    mutating func reserveCapacity(_ count: Int) { states.reserveCapacity(count) }

    /// Sets an ID's state when the source does not know the ID; returns whether it did (one lookup).
    mutating func insertIfMissing(_ id: DataID, _ state: RecordState) -> Bool {
        let before = states.count
        func visit(_: inout RecordState) {}
        visit(&states[id, default: state])
        return states.count != before
    }

    /// Sets an ID's state as it is, without merging.
    public mutating func replace(_ id: DataID, with state: RecordState) { states[id] = state }
    public mutating func delete(_ id: DataID) { states[id] = .deleted }
    /// Forgets an ID entirely: it becomes missing again.
    public mutating func remove(_ id: DataID) { states[id] = nil }

    /// Applies another source on top of this one: present records merge field by field, deletions
    /// replace. Returns the IDs whose content changed.
    @discardableResult
    public mutating func apply(_ changes: RecordSource) -> Set<DataID> {
        var rootFields = Set<String>()
        return apply(changes, changedRootFields: &rootFields)
    }

    /// Applies changes and also reports which fields of the root record changed (`nil` inside
    /// means the root changed as a whole). The work follows the smaller side: when the changes
    /// hold more records than this source (a first response into a new store), their table is
    /// taken over and this source's records are laid under it.
    public mutating func apply(_ changes: consuming RecordSource, changedRootFields: inout Set<String>) -> Set<DataID> {
        var displaced = DisplacedRecords()
        var changes = changes
        return apply(&changes, changedRootFields: &changedRootFields, displaced: &displaced)
    }

    /// ``apply(_:changedRootFields:)`` that frees nothing: the states it replaced and the tables
    /// it let go go into `displaced`, and `changes` is left to the caller (emptied when its table
    /// was taken over). The store applies under its lock and frees these after it, so that a
    /// publisher's lock is not held while the allocator frees another thread's records (glibc
    /// takes the allocating thread's arena lock for that, and the two publishers' figure spent
    /// most of its waits there).
    mutating func apply(
        _ changes: inout RecordSource, changedRootFields: inout Set<String>, displaced: inout DisplacedRecords
    ) -> Set<DataID> {
        if changes.count > states.count {
            var taken = RecordSource()
            swap(&taken, &changes)
            return adopt(taken, changedRootFields: &changedRootFields, displaced: &displaced)
        }
        var changed = Set<DataID>(minimumCapacity: changes.count)
        // IDs new to this source are added after the others, with room made for all at once.
        var added: [(DataID, RecordState)] = []
        // States are moved, not copied: out of `changes` into this source, and out of this source
        // into `displaced`. This runs under the store's lock, and a copy of a record is a
        // reference count written per string and array it holds (the two publishers' profile
        // had the commit's copies as a fifth of its samples).
        var position = changes.states.startIndex
        while position != changes.states.endIndex {
            defer { changes.states.formIndex(after: &position) }
            let id = changes.states.keys[position]
            guard let index = states.index(forKey: id) else {
                added.append((id, Self.take(&changes.states.values[position])))
                continue
            }
            // Passed in place (inout, not changed): read where they are, without a copy of each.
            switch Self.layering(
                &changes.states.values[position], over: &states.values[index], id: id, changedRootFields: &changedRootFields)
            {
            case .unchanged:
                continue
            case .update:
                // The update's values go into the record's own storage, and the values they
                // replace into the update's, which is what is freed: memory this thread made.
                Self.exchangeValues(&states.values[index], &changes.states.values[position])
                displaced.states.append(Self.take(&changes.states.values[position]))
            case .merged(var result):
                swap(&result, &states.values[index])
                displaced.states.append(result)
            }
            changed.insert(id)
        }
        if !added.isEmpty {
            states.reserveCapacity(states.count + added.count)
            while let (id, state) = added.popLast() {
                if id == .rootID, case .present(let record) = state { changedRootFields.formUnion(record.fields.keys) }
                states[id] = state
                changed.insert(id)
            }
        }
        return changed
    }

    /// Puts the update's typename and values into the record, in the record's own storage, and
    /// the values they replace into the update (``Layering/update``: the same keys).
    ///
    /// Two publishers into one store spent their waits in glibc's allocator, freeing the records
    /// they replaced, which the other thread had made: glibc takes the arena lock of the thread
    /// that allocated a block to free it (`perf record -e context-switches --call-graph dwarf`
    /// on `--profile twoPublishers`: 95% of the waits were frees of replaced records). With the
    /// values exchanged, what a commit frees is its own update, made on its thread, and the
    /// values that changed. A record whose storage is shared (a snapshot holds it) is copied on
    /// the first write, as before.
    private static func exchangeValues(_ existing: inout RecordState, _ update: inout RecordState) {
        guard case .present(var record) = existing, case .present(var edits) = update else {
            swap(&existing, &update)
            return
        }
        // Deletions left in both places, so that `record` and `edits` are the only references
        // to their storage and are changed in place.
        existing = .deleted
        update = .deleted
        if let typename = edits.typename { record.typename = typename }
        record.fields.exchangeValues(with: &edits.fields)
        existing = .present(record)
        update = .present(edits)
    }

    /// The state at a place, leaving a deletion there (the cheapest state to leave and to free).
    private static func take(_ state: inout RecordState) -> RecordState {
        var taken = RecordState.deleted
        swap(&taken, &state)
        return taken
    }

    /// What layering an update over an existing state gives.
    private enum Layering {
        /// The existing state, unchanged.
        case unchanged
        /// The update itself, as it is.
        case update
        /// A state made from both.
        case merged(RecordState)
    }

    /// `update` applied over `existing`, the common cases answered without a merge: the same
    /// contents (a refetch) leave `existing`, and the same fields with other values (the same
    /// query answered again) make the result the update itself, which the caller moves into
    /// place instead of copying. Anything else goes to ``layer(_:over:id:changedRootFields:)``.
    private static func layering(
        _ update: inout RecordState, over existing: inout RecordState, id: DataID, changedRootFields: inout Set<String>
    ) -> Layering {
        if case .present(let edits) = update, case .present(let record) = existing {
            // The common case of a refetch: the same fields with the same values, compared in
            // order without a lookup per key.
            if edits.typename == nil || edits.typename == record.typename, edits.fields.hasSameContents(as: record.fields) {
                return .unchanged
            }
            // The same fields with other values (the same query answered again): the edits take
            // the record's place whole.
            if edits.typename != nil && edits.fields.replacesEveryValue(of: record.fields) {
                if id == .rootID {
                    for (position, key) in edits.fields.keys.enumerated()
                    where edits.fields.values[position] != record.fields.values[position] {
                        changedRootFields.insert(key)
                    }
                }
                return .update
            }
        }
        return layer(update, over: existing, id: id, changedRootFields: &changedRootFields).map(Layering.merged) ?? .unchanged
    }

    private mutating func adopt(
        _ changes: consuming RecordSource, changedRootFields: inout Set<String>, displaced: inout DisplacedRecords
    ) -> Set<DataID> {
        var source = changes
        var merged: [DataID: RecordState] = [:]
        swap(&merged, &source.states)
        var changed = Set<DataID>(minimumCapacity: merged.count)
        for id in merged.keys { changed.insert(id) }
        if states[.rootID] == nil, case .present(let root)? = merged[.rootID] {
            changedRootFields.formUnion(root.fields.keys)
        }
        var base: [DataID: RecordState] = [:]
        swap(&base, &states)
        merged.reserveCapacity(merged.count + base.count)
        for (id, existing) in base {
            guard let index = merged.index(forKey: id) else {
                merged[id] = existing
                continue
            }
            var existing = existing
            switch Self.layering(&merged.values[index], over: &existing, id: id, changedRootFields: &changedRootFields) {
            case .update:
                // The update stays where it is; the state it replaces goes with `base`.
                continue
            case .merged(let result):
                displaced.states.append(merged.values[index])
                merged.values[index] = result
            case .unchanged:
                displaced.states.append(merged.values[index])
                merged.values[index] = existing
                changed.remove(id)
            }
        }
        states = merged
        displaced.tables.append(base)
        return changed
    }

    /// `update` applied over `existing` when ``layering(_:over:id:changedRootFields:)``'s quick
    /// answers do not apply: present records merge field by field, deletions (and records
    /// replacing deletions) replace. `nil` when the result is `existing` unchanged.
    private static func layer(
        _ update: RecordState, over existing: RecordState, id: DataID, changedRootFields: inout Set<String>
    ) -> RecordState? {
        if case .present(let edits) = update, case .present(var record) = existing {
            var didChange = false
            if let typename = edits.typename, record.typename != typename {
                record.typename = typename
                didChange = true
            }
            for (key, value) in edits.fields {
                let old = record.fields[key]
                guard old != value else { continue }
                if value.holdsEmbedded {
                    // An embedded object merges into the one there, which may leave it as it was.
                    let merged = value.merged(over: old)
                    guard merged != old else { continue }
                    record.fields[key] = merged
                } else {
                    record.fields[key] = value
                }
                didChange = true
                if id == .rootID { changedRootFields.insert(key) }
            }
            return didChange ? .present(record) : nil
        }
        guard existing != update else { return nil }
        if id == .rootID, case .present(let record) = update { changedRootFields.formUnion(record.fields.keys) }
        return update
    }
}

/// Record states and tables a commit replaced, kept by the store until its lock is released so
/// that their memory is freed outside it.
struct DisplacedRecords {
    var states: [RecordState] = []
    var tables: [[DataID: RecordState]] = []
}
