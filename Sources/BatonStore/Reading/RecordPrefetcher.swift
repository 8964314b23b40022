import BatonAPI

/// Finds, level by level, the records a read of some selections will need, without building any
/// data, so that a store over a persistent cache loads them in one batch per level of the
/// selection tree and walks each record once. (Running the whole read once per level, as a plain
/// batched read does, costs one partial read per level before the read that answers.)
///
/// It follows what ``Reader`` follows: the plan's composite fields by their read keys, through
/// links and lists, with the same plans per type.
enum RecordPrefetcher {
    /// Walks `selections` from `rootID`. `lookup` gives a record, or `nil` when it is not in
    /// memory (a batched lookup notes it as missed); `loadMissed` loads what was missed since it
    /// last ran, after which `lookup` gives those records, and returns false to stop the walk
    /// (the cache read ahead: what is left may all be in memory now).
    static func walk(
        selections: [Selection], rootID: DataID, rootType: String, variables: JSONObject,
        lookup: Reader.Lookup, loadMissed: () -> Bool
    ) {
        guard case .present(let root)? = lookup(rootID) else { return }
        var frontier: [Visit] = [Visit(record: root, type: rootType, plan: SelectionPlanCache.plan(selections, parentType: rootType, variables: variables))]
        var next: [Pending] = []
        var unresolved: [Pending] = []
        // A record reached again with the same selections (an author of many comments) is
        // walked once.
        var walked = Set<Walked>()
        while !frontier.isEmpty {
            next.removeAll(keepingCapacity: true)
            // Objects embedded in a record are walked with it, at its level.
            while let visit = frontier.popLast() {
                for entry in visit.plan.object(for: visit.record.typename ?? visit.type).fields {
                    guard case .composite(let type, let plan) = entry.kind, let stored = visit.record.fields[entry.readKey] else { continue }
                    func follow(_ value: RecordValue) {
                        switch value {
                        case .link(let id):
                            if walked.insert(Walked(id: id, plan: ObjectIdentifier(plan))).inserted {
                                next.append(Pending(id: id, type: type, plan: plan))
                            }
                        case .list(let items):
                            for item in items { follow(item) }
                        case .embedded(let typename, let fields):
                            frontier.append(Visit(record: Record(id: visit.record.id, typename: typename, fields: fields), type: type, plan: plan))
                        case .scalar, .fieldErrors:
                            break
                        }
                    }
                    follow(stored)
                }
            }
            frontier.removeAll(keepingCapacity: true)
            unresolved.removeAll(keepingCapacity: true)
            for pending in next {
                switch lookup(pending.id) {
                case .present(let record)?: frontier.append(Visit(record: record, type: pending.type, plan: pending.plan))
                case .deleted?: break
                case nil: unresolved.append(pending)
                }
            }
            guard !unresolved.isEmpty else { continue }
            guard loadMissed() else { return }
            for pending in unresolved {
                if case .present(let record)? = lookup(pending.id) {
                    frontier.append(Visit(record: record, type: pending.type, plan: pending.plan))
                }
            }
        }
    }

    private struct Visit {
        let record: Record
        let type: String
        let plan: SelectionPlan
    }

    private struct Pending {
        let id: DataID
        let type: String
        let plan: SelectionPlan
    }

    private struct Walked: Hashable {
        let id: DataID
        let plan: ObjectIdentifier
    }
}
