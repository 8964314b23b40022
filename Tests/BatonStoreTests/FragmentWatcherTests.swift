import BatonAPI
import BatonStore
import Testing

// Cases of relay-runtime's store subscriptions (packages/relay-runtime/store/__tests__/
// RelayModernStore-test.js, "subscribe()"), for the store-level watcher that typed fragment and
// object watches (`BatonClient.watch(fragment:id:)`) stand on: a fragment read on a record is
// notified when data it reads changes, and only then.
@Suite("Fragment watchers in the store (relay-runtime RelayModernStore subscribe cases)")
struct FragmentWatcherTests {
    /// `fragment UserFragment on User { name profilePicture(size: $size) { uri } emailAddresses }` on record 4.
    static let userFragment = OperationDescriptor(
        name: "UserFragment",
        selections: [
            .field("name", type: .scalar("String")),
            .field(
                "profilePicture", type: .object("Image"), arguments: ["size": .variable("size")],
                selections: [.field("uri", type: .scalar("String"))]),
            .field("emailAddresses", type: .list(.scalar("String"))),
        ], variables: ["size": 32], rootID: "4", rootType: "User")

    func store() -> Store {
        let store = Store()
        store.publish(
            RecordSource(records: [
                Record(
                    id: "4", typename: "User",
                    fields: [
                        "id": .scalar("4"), "name": .scalar("Zuck"), "profilePicture(size:32)": .link("client:1"),
                        "emailAddresses": .scalar(["a@b.com"]), "birthday": .scalar("1984-05-14"),
                    ]),
                Record(id: "client:1", typename: "Image", fields: ["uri": .scalar("https://photo1.jpg")]),
                Record(id: "842472", typename: "User", fields: ["name": .scalar("Joe")]),
            ]))
        return store
    }

    final class Calls: Sendable {
        private let reads = Locked<[ReadResult]>([])
        var all: [ReadResult] { reads.withLock { $0 } }
        func append(_ read: ReadResult) { reads.withLock { $0.append(read) } }
    }

    // "calls subscribers whose data has changed since previous notify"
    @Test("RelayModernStore: calls subscribers whose data has changed since previous notify")
    func callsSubscribersWhoseDataChanged() {
        let store = store()
        let calls = Calls()
        let (initial, subscription) = store.subscribe(Self.userFragment) { calls.append($0) }
        defer { subscription.cancel() }
        #expect(initial.data?["profilePicture"]?["uri"] == "https://photo1.jpg")
        store.publish(RecordSource(records: [Record(id: "client:1", fields: ["uri": .scalar("https://photo2.jpg")])]))
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.data?["profilePicture"]?["uri"] == "https://photo2.jpg")
        #expect(calls.all.first?.data?["name"] == "Zuck")
        #expect(calls.all.first?.seenIDs == ["4", "client:1"])
    }

    // "does not call subscribers whose data has not changed"
    @Test("RelayModernStore: does not call subscribers whose data has not changed")
    func doesNotCallSubscribersWhoseDataDidNotChange() {
        let store = store()
        let calls = Calls()
        let (_, subscription) = store.subscribe(Self.userFragment) { calls.append($0) }
        defer { subscription.cancel() }
        store.publish(RecordSource(records: [Record(id: "842472", typename: "User", fields: ["name": .scalar("Joe")])]))
        #expect(calls.all.isEmpty)
    }

    /// A field of the watched record that the fragment does not select changes: the watcher is
    /// re-read (its record changed) and, its data being the same, not called.
    @Test func doesNotCallSubscribersForAFieldTheyDoNotRead() {
        let store = store()
        let calls = Calls()
        let (_, subscription) = store.subscribe(Self.userFragment) { calls.append($0) }
        defer { subscription.cancel() }
        store.publish(RecordSource(records: [Record(id: "4", fields: ["birthday": .scalar("1984-05-15")])]))
        #expect(calls.all.isEmpty)
        store.publish(RecordSource(records: [Record(id: "4", fields: ["name": .scalar("Mark")])]))
        #expect(calls.all.count == 1)
        #expect(calls.all.last?.data?["name"] == "Mark")
    }

    // "calls affected subscribers only once": one commit changing two records the fragment reads.
    @Test("RelayModernStore: calls affected subscribers only once")
    func callsAffectedSubscribersOnlyOnce() {
        let store = store()
        let calls = Calls()
        let (_, subscription) = store.subscribe(Self.userFragment) { calls.append($0) }
        defer { subscription.cancel() }
        store.publish(
            RecordSource(records: [
                Record(id: "4", typename: "User", fields: ["name": .scalar("Mark"), "emailAddresses": .scalar(["a@b.com", "c@d.net"])]),
                Record(id: "client:1", fields: ["uri": .scalar("https://photo3.jpg")]),
            ]))
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.data?["profilePicture"]?["uri"] == "https://photo3.jpg")
        #expect(calls.all.first?.data?["emailAddresses"] == ["a@b.com", "c@d.net"])
    }

    // "notifies subscribers of changes to deleted records", the other way round: a watched
    // record is deleted, and the watcher hears it (its data reads as null, nothing missing).
    @Test("RelayModernStore: notifies subscribers of changes to deleted records")
    func notifiesSubscribersOfDeletedRecords() {
        let store = store()
        let calls = Calls()
        let (_, subscription) = store.subscribe(Self.userFragment) { calls.append($0) }
        defer { subscription.cancel() }
        store.update { $0.delete("4") }
        #expect(calls.all.count == 1)
        #expect(calls.all.first?.data == nil)
        #expect(calls.all.first?.isMissing == false)
        // Created again: heard again.
        store.publish(RecordSource(records: [Record(id: "4", typename: "User", fields: ["name": .scalar("Joe")])]))
        #expect(calls.all.count == 2)
        #expect(calls.all.last?.data?["name"] == "Joe")
        #expect(calls.all.last?.isMissing == true)
    }

    // "does not notify disposed subscribers"
    @Test("RelayModernStore: does not notify disposed subscribers")
    func doesNotNotifyDisposedSubscribers() {
        let store = store()
        let calls = Calls()
        let (_, subscription) = store.subscribe(Self.userFragment) { calls.append($0) }
        subscription.cancel()
        store.publish(RecordSource(records: [Record(id: "client:1", fields: ["uri": .scalar("https://photo2.jpg")])]))
        #expect(calls.all.isEmpty)
        #expect(store.watcherCount == 0)
    }
}
