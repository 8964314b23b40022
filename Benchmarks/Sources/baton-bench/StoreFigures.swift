import BatonAPI
import BatonStore
import Foundation

/// Figures of the store's publish path: watchers and optimistic layers.
enum StoreFigures {
    static func all() -> [Figure] {
        [watchers(), optimisticLayers()]
    }

    /// A descriptor reading `value` of the record `id` (as a fragment on that record would).
    static func descriptor(_ id: DataID) -> OperationDescriptor {
        OperationDescriptor(
            name: "Value", selections: [.field("value", type: .scalar("Int"))], variables: [:], rootID: id, rootType: "Thing")
    }

    static func store(records: Int, watchers: Int) -> (Store, [StoreSubscription]) {
        let store = Store()
        var source = RecordSource()
        for index in 0..<records {
            source.set(Record(id: DataID("thing:\(index)"), typename: "Thing", fields: ["value": .scalar(.int(0))]))
        }
        store.publish(source)
        var subscriptions: [StoreSubscription] = []
        for index in 0..<watchers {
            subscriptions.append(store.subscribe(descriptor(DataID("thing:\(index)"))) { _ in }.subscription)
        }
        return (store, subscriptions)
    }

    /// Publishing a change to one record, with 10,000 watchers on other records vs 10.
    static func watchers() -> Figure {
        let (many, keepMany) = store(records: 10_001, watchers: 10_000)
        let (few, keepFew) = store(records: 10_001, watchers: 10)
        var counter = 0
        func publishes(_ store: Store) {
            for _ in 0..<2_000 {
                counter += 1
                store.publish(RecordSource(records: [Record(id: "thing:10000", typename: "Thing", fields: ["value": .scalar(.int(counter))])]))
            }
        }
        let figure = compare("publish, 10,000 watchers elsewhere", floorName: "10 watchers", target: 2.0) {
            publishes(many)
        } floor: {
            publishes(few)
        }
        withExtendedLifetime((keepMany, keepFew)) {}
        return figure
    }

    /// A store with a fixed number of optimistic updates pending, each on its own record.
    final class PendingUpdates {
        let store: Store
        var updates: [(OptimisticUpdate, DataID)] = []
        var next = 0

        init(pending: Int) {
            store = StoreFigures.store(records: 1_000, watchers: 0).0
            for _ in 0..<pending { apply() }
        }

        func apply() {
            let id = DataID("thing:\(next % 1_000)")
            next += 1
            let update = store.applyOptimisticUpdate(data: nil, for: descriptor(id)) { proxy, _ in
                proxy.get(id)?.setValue(.int(-1), "value")
            }
            updates.append((update, id))
        }

        /// The server answers the oldest mutation: its payload replaces its optimistic update;
        /// then a new mutation starts, so the number pending stays the same.
        func commitOldest() {
            let (update, id) = updates.removeFirst()
            store.publish(data: ["value": .int(next)], for: descriptor(id), replacing: update)
            apply()
        }
    }

    /// Committing a server payload (which replaces its own optimistic update) with 100
    /// optimistic updates pending vs 1.
    static func optimisticLayers() -> Figure {
        let hundred = PendingUpdates(pending: 100)
        let one = PendingUpdates(pending: 1)
        return compare("commit, 100 optimistic updates pending", floorName: "1 pending", target: 2.0) {
            for _ in 0..<500 { hundred.commitOldest() }
        } floor: {
            for _ in 0..<500 { one.commitOldest() }
        }
    }
}
