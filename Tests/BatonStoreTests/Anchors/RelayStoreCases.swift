import BatonAPI
import BatonStore
import Foundation
import Testing

// Cases of relay-runtime's own store tests, as facts about Baton's store:
//   packages/relay-runtime/store/__tests__/RelayModernStore-test.js
//   packages/relay-runtime/store/__tests__/RelayPublishQueue-test.js
//   packages/relay-runtime/store/__tests__/RelayModernEnvironment-ExecuteMutationWithDeclarativeMutation-test.js
//   packages/relay-runtime/store/__tests__/RelayResponseNormalizer-test.js
//   packages/relay-runtime/store/__tests__/RelayReader-test.js
// Stores use relay-runtime's cache-key rule (bare `id`), so relay's record IDs carry over.
// Where relay's source is emptied entirely, Baton keeps its root record (`client:root`) always.

/// Collects a watcher's reads.
private final class StoreReads: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ReadResult] = []
    var all: [ReadResult] { lock.withLock { stored } }
    func append(_ read: ReadResult) { lock.withLock { stored.append(read) } }
}

/// RelayModernStore-test.js's user query and records:
///
///     query RelayModernStoreTestQuery($id: ID!, $size: [Int]) {
///       node(id: $id) { ...RelayModernStoreTestFragment }
///     }
///     fragment RelayModernStoreTestFragment on User { name profilePicture(size: $size) { uri } }
private enum UserQuery {
    static let selections: [Selection] = [
        .field(
            "node", type: .object("Node"), arguments: ["id": .variable("id")],
            selections: [
                .fragment(
                    "RelayModernStoreTestFragment", on: TypeCondition("User"),
                    selections: [
                        .field("name", type: .scalar("String")),
                        .field(
                            "profilePicture", type: .object("Image"), arguments: ["size": .variable("size")],
                            selections: [.field("uri", type: .scalar("String"))]),
                    ])
            ])
    ]

    static func operation(id: String, size: Int = 32) -> OperationDescriptor {
        OperationDescriptor(
            name: "RelayModernStoreTestQuery", selections: selections, variables: ["id": .string(id), "size": .int(size)],
            rootType: "Query")
    }

    /// `query JoeQuery($id: ID!) { node(id: $id) { ... on User { name } } }`
    static func joe(id: String) -> OperationDescriptor {
        OperationDescriptor(
            name: "RelayModernStoreTestJoeQuery",
            selections: [
                .field(
                    "node", type: .object("Node"), arguments: ["id": .variable("id")],
                    selections: [.inlineFragment(on: TypeCondition("User"), selections: [.field("name", type: .scalar("String"))])])
            ],
            variables: ["id": .string(id)], rootType: "Query")
    }

    static let zuck = Record(
        id: "4", typename: "User", fields: ["id": .scalar("4"), "name": .scalar("Zuck"), "profilePicture(size:32)": .link("client:1")])
    static let photo1 = Record(id: "client:1", fields: ["uri": .scalar("https://photo1.jpg")])
    static let other = Record(
        id: "5", typename: "User", fields: ["id": .scalar("5"), "name": .scalar("Other"), "profilePicture(size:32)": .link("client:2")])
    static let photo2 = Record(id: "client:2", fields: ["uri": .scalar("https://photo2.jpg")])

    /// The root record linking `node(id:"<id>")` for each ID.
    static func root(_ ids: [String]) -> Record {
        var fields = RecordFields()
        for id in ids { fields["node(id:\"\(id)\")"] = .link(DataID(id)) }
        return Record(id: .rootID, typename: "__Root", fields: fields)
    }

    /// The `check()` cases' records: user 4 with its picture.
    static let checkRecords = [zuck, photo1, root(["4"])]
    /// The "GC with a release buffer" cases' records: users 4 and 5 with their pictures.
    static let gcRecords = [zuck, other, photo1, photo2, root(["4", "5"])]
    static let gcIDs: Set<DataID> = [.rootID, "4", "5", "client:1", "client:2"]

    static func store(_ records: [Record], releaseBufferSize: Int = 0, expiration: Duration? = nil) -> Store {
        let store = Store(cacheKeys: .globalIDs, releaseBufferSize: releaseBufferSize, queryCacheExpirationTime: expiration)
        store.publish(RecordSource(records: records))
        return store
    }

    /// relay's `store.publish(source); store.notify(operation)`: the operation's data written
    /// as its server response.
    static func write(_ records: [Record], for operation: OperationDescriptor, in store: Store) {
        store.publish(RecordSource(records: records), fetched: operation)
    }

    static func ids(_ store: Store) -> Set<DataID> { Set(store.snapshot().ids) }

    static func invalidate(_ id: DataID, in store: Store) {
        store.update { proxy in
            proxy.get(id)?.invalidateRecord()
        }
    }
}

@Suite("Anchors: relay-runtime RelayModernStore")
struct RelayModernStoreCases {
    // relay-runtime RelayModernStore-test.js: "creates the root record upon store initialization"
    @Test("RelayModernStore-test: constructor › creates the root record upon store initialization")
    func createsTheRootRecord() {
        let records = Store(cacheKeys: .globalIDs).snapshot()
        #expect(records.count == 1)
        #expect(records[.rootID]?.typename == "__Root")
        #expect(records[.rootID]?.fields.isEmpty == true)
    }

    // MARK: retain()

    // relay-runtime RelayModernStore-test.js: "prevents data from being collected"
    @Test("RelayModernStore-test: retain() › prevents data from being collected")
    func retainPreventsCollection() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let token = store.retain(UserQuery.operation(id: "4"))
        #expect(store.collectGarbage().isEmpty)
        #expect(UserQuery.ids(store) == [.rootID, "4", "client:1"])
        token.release()
    }

    // relay-runtime RelayModernStore-test.js: "frees data when disposed"
    @Test("RelayModernStore-test: retain() › frees data when disposed")
    func releaseFreesData() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let token = store.retain(UserQuery.operation(id: "4"))
        token.release()
        // With no release buffer, releasing collects at once.
        #expect(UserQuery.ids(store) == [.rootID])
        #expect(store.read(UserQuery.operation(id: "4")).isMissing)
    }

    // relay-runtime RelayModernStore-test.js: "only collects unreferenced data"
    @Test("RelayModernStore-test: retain() › only collects unreferenced data")
    func onlyUnreferencedDataIsCollected() {
        let joe = Record(id: "842472", typename: "User", fields: ["name": .scalar("Joe")])
        let store = UserQuery.store([UserQuery.zuck, UserQuery.photo1, joe, UserQuery.root(["842472", "4"])])
        let user = store.retain(UserQuery.operation(id: "4"))
        let joeToken = store.retain(UserQuery.joe(id: "842472"))
        user.release()
        #expect(UserQuery.ids(store) == [.rootID, "842472"])
        #expect(store.read(UserQuery.joe(id: "842472")).data == ["node": ["name": "Joe"]])
        joeToken.release()
    }

    // MARK: check()

    // relay-runtime RelayModernStore-test.js: "returns available if all data exists in the cache"
    @Test("RelayModernStore-test: check() › returns available if all data exists in the cache")
    func checkAvailable() {
        let store = UserQuery.store(UserQuery.checkRecords)
        #expect(store.check(UserQuery.operation(id: "4")) == .available)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if a scalar field is missing"
    @Test("RelayModernStore-test: check() › returns missing if a scalar field is missing")
    func checkMissingScalar() {
        // relay unpublishes `uri`; here the picture is stored without it.
        let store = UserQuery.store([UserQuery.zuck, Record(id: "client:1"), UserQuery.root(["4"])])
        #expect(store.check(UserQuery.operation(id: "4")) == .missing)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if a linked field is missing"
    @Test("RelayModernStore-test: check() › returns missing if a linked field is missing")
    func checkMissingLinkedField() {
        let store = UserQuery.store(UserQuery.checkRecords)
        #expect(store.check(UserQuery.operation(id: "4", size: 64)) == .missing)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if a linked record is missing"
    @Test("RelayModernStore-test: check() › returns missing if a linked record is missing")
    func checkMissingLinkedRecord() {
        let store = UserQuery.store([UserQuery.zuck, UserQuery.root(["4"])])
        #expect(store.check(UserQuery.operation(id: "4")) == .missing)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if the root record is missing"
    @Test("RelayModernStore-test: check() › returns missing if the root record is missing")
    func checkMissingRoot() {
        let store = UserQuery.store(UserQuery.checkRecords)
        #expect(store.check(UserQuery.operation(id: "842472")) == .missing)
    }

    // relay-runtime RelayModernStore-test.js: "returns available until query cache expiration time has passed"
    @Test("RelayModernStore-test: check() › with queryCacheExpirationTime › returns available until query cache expiration time has passed")
    func checkAvailableUntilExpiration() async throws {
        let store = UserQuery.store(UserQuery.checkRecords, expiration: .milliseconds(300))
        let operation = UserQuery.operation(id: "4")
        _ = store.retain(operation)
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        #expect(store.check(operation) == .available)
        try await Task.sleep(for: .milliseconds(400))
        #expect(store.check(operation) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if data is cached and store has been invalidated"
    @Test("RelayModernStore-test: check() › global invalidation › query not written before › returns stale if data is cached and store has been invalidated")
    func checkStaleAfterGlobalInvalidationWhenNeverWritten() {
        let store = UserQuery.store(UserQuery.checkRecords)
        store.invalidateStore()
        #expect(store.check(UserQuery.operation(id: "4")) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if data is not cached and store has been invalidated"
    @Test("RelayModernStore-test: check() › global invalidation › query not written before › returns stale if data is not cached and store has been invalidated")
    func checkStaleForMissingDataAfterGlobalInvalidation() {
        let store = UserQuery.store(UserQuery.checkRecords)
        store.invalidateStore()
        #expect(store.check(UserQuery.operation(id: "842472")) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale even if data is cached but store was invalidated after query was written"
    @Test("RelayModernStore-test: check() › global invalidation › returns stale even if data is cached but store was invalidated after query was written")
    func checkStaleWhenInvalidatedAfterWrite() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "4")
        let token = store.retain(operation)
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        #expect(store.check(operation) == .available)
        store.update { $0.invalidateStore() }
        #expect(store.check(operation) == .stale)
        token.release()
    }

    // relay-runtime RelayModernStore-test.js: "returns available if data is cached and store was invalidated before query was written"
    @Test("RelayModernStore-test: check() › global invalidation › returns available if data is cached and store was invalidated before query was written")
    func checkAvailableWhenWrittenAfterGlobalInvalidation() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "4")
        store.update { $0.invalidateStore() }
        #expect(store.check(operation) == .stale)
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        #expect(store.check(operation) == .available)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if data is not cached and store was invalidated after query was written"
    @Test("RelayModernStore-test: check() › global invalidation › returns stale if data is not cached and store was invalidated after query was written")
    func checkStaleForMissingDataInvalidatedAfterWrite() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "842472")
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        #expect(store.check(operation) == .missing)
        store.invalidateStore()
        #expect(store.check(operation) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if data is not cached and store was invalidated before query was written"
    @Test("RelayModernStore-test: check() › global invalidation › returns missing if data is not cached and store was invalidated before query was written")
    func checkMissingWhenWrittenAfterGlobalInvalidation() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "842472")
        store.invalidateStore()
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        #expect(store.check(operation) == .missing)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if operation has not been written before" (data cached)
    @Test("RelayModernStore-test: check() › individual records invalidated › data cached › returns stale if operation has not been written before")
    func checkStaleForInvalidatedRecordNeverWritten() {
        let store = UserQuery.store(UserQuery.checkRecords)
        UserQuery.invalidate("4", in: store)
        #expect(store.check(UserQuery.operation(id: "4")) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if operation was written before record was invalidated" (data cached)
    @Test("RelayModernStore-test: check() › individual records invalidated › data cached › returns stale if operation was written before record was invalidated")
    func checkStaleForRecordInvalidatedAfterWrite() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "4")
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        UserQuery.invalidate("4", in: store)
        #expect(store.check(operation) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns available if operation was written after record was invalidated"
    @Test("RelayModernStore-test: check() › individual records invalidated › data cached › returns available if operation was written after record was invalidated")
    func checkAvailableWhenWrittenAfterRecordInvalidation() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "4")
        UserQuery.invalidate("4", in: store)
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        #expect(store.check(operation) == .available)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if operation has not been written before" (data missing)
    @Test("RelayModernStore-test: check() › individual records invalidated › data missing › returns stale if operation has not been written before")
    func checkStaleBeforeMissingWhenNeverWritten() {
        // Invalidation is checked before missing data.
        let store = UserQuery.store([UserQuery.zuck, Record(id: "client:1"), UserQuery.root(["4"])])
        UserQuery.invalidate("4", in: store)
        #expect(store.check(UserQuery.operation(id: "4")) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns stale if operation was written before record was invalidated" (data missing)
    @Test("RelayModernStore-test: check() › individual records invalidated › data missing › returns stale if operation was written before record was invalidated")
    func checkStaleBeforeMissingWhenInvalidatedAfterWrite() {
        let records = [UserQuery.zuck, Record(id: "client:1"), UserQuery.root(["4"])]
        let store = UserQuery.store(records)
        let operation = UserQuery.operation(id: "4")
        UserQuery.write(records, for: operation, in: store)
        #expect(store.check(operation) == .missing)
        UserQuery.invalidate("4", in: store)
        #expect(store.check(operation) == .stale)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if stale record is unreachable"
    @Test("RelayModernStore-test: check() › individual records invalidated › data missing › returns missing if stale record is unreachable")
    func checkMissingWhenTheInvalidatedRecordIsNotRead() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let operation = UserQuery.operation(id: "842472")
        UserQuery.write(UserQuery.checkRecords, for: operation, in: store)
        UserQuery.invalidate("4", in: store)
        #expect(store.check(operation) == .missing)
    }

    // relay-runtime RelayModernStore-test.js: "returns missing if operation was written after record was invalidated"
    @Test("RelayModernStore-test: check() › individual records invalidated › data missing › returns missing if operation was written after record was invalidated")
    func checkMissingWhenWrittenAfterRecordInvalidation() {
        let records = [UserQuery.zuck, Record(id: "client:1"), UserQuery.root(["4"])]
        let store = UserQuery.store(records)
        let operation = UserQuery.operation(id: "4")
        UserQuery.invalidate("4", in: store)
        UserQuery.write(records, for: operation, in: store)
        #expect(store.check(operation) == .missing)
    }

    // MARK: GC with a release buffer

    // relay-runtime RelayModernStore-test.js: "keeps the data retained in the release buffer after released by caller"
    @Test("RelayModernStore-test: GC with a release buffer › keeps the data retained in the release buffer after released by caller")
    func releaseBufferKeepsReleasedData() {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 1, expiration: .seconds(1))
        let token = store.retain(UserQuery.operation(id: "4"))
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        token.release()
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        #expect(store.retainedRootCount == 1)
    }

    // relay-runtime RelayModernStore-test.js: "immediately releases disposed items that are stale"
    @Test("RelayModernStore-test: GC with a release buffer › immediately releases disposed items that are stale")
    func staleReleasedDataIsCollectedAtOnce() async throws {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 1, expiration: .milliseconds(50))
        let operation = UserQuery.operation(id: "4")
        let token = store.retain(operation)
        UserQuery.write(UserQuery.gcRecords, for: operation, in: store)
        try await Task.sleep(for: .milliseconds(150))
        token.release()
        // Nothing else is retained: everything but the root record goes.
        #expect(UserQuery.ids(store) == [.rootID])
        #expect(store.retainedRootCount == 0)
    }

    // relay-runtime RelayModernStore-test.js: "keeps published data retained in the release buffer if the data is not stale"
    @Test("RelayModernStore-test: GC with a release buffer › keeps published data retained in the release buffer if the data is not stale")
    func freshReleasedDataStaysInTheBuffer() {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 1, expiration: .seconds(60))
        let operation = UserQuery.operation(id: "4")
        let token = store.retain(operation)
        UserQuery.write(UserQuery.gcRecords, for: operation, in: store)
        token.release()
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        // A collection now keeps what the buffered operation reads.
        let removed = store.collectGarbage()
        #expect(removed == ["5", "client:2"])
        #expect(store.read(operation).isMissing == false)
    }

    // relay-runtime RelayModernStore-test.js: "keeps the data retained in the release buffer after double-released by caller"
    @Test("RelayModernStore-test: GC with a release buffer › keeps the data retained in the release buffer after double-released by caller")
    func doubleReleaseIsIdempotent() {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 1, expiration: .seconds(1))
        let token = store.retain(UserQuery.operation(id: "4"))
        token.release()
        token.release()
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        #expect(store.retainedRootCount == 1)
    }

    // relay-runtime RelayModernStore-test.js: "releases the operation and collects data after release buffer reaches capacity"
    @Test("RelayModernStore-test: GC with a release buffer › releases the operation and collects data after release buffer reaches capacity")
    func releaseBufferOverflowCollects() {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 1, expiration: .seconds(1))
        let first = store.retain(UserQuery.operation(id: "4"))
        first.release()
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        let second = store.retain(UserQuery.operation(id: "5"))
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        second.release()
        #expect(UserQuery.ids(store) == [.rootID, "5", "client:2"])
        // The root record keeps its fields, the link to the collected user included.
        #expect(store.snapshot()[.rootID]?[#"node(id:"4")"#] == .link("4"))
        #expect(store.snapshot()[.rootID]?[#"node(id:"5")"#] == .link("5"))
    }

    // relay-runtime RelayModernStore-test.js: "when same operation retained multiple times, data is only collected until fully released from buffer"
    @Test("RelayModernStore-test: GC with a release buffer › when same operation retained multiple times, data is only collected until fully released from buffer")
    func anOperationRetainedTwiceNeedsTwoReleases() {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 1, expiration: .seconds(1))
        let first = store.retain(UserQuery.operation(id: "4"))
        let again = store.retain(UserQuery.operation(id: "4"))
        let other = store.retain(UserQuery.operation(id: "5"))
        first.release()
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        again.release()
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        other.release()
        #expect(UserQuery.ids(store) == [.rootID, "5", "client:2"])
    }

    // relay-runtime RelayModernStore-test.js: "does not free data if previously disposed query is retained again"
    @Test("RelayModernStore-test: GC with a release buffer › does not free data if previously disposed query is retained again")
    func reRetainingLeavesTheReleaseBuffer() {
        let store = UserQuery.store(UserQuery.gcRecords, releaseBufferSize: 2)
        let first = store.retain(UserQuery.operation(id: "1"))
        first.release()
        let second = store.retain(UserQuery.operation(id: "2"))
        second.release()
        let secondAgain = store.retain(UserQuery.operation(id: "2"))
        let third = store.retain(UserQuery.operation(id: "3"))
        third.release()
        // The buffer holds 1 and 3 (2 is retained again): not over capacity, nothing collected.
        #expect(UserQuery.ids(store) == UserQuery.gcIDs)
        #expect(store.retainedRootCount == 3)
        secondAgain.release()
    }

    // relay-runtime RelayModernStore-test.js: "GC pauses during optimistic updates."
    @Test("RelayModernStore-test: GC Scheduler › GC pauses during optimistic updates")
    func collectionWaitsForOptimisticUpdates() {
        let store = UserQuery.store(UserQuery.gcRecords)
        let keep = store.retain(UserQuery.operation(id: "5"))
        let token = store.retain(UserQuery.operation(id: "4"))
        let optimistic = store.applyOptimisticUpdate(
            data: nil, for: UserQuery.operation(id: "5"),
            updater: { proxy, _ in
                _ = proxy.get("5")?.setValue("Optimistic", "name")
            })
        token.release()
        #expect(store.collectGarbage().isEmpty)
        #expect(UserQuery.ids(store).contains("4"))
        store.revertOptimisticUpdate(optimistic)
        // The held collection runs once the last optimistic update is gone.
        #expect(UserQuery.ids(store) == [.rootID, "5", "client:2"])
        #expect(store.snapshot()["5"]?["name"] == .scalar("Other"))
        keep.release()
    }

    // relay-runtime RelayModernStore-test.js: "calls subscribers whose data has changed since previous notify"
    @Test("RelayModernStore-test: notify/publish/subscribe › calls subscribers whose data has changed since previous notify")
    func subscribersAreCalledWithChangedData() {
        let store = UserQuery.store(UserQuery.checkRecords)
        let reads = StoreReads()
        let (initial, subscription) = store.subscribe(UserQuery.operation(id: "4")) { reads.append($0) }
        defer { subscription.cancel() }
        #expect(initial.data == ["node": ["name": "Zuck", "profilePicture": ["uri": "https://photo1.jpg"]]])
        store.publish(RecordSource(records: [Record(id: "client:1", fields: ["uri": .scalar("https://photo2.jpg")])]))
        #expect(reads.all.count == 1)
        #expect(reads.all.first?.data == ["node": ["name": "Zuck", "profilePicture": ["uri": "https://photo2.jpg"]]])
        #expect(reads.all.first?.seenIDs == [.rootID, "4", "client:1"])
    }
}

// MARK: - RelayPublishQueue: optimistic updates

/// RelayPublishQueue-test.js's records (user 4 "Mark", page "mpk" of population 9000) and its
/// `ChangeNameMutation`: `actorNameChange(input: $input) { actor { name } }`.
private enum PublishQueue {
    static func store() -> Store {
        let store = Store(cacheKeys: .globalIDs)
        store.publish(
            RecordSource(records: [
                Record(id: "4", typename: "User", fields: ["name": .scalar("Mark"), "hometown": .link("mpk"), "log": .scalar("")]),
                Record(id: "mpk", typename: "Page", fields: ["name": .scalar("Menlo Park"), "mayor": .null, "population": .scalar(9000)]),
            ]))
        return store
    }

    static func changeName(alias: String? = nil) -> OperationDescriptor {
        OperationDescriptor(
            name: "ChangeNameMutation",
            selections: [
                .field(
                    "actorNameChange", alias: alias, type: .object("ActorNameChangePayload"), arguments: ["input": .variable("input")],
                    selections: [
                        .field(
                            "actor", type: .object("Actor"),
                            selections: [
                                .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
                                .field("name", type: .scalar("String")),
                            ])
                    ])
            ],
            variables: ["input": ["clientMutationId": "0", "newName": "zuck"]], rootType: "Mutation")
    }

    static func response(_ key: String = "actorNameChange") -> JSONObject {
        [key: ["actor": ["id": "4", "name": "zuck", "__typename": "User"]]]
    }

    /// A field of a record as readers see it (the optimistic updates applied).
    static func value(_ store: Store, _ id: DataID, _ field: String) -> JSONValue? {
        store.read(
            OperationDescriptor(
                name: "Read", selections: [.field(field, type: .scalar("String"))], variables: [:], rootID: id, rootType: "Node")
        ).data?[field]
    }

    static let setZuck: @Sendable (RecordSourceProxy, JSONObject) -> Void = { proxy, _ in
        _ = proxy.get("4")?.setValue("zuck", "name")
    }

    static let uppercaseName: @Sendable (RecordSourceProxy, JSONObject) -> Void = { proxy, _ in
        let name = proxy.get("4")?.getValue("name")?.stringValue ?? ""
        _ = proxy.get("4")?.setValue(.string(name.uppercased()), "name")
    }
}

@Suite("Anchors: relay-runtime RelayPublishQueue")
struct RelayPublishQueueCases {
    private typealias Q = PublishQueue

    // relay-runtime RelayPublishQueue-test.js: "runs an `storeUpdater` and applies the changes to the store"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › runs a storeUpdater and applies the changes to the store")
    func storeUpdaterIsApplied() {
        let store = Q.store()
        let update = store.applyOptimisticUpdate(data: nil, for: Q.changeName(), updater: Q.setZuck)
        #expect(Q.value(store, "4", "name") == "zuck")
        // The base records (what the server wrote) are untouched.
        #expect(store.snapshot()["4"]?["name"] == .scalar("Mark"))
        #expect(store.optimisticUpdateCount == 1)
        store.revertOptimisticUpdate(update)
    }

    // relay-runtime RelayPublishQueue-test.js: "runs an `selectorStoreUpdater` and applies the changes to the store"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › runs a selectorStoreUpdater and applies the changes to the store")
    func optimisticResponseIsApplied() {
        let store = Q.store()
        let update = store.applyOptimisticUpdate(data: Q.response(), for: Q.changeName())
        #expect(Q.value(store, "4", "name") == "zuck")
        #expect(store.snapshot()["4"]?["name"] == .scalar("Mark"))
        store.revertOptimisticUpdate(update)
    }

    // relay-runtime RelayPublishQueue-test.js: "handles aliases correctly when used with optimistic update"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › handles aliases correctly when used with optimistic update")
    func optimisticResponseWithAnAlias() {
        let store = Q.store()
        let update = store.applyOptimisticUpdate(data: Q.response("changeName"), for: Q.changeName(alias: "changeName"))
        #expect(Q.value(store, "4", "name") == "zuck")
        store.revertOptimisticUpdate(update)
        #expect(Q.value(store, "4", "name") == "Mark")
    }

    // relay-runtime RelayPublishQueue-test.js: "unpublishes changes from `storeUpdater` when reverted in a subsequent run()"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › unpublishes changes from storeUpdater when reverted")
    func revertingAStoreUpdaterUnpublishesIt() {
        let store = Q.store()
        let before = store.snapshot()
        let update = store.applyOptimisticUpdate(data: nil, for: Q.changeName(), updater: Q.setZuck)
        #expect(Q.value(store, "4", "name") == "zuck")
        store.revertOptimisticUpdate(update)
        #expect(Q.value(store, "4", "name") == "Mark")
        #expect(store.snapshot() == before)
        #expect(store.optimisticUpdateCount == 0)
    }

    // relay-runtime RelayPublishQueue-test.js: "unpublishes changes from `selectorStoreUpdater` when reverted in a subsequent run()"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › unpublishes changes from selectorStoreUpdater when reverted")
    func revertingAnOptimisticResponseUnpublishesIt() {
        let store = Q.store()
        let update = store.applyOptimisticUpdate(data: Q.response(), for: Q.changeName())
        store.revertOptimisticUpdate(update)
        #expect(Q.value(store, "4", "name") == "Mark")
        // The optimistic response's root field is gone too.
        #expect(store.read(Q.changeName()).isMissing)
    }

    // relay-runtime RelayPublishQueue-test.js: "applies multiple updaters in the same run()"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › applies multiple updaters in order")
    func multipleUpdatersApplyInOrder() {
        let store = Q.store()
        let first = store.applyOptimisticUpdate(data: Q.response(), for: Q.changeName())
        let second = store.applyOptimisticUpdate(data: nil, for: Q.changeName(), updater: Q.uppercaseName)
        #expect(Q.value(store, "4", "name") == "ZUCK")
        store.revertOptimisticUpdate(second)
        store.revertOptimisticUpdate(first)
    }

    // relay-runtime RelayPublishQueue-test.js: "rebases changes when an earlier change is reverted"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › rebases changes when an earlier change is reverted")
    func laterUpdatesAreRebasedWhenAnEarlierOneIsReverted() {
        let store = Q.store()
        let first = store.applyOptimisticUpdate(data: Q.response(), for: Q.changeName())
        let second = store.applyOptimisticUpdate(data: nil, for: Q.changeName(), updater: Q.uppercaseName)
        #expect(Q.value(store, "4", "name") == "ZUCK")
        store.revertOptimisticUpdate(first)
        #expect(Q.value(store, "4", "name") == "MARK")
        #expect(store.snapshot()["4"]?["name"] == .scalar("Mark"))
        store.revertOptimisticUpdate(second)
    }

    // relay-runtime RelayPublishQueue-test.js: "rebases multiple changes on the same value"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › rebases multiple changes on the same value")
    func rebasesChangesOnTheSameValue() {
        let store = Q.store()
        #expect(Q.value(store, "mpk", "population") == 9000)
        let increment = store.applyOptimisticUpdate(
            data: nil, for: Q.changeName(),
            updater: { proxy, _ in
                let population = proxy.get("mpk")?.getValue("population")?.intValue ?? 0
                _ = proxy.get("mpk")?.setValue(.int(population + 1000), "population")
            })
        #expect(Q.value(store, "mpk", "population") == 10000)
        let double = store.applyOptimisticUpdate(
            data: nil, for: Q.changeName(),
            updater: { proxy, _ in
                let population = proxy.get("mpk")?.getValue("population")?.intValue ?? 0
                _ = proxy.get("mpk")?.setValue(.int(population * 2), "population")
            })
        #expect(Q.value(store, "mpk", "population") == 20000)
        store.revertOptimisticUpdate(increment)
        #expect(Q.value(store, "mpk", "population") == 18000)
        store.revertOptimisticUpdate(double)
        #expect(Q.value(store, "mpk", "population") == 9000)
    }

    // relay-runtime RelayPublishQueue-test.js: "unpublishes previously rebased changes when reverted"
    @Test("RelayPublishQueue-test: applyUpdate()/revertUpdate() › unpublishes previously rebased changes when reverted")
    func revertingARebasedUpdateRestoresTheBase() {
        let store = Q.store()
        let first = store.applyOptimisticUpdate(
            data: nil, for: Q.changeName(), updater: { proxy, _ in _ = proxy.get("4")?.setValue("Zuckerberg", "name") })
        let second = store.applyOptimisticUpdate(
            data: nil, for: Q.changeName(), updater: { proxy, _ in _ = proxy.get("4")?.setValue("Mark Zuckerberg", "name") })
        store.revertOptimisticUpdate(first)
        #expect(Q.value(store, "4", "name") == "Mark Zuckerberg")
        store.revertOptimisticUpdate(second)
        #expect(Q.value(store, "4", "name") == "Mark")
    }

    // relay-runtime RelayPublishQueue-test.js: "reverts addition of new fields"
    @Test("RelayPublishQueue-test: revertAll() › reverts addition of new fields")
    func revertingRemovesAnAddedField() {
        let store = Q.store()
        let update = store.applyOptimisticUpdate(
            data: nil, for: Q.changeName(), updater: { proxy, _ in _ = proxy.get("4")?.setValue("zuck124", "username") })
        #expect(Q.value(store, "4", "username") == "zuck124")
        store.revertOptimisticUpdate(update)
        #expect(Q.value(store, "4", "username") == nil)
        #expect(store.snapshot()["4"]?["username"] == nil)
    }

    // relay-runtime RelayPublishQueue-test.js: "reverts addition of linked field"
    @Test("RelayPublishQueue-test: revertAll() › reverts addition of linked field")
    func revertingRemovesAnAddedLinkAndRecord() {
        let store = Q.store()
        let update = store.applyOptimisticUpdate(
            data: nil, for: Q.changeName(),
            updater: { proxy, _ in
                let date = proxy.create(id: "fookey", typename: "Date")
                date.setValue(1, "day")
                _ = proxy.get("4")?.setLinkedRecord(date, "birthdate")
            })
        #expect(Q.value(store, "fookey", "day") == 1)
        store.revertOptimisticUpdate(update)
        #expect(store.snapshot()["fookey"] == nil)
        #expect(store.snapshot()["4"]?["birthdate"] == nil)
        #expect(store.read(OperationDescriptor(name: "Read", selections: [.field("day", type: .scalar("Int"))], variables: [:], rootID: "fookey", rootType: "Date")).isMissing)
    }
}

// MARK: - @deleteRecord (ExecuteMutationWithDeclarativeMutation)

/// `query CommentQuery($id: ID!) { node(id: $id) { id body { text } } }` and
/// `mutation DeleteCommentMutation($input: …) { commentDelete(input: $input) { deletedCommentId @deleteRecord } }`.
private enum DeleteRecord {
    static func query(_ id: String) -> OperationDescriptor {
        OperationDescriptor(
            name: "CommentQuery",
            selections: [
                .field(
                    "node", type: .object("Node"), arguments: ["id": .variable("id")],
                    selections: [
                        .field("__typename", type: .nonNull(.scalar("String"))), .field("id", type: .nonNull(.scalar("ID"))),
                        .field("body", type: .object("Text"), selections: [.field("text", type: .scalar("String"))]),
                    ])
            ],
            variables: ["id": .string(id)], rootType: "Query")
    }

    static func data(_ id: String, _ text: String) -> JSONObject {
        ["node": ["__typename": "Comment", "id": .string(id), "body": ["text": .string(text)]]]
    }

    static let mutation = OperationDescriptor(
        name: "DeleteCommentMutation",
        selections: [
            .field(
                "commentDelete", type: .object("CommentDeleteResponsePayload"), arguments: ["input": .variable("input")],
                selections: [.field("deletedCommentId", type: .scalar("ID"), directives: [.deleteRecord])])
        ],
        variables: ["input": ["clientMutationId": "0", "commentId": "comment-id"]], rootType: "Mutation")

    static func deleted(_ id: String) -> JSONObject { ["commentDelete": ["deletedCommentId": .string(id)]] }

    static func store(_ comments: [(String, String)]) -> Store {
        let store = Store(cacheKeys: .globalIDs)
        for (id, text) in comments { store.publish(data: data(id, text), for: query(id), fetched: true) }
        return store
    }
}

@Suite("Anchors: relay-runtime @deleteRecord")
struct RelayDeleteRecordCases {
    // relay-runtime RelayModernEnvironment-ExecuteMutationWithDeclarativeMutation-test.js: "commit the mutation, and remove the given id from the store"
    @Test("ExecuteMutationWithDeclarativeMutation-test: deleteFromStore › commit the mutation, and remove the given id from the store")
    func deleteRecordRemovesTheRecord() {
        let store = DeleteRecord.store([("comment-id", "Comment")])
        let query = DeleteRecord.query("comment-id")
        let reads = StoreReads()
        let (initial, subscription) = store.subscribe(query) { reads.append($0) }
        defer { subscription.cancel() }
        #expect(initial.data == DeleteRecord.data("comment-id", "Comment"))
        store.publish(data: DeleteRecord.deleted("comment-id"), for: DeleteRecord.mutation)
        #expect(reads.all.count == 1)
        #expect(reads.all.first?.data == ["node": nil])
        #expect(store.recordState(of: "comment-id") == .deleted)
    }

    // relay-runtime RelayModernEnvironment-ExecuteMutationWithDeclarativeMutation-test.js: "executes the optimist response, and remove the given id from the store"
    @Test("ExecuteMutationWithDeclarativeMutation-test: deleteFromStore › executes the optimistic response, and removes the given id from the store")
    func optimisticDeleteRecordRemovesTheRecord() {
        let store = DeleteRecord.store([("comment-id", "Comment")])
        let reads = StoreReads()
        let (_, subscription) = store.subscribe(DeleteRecord.query("comment-id")) { reads.append($0) }
        defer { subscription.cancel() }
        let update = store.applyOptimisticUpdate(data: DeleteRecord.deleted("comment-id"), for: DeleteRecord.mutation)
        #expect(reads.all.count == 1)
        #expect(reads.all.first?.data == ["node": nil])
        // Only optimistically: the base record is still there.
        #expect(store.snapshot()["comment-id"] != nil)
        store.revertOptimisticUpdate(update)
    }

    // relay-runtime RelayModernEnvironment-ExecuteMutationWithDeclarativeMutation-test.js: "removes different `id`s in optimistic update and the server response"
    @Test("ExecuteMutationWithDeclarativeMutation-test: deleteFromStore › removes different ids in optimistic update and the server response")
    func optimisticAndServerDeleteDifferentRecords() {
        let store = DeleteRecord.store([("comment-id", "Comment"), ("serverCommentId", "Comment 2")])
        let clientReads = StoreReads()
        let serverReads = StoreReads()
        let (_, clientSubscription) = store.subscribe(DeleteRecord.query("comment-id")) { clientReads.append($0) }
        let (_, serverSubscription) = store.subscribe(DeleteRecord.query("serverCommentId")) { serverReads.append($0) }
        defer {
            clientSubscription.cancel()
            serverSubscription.cancel()
        }
        let optimistic = store.applyOptimisticUpdate(data: DeleteRecord.deleted("comment-id"), for: DeleteRecord.mutation)
        #expect(clientReads.all.count == 1)
        #expect(store.read(DeleteRecord.query("comment-id")).data == ["node": nil])
        #expect(serverReads.all.isEmpty)
        #expect(store.read(DeleteRecord.query("serverCommentId")).data == DeleteRecord.data("serverCommentId", "Comment 2"))

        store.publish(data: DeleteRecord.deleted("serverCommentId"), for: DeleteRecord.mutation, replacing: optimistic)
        // The optimistic deletion is reverted...
        #expect(clientReads.all.count == 2)
        #expect(clientReads.all.last?.data == DeleteRecord.data("comment-id", "Comment"))
        // ...and the server's is applied.
        #expect(serverReads.all.count == 1)
        #expect(serverReads.all.last?.data == ["node": nil])
    }
}

// MARK: - RelayResponseNormalizer

@Suite("Anchors: relay-runtime RelayResponseNormalizer")
struct RelayResponseNormalizerCases {
    /// `query FooQuery($id: ID, $size: Int) { node(id: $id) { id __typename ... on User { firstName
    /// friends(first: 3) { edges { cursor node { id firstName } } } profilePicture(size: $size) { uri } } } }`
    static let fooQuery: [Selection] = [
        .field(
            "node", type: .object("Node"), arguments: ["id": .variable("id")],
            selections: [
                .field("id", type: .nonNull(.scalar("ID"))),
                .field("__typename", type: .nonNull(.scalar("String"))),
                .inlineFragment(
                    on: TypeCondition("User"),
                    selections: [
                        .field("firstName", type: .scalar("String")),
                        .field(
                            "friends", type: .object("FriendsConnection"), arguments: ["first": 3],
                            selections: [
                                .field(
                                    "edges", type: .list(.object("FriendsEdge")),
                                    selections: [
                                        .field("cursor", type: .scalar("String")),
                                        .field(
                                            "node", type: .object("User"),
                                            selections: [
                                                .field("id", type: .nonNull(.scalar("ID"))), .field("firstName", type: .scalar("String")),
                                            ]),
                                    ])
                            ]),
                        .field(
                            "profilePicture", type: .object("Image"), arguments: ["size": .variable("size")],
                            selections: [.field("uri", type: .scalar("String"))]),
                    ]),
            ])
    ]

    // relay-runtime RelayResponseNormalizer-test.js: "normalizes queries"
    @Test("RelayResponseNormalizer-test: normalizes queries")
    func normalizesQueries() throws {
        let payload: JSONObject = [
            "node": [
                "id": "1", "__typename": "User", "firstName": "Alice",
                "friends": [
                    "edges": [
                        ["cursor": "cursor:2", "node": ["id": "2", "firstName": "Bob"]],
                        nil,
                        ["cursor": "cursor:3", "node": ["id": "3", "firstName": "Claire"]],
                    ]
                ],
                "profilePicture": ["uri": "https://..."],
            ]
        ]
        let records = ResponseNormalizer.normalize(
            payload, selections: Self.fooQuery, rootType: "Query", variables: ["id": "1", "size": 32], cacheKeys: .globalIDs)
        let friendsID: DataID = "client:1:friends(first:3)"
        let edgeID1: DataID = "client:1:friends(first:3):edges:0"
        let edgeID2: DataID = "client:1:friends(first:3):edges:2"
        let pictureID: DataID = "client:1:profilePicture(size:32)"

        #expect(records.count == 8)
        #expect(records[.rootID]?[#"node(id:"1")"#] == .link("1"))
        let alice = try #require(records["1"])
        #expect(alice.typename == "User")
        #expect(alice["id"] == .scalar("1"))
        #expect(alice["firstName"] == .scalar("Alice"))
        #expect(alice["friends(first:3)"] == .link(friendsID))
        #expect(alice["profilePicture(size:32)"] == .link(pictureID))
        #expect(records["2"] == Record(id: "2", typename: "User", fields: ["id": .scalar("2"), "firstName": .scalar("Bob")]))
        #expect(records["3"] == Record(id: "3", typename: "User", fields: ["id": .scalar("3"), "firstName": .scalar("Claire")]))
        #expect(records[friendsID]?.typename == "FriendsConnection")
        #expect(records[friendsID]?["edges"] == .list([.link(edgeID1), .null, .link(edgeID2)]))
        #expect(
            records[edgeID1] == Record(id: edgeID1, typename: "FriendsEdge", fields: ["cursor": .scalar("cursor:2"), "node": .link("2")]))
        #expect(
            records[edgeID2] == Record(id: edgeID2, typename: "FriendsEdge", fields: ["cursor": .scalar("cursor:3"), "node": .link("3")]))
        #expect(records[pictureID] == Record(id: pictureID, typename: "Image", fields: ["uri": .scalar("https://...")]))
    }

    // relay-runtime RelayResponseNormalizer-test.js: "normalizes queries with "filters""
    @Test("RelayResponseNormalizer-test: normalizes queries with \"filters\"")
    func normalizesConnectionsByFilters() {
        let selections: [Selection] = [
            .field(
                "node", type: .object("Node"), arguments: ["id": .variable("id")],
                selections: [
                    .field("id", type: .nonNull(.scalar("ID"))),
                    .field("__typename", type: .nonNull(.scalar("String"))),
                    .inlineFragment(
                        on: TypeCondition("User"),
                        selections: [
                            .field(
                                "friends", type: .object("FriendsConnection"),
                                arguments: ["first": 1, "orderby": .variable("orderBy"), "isViewerFriend": .variable("isViewerFriend")],
                                directives: [.connection(key: "UserFriends_friends", filters: ["orderby", "isViewerFriend"])],
                                selections: [
                                    .field(
                                        "edges", type: .list(.object("FriendsEdge")),
                                        selections: [
                                            .field("cursor", type: .scalar("String")),
                                            .field("node", type: .object("User"), selections: [.field("id", type: .nonNull(.scalar("ID")))]),
                                        ]),
                                    .field(
                                        "pageInfo", type: .object("PageInfo"),
                                        selections: [
                                            .field("hasNextPage", type: .scalar("Boolean")), .field("endCursor", type: .scalar("String")),
                                        ]),
                                ])
                        ]),
                ])
        ]
        func payload(_ cursor: String, _ node: String) -> JSONObject {
            ["node": ["id": "4", "__typename": "User", "friends": ["edges": [["cursor": .string(cursor), "node": ["id": .string(node)]]]]]]
        }
        let lastName: JSONObject = ["id": "1", "orderBy": ["last name"], "isViewerFriend": true]
        let (_, handles) = ResponseNormalizer.normalizeWithHandles(
            payload("cursor:bestFriends", "pet"), selections: selections, rootType: "Query", variables: lastName, cacheKeys: .globalIDs)
        #expect(handles.count == 1)
        #expect(handles.first?.parentID == "4")
        #expect(handles.first?.storageKey == #"friends(first:1,isViewerFriend:true,orderby:["last name"])"#)
        #expect(handles.first?.directive == .connection(key: "UserFriends_friends", filters: ["orderby", "isViewerFriend"]))

        let store = Store(cacheKeys: .globalIDs)
        let query = { (variables: JSONObject) in
            OperationDescriptor(name: "UserFriends", selections: selections, variables: variables, rootType: "Query")
        }
        store.publish(data: payload("cursor:bestFriends", "pet"), for: query(lastName))
        store.publish(
            data: payload("cursor:bestFriends:2", "cat"), for: query(["id": "1", "orderBy": ["first name"], "isViewerFriend": true]))
        let records = store.snapshot()
        let byLastName = ConnectionHandler.getConnectionID(
            parentID: "4", key: "UserFriends_friends", filters: ["isViewerFriend": true, "orderby": ["last name"]])
        let byFirstName = ConnectionHandler.getConnectionID(
            parentID: "4", key: "UserFriends_friends", filters: ["isViewerFriend": true, "orderby": ["first name"]])
        #expect(byLastName == #"client:4:__UserFriends_friends_connection(isViewerFriend:true,orderby:["last name"])"#)
        #expect(records["4"]?[#"__UserFriends_friends_connection(isViewerFriend:true,orderby:["last name"])"#] == .link(byLastName))
        #expect(records["4"]?[#"__UserFriends_friends_connection(isViewerFriend:true,orderby:["first name"])"#] == .link(byFirstName))
        #expect(records[DataID(byLastName.rawValue + ":edges:0")]?["node"] == .link("pet"))
        #expect(records[DataID(byFirstName.rawValue + ":edges:0")]?["node"] == .link("cat"))
    }

    // relay-runtime RelayResponseNormalizer-test.js: "leaves undefined fields unset, as handleStrippedNulls == false"
    @Test("RelayResponseNormalizer-test: leaves undefined fields unset")
    func leavesUndefinedFieldsUnset() {
        let records = ResponseNormalizer.normalize(
            ["node": ["id": "1", "__typename": "User", "firstName": "Alice"]], selections: Self.fooQuery, rootType: "Query",
            variables: ["id": "1", "size": 32], cacheKeys: .globalIDs)
        #expect(records.count == 2)
        #expect(records["1"] == Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "firstName": .scalar("Alice")]))
        #expect(records["1"]?["profilePicture(size:32)"] == nil)
        #expect(records[.rootID]?[#"node(id:"1")"#] == .link("1"))
    }
}

// MARK: - RelayReader

@Suite("Anchors: relay-runtime RelayReader")
struct RelayReaderCases {
    /// RelayReader-test.js's records.
    static let source = RecordSource(records: [
        Record(
            id: "1", typename: "User",
            fields: [
                "id": .scalar("1"), "firstName": .scalar("Alice"), "friends(first:3)": .link("client:1"),
                "profilePicture(size:32)": .link("client:4"), "profilePicture(size:80)": .link("client:5"),
            ]),
        Record(id: "2", typename: "User", fields: ["id": .scalar("2"), "firstName": .scalar("Bob")]),
        Record(id: "3", typename: "User", fields: ["id": .scalar("3"), "firstName": .scalar("Claire")]),
        Record(id: "client:1", typename: "FriendsConnection", fields: ["edges": .list([.link("client:2"), .null, .link("client:3")])]),
        Record(id: "client:2", typename: "FriendsConnectionEdge", fields: ["cursor": .scalar("cursor:2"), "node": .link("2")]),
        Record(id: "client:3", typename: "FriendsConnectionEdge", fields: ["cursor": .scalar("cursor:3"), "node": .link("3")]),
        Record(id: "client:4", typename: "Photo", fields: ["uri": .scalar("https://example.com/32.png")]),
        Record(id: "client:5", typename: "Photo", fields: ["uri": .scalar("https://example.com/80.png")]),
        Record(id: .rootID, typename: "__Root", fields: [#"node(id:"1")"#: .link("1")]),
    ])

    /// `id firstName friends(first: 3) { edges { cursor node { id firstName } } } profilePicture(size: $size) { uri }`
    static let userFields: [Selection] = [
        .field("firstName", type: .scalar("String")),
        .field(
            "friends", type: .object("FriendsConnection"), arguments: ["first": 3],
            selections: [
                .field(
                    "edges", type: .list(.object("FriendsConnectionEdge")),
                    selections: [
                        .field("cursor", type: .scalar("String")),
                        .field(
                            "node", type: .object("User"),
                            selections: [.field("id", type: .nonNull(.scalar("ID"))), .field("firstName", type: .scalar("String"))]),
                    ])
            ]),
        .field(
            "profilePicture", type: .object("Photo"), arguments: ["size": .variable("size")],
            selections: [.field("uri", type: .scalar("String"))]),
    ]

    static let friendsData: JSONValue = [
        "edges": [
            ["cursor": "cursor:2", "node": ["id": "2", "firstName": "Bob"]],
            nil,
            ["cursor": "cursor:3", "node": ["id": "3", "firstName": "Claire"]],
        ]
    ]

    // relay-runtime RelayReader-test.js: "reads query data"
    @Test("RelayReader-test: reads query data")
    func readsQueryData() {
        let selections: [Selection] = [
            .field(
                "node", type: .object("Node"), arguments: ["id": .variable("id")],
                selections: [
                    .field("id", type: .nonNull(.scalar("ID"))),
                    .field("__typename", type: .nonNull(.scalar("String"))),
                    .inlineFragment(
                        on: TypeCondition("Page"),
                        selections: [.field("actors", type: .list(.object("Actor")), selections: [.field("name", type: .scalar("String"))])]),
                    .inlineFragment(on: TypeCondition("User"), selections: Self.userFields),
                ])
        ]
        let read = Reader.read(selections: selections, rootType: "Query", variables: ["id": "1", "size": 32], source: Self.source)
        #expect(!read.isMissing)
        #expect(
            read.data
                == [
                    "node": [
                        "id": "1", "__typename": "User", "firstName": "Alice", "friends": Self.friendsData,
                        "profilePicture": ["uri": "https://example.com/32.png"],
                    ]
                ])
        #expect(read.seenIDs == ["1", "2", "3", "client:1", "client:2", "client:3", "client:4", .rootID])
    }

    // relay-runtime RelayReader-test.js: "reads fragment data"
    @Test("RelayReader-test: reads fragment data")
    func readsFragmentData() {
        let read = Reader.read(
            selections: [Selection.field("id", type: .nonNull(.scalar("ID")))] + Self.userFields, rootID: "1", rootType: "User",
            variables: ["size": 32], source: Self.source)
        #expect(!read.isMissing)
        #expect(
            read.data
                == ["id": "1", "firstName": "Alice", "friends": Self.friendsData, "profilePicture": ["uri": "https://example.com/32.png"]])
        #expect(read.seenIDs == ["1", "2", "3", "client:1", "client:2", "client:3", "client:4"])
    }

    // relay-runtime RelayReader-test.js: "reads data when the root is deleted"
    @Test("RelayReader-test: reads data when the root is deleted")
    func readsDataWhenTheRootIsDeleted() {
        var source = RecordSource()
        source.delete("4")
        let read = Reader.read(selections: [.field("name", type: .scalar("String"))], rootID: "4", rootType: "User", source: source)
        #expect(read.data == nil)
        #expect(read.seenIDs == ["4"])
        // ANCHOR-EXPECTATION: relay reads a deleted root as null data that is not missing
        // (isMissingData false); Baton's reader reports any root it cannot read as missing.
        #expect(!read.isMissing)
    }

    // relay-runtime RelayReader-test.js: "reads data when the root is unfetched"
    @Test("RelayReader-test: reads data when the root is unfetched")
    func readsDataWhenTheRootIsUnfetched() {
        let read = Reader.read(
            selections: [.field("name", type: .scalar("String"))], rootID: "4", rootType: "User", source: RecordSource())
        #expect(read.data == nil)
        #expect(read.isMissing)
        #expect(read.seenIDs == ["4"])
    }

    // relay-runtime RelayReader-test.js: "reads "handle" fields for query root fragments"
    @Test("RelayReader-test: reads \"handle\" fields for query root fragments")
    func readsConnectionHandleFields() {
        // relay's `friends(first: 1) @__clientField(handle: "bestFriends")`, as Baton's
        // `@connection(key: "bestFriends")`: read from the parent's `__bestFriends_connection`.
        let source = RecordSource(records: [
            Record(id: "1", typename: "User", fields: ["__bestFriends_connection": .link("client:bestFriends")]),
            Record(id: "2", typename: "User", fields: ["id": .scalar("2"), "name": .scalar("handleName")]),
            Record(id: "client:bestFriends", typename: "FriendsConnection", fields: ["edges": .list([.link("client:bestFriendsEdge")])]),
            Record(
                id: "client:bestFriendsEdge", typename: "FriendsConnectionEdge",
                fields: ["cursor": .scalar("cursor:bestFriendsEdge"), "node": .link("2")]),
            Record(id: .rootID, typename: "__Root", fields: [#"node(id:"1")"#: .link("1")]),
        ])
        let selections: [Selection] = [
            .field(
                "node", type: .object("Node"), arguments: ["id": .variable("id")],
                selections: [
                    .inlineFragment(
                        on: TypeCondition("User"),
                        selections: [
                            .field(
                                "friends", type: .object("FriendsConnection"), arguments: ["first": 1],
                                directives: [.connection(key: "bestFriends", filters: nil)],
                                selections: [
                                    .field(
                                        "edges", type: .list(.object("FriendsConnectionEdge")),
                                        selections: [
                                            .field("cursor", type: .scalar("String")),
                                            .field(
                                                "node", type: .object("User"),
                                                selections: [
                                                    .field("id", type: .nonNull(.scalar("ID"))), .field("name", type: .scalar("String")),
                                                ]),
                                        ])
                                ])
                        ])
                ])
        ]
        let read = Reader.read(selections: selections, rootType: "Query", variables: ["id": "1"], source: source)
        #expect(!read.isMissing)
        #expect(
            read.data
                == ["node": ["friends": ["edges": [["cursor": "cursor:bestFriendsEdge", "node": ["id": "2", "name": "handleName"]]]]]])
        #expect(read.seenIDs == ["1", "2", "client:bestFriends", "client:bestFriendsEdge", .rootID])
    }

    // relay-runtime RelayReader-test.js: "should have `isMissingData = false` if data is available"
    @Test("RelayReader-test: isMissingData › readScalar › should have isMissingData = false if data is available")
    func scalarPresentIsNotMissing() {
        let read = Reader.read(selections: [.field("id", type: .nonNull(.scalar("ID")))], rootID: "1", rootType: "User", source: Self.source)
        #expect(read.data?["id"] == "1")
        #expect(!read.isMissing)
    }

    // relay-runtime RelayReader-test.js: "should have `isMissingData = true` if data is missing"
    @Test("RelayReader-test: isMissingData › readScalar › should have isMissingData = true if data is missing")
    func scalarAbsentIsMissing() {
        let read = Reader.read(
            selections: [.field("id", type: .nonNull(.scalar("ID"))), .field("username", type: .scalar("String"))], rootID: "1",
            rootType: "User", source: Self.source)
        #expect(read.data?["id"] == "1")
        #expect(read.data?["username"] == nil)
        #expect(read.isMissing)
    }

    // relay-runtime RelayReader-test.js: "reads data correctly when the match field record is null"
    @Test("RelayReader-test: @match › reads data correctly when the field record is null")
    func nullLinkedFieldReadsAsNull() {
        let source = RecordSource(records: [
            Record(id: "1", typename: "User", fields: ["id": .scalar("1"), #"nameRenderer(supported:"34hjiS")"#: .null])
        ])
        let selections: [Selection] = [
            .field("id", type: .nonNull(.scalar("ID"))),
            .field(
                "nameRenderer", type: .object("UserNameRenderer"), arguments: ["supported": "34hjiS"],
                selections: [.field("__typename", type: .nonNull(.scalar("String")))]),
        ]
        let read = Reader.read(selections: selections, rootID: "1", rootType: "User", source: source)
        #expect(read.data == ["id": "1", "nameRenderer": nil])
        #expect(read.seenIDs == ["1"])
        #expect(!read.isMissing)
    }

    // relay-runtime RelayReader-test.js: "reads data correctly when the match field record is missing"
    @Test("RelayReader-test: @match › reads data correctly when the field record is missing")
    func absentLinkedFieldIsMissing() {
        let source = RecordSource(records: [Record(id: "1", typename: "User", fields: ["id": .scalar("1")])])
        let selections: [Selection] = [
            .field("id", type: .nonNull(.scalar("ID"))),
            .field(
                "nameRenderer", type: .object("UserNameRenderer"), arguments: ["supported": "34hjiS"],
                selections: [.field("__typename", type: .nonNull(.scalar("String")))]),
        ]
        let read = Reader.read(selections: selections, rootID: "1", rootType: "User", source: source)
        #expect(read.data?["id"] == "1")
        #expect(read.data?["nameRenderer"] == nil)
        #expect(read.seenIDs == ["1"])
        #expect(read.isMissing)
    }
}
