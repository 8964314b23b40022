import BatonAPI
import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// A persistent cache whose writes wait at a gate the test opens, and fail while told to:
/// a slow, then a failing, disk.
final class GatedCache: NormalizedCache, Sendable {
    private struct State {
        var records: [DataID: RecordState] = [:]
        var batches: [CacheBatch] = []
        var gateOpen = true
        var failing = false
        var writesStarted = 0
        var writeCalls = 0
    }

    private let state = Locked(State())
    private let condition = NSCondition()

    var isPersistent: Bool { true }

    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] {
        state.withLock { state in state.records.filter { ids.contains($0.key) } }
    }

    func loadMetadata() throws -> CacheMetadata { CacheMetadata() }

    func write(_ batch: CacheBatch) throws {
        state.withLock { $0.writesStarted += 1 }
        condition.lock()
        while !state.withLock({ $0.gateOpen }) { condition.wait() }
        condition.unlock()
        struct DiskFull: Error {}
        if state.withLock({ $0.failing }) { throw DiskFull() }
        state.withLock { state in
            state.batches.append(batch)
            for (id, change) in batch.records { state.records[id] = change }
        }
    }

    func write(_ batches: [CacheBatch]) throws {
        state.withLock { $0.writeCalls += 1 }
        for batch in batches { try write(batch) }
    }

    func clear() throws { state.withLock { $0.records.removeAll() } }

    /// Closes or opens the gate every write waits at.
    func setGate(open: Bool) {
        condition.lock()
        state.withLock { $0.gateOpen = open }
        condition.broadcast()
        condition.unlock()
    }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    var records: [DataID: RecordState] { state.withLock { $0.records } }
    var batches: [CacheBatch] { state.withLock { $0.batches } }
    var writesStarted: Int { state.withLock { $0.writesStarted } }
    var writeCalls: Int { state.withLock { $0.writeCalls } }
}

/// A gated cache that reads ahead as SQLite's does with a write's batch: any load gives every
/// record the cache holds.
final class ReadingAheadCache: NormalizedCache, Sendable {
    let gated = GatedCache()

    var isPersistent: Bool { true }
    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { gated.records }
    func loadMetadata() throws -> CacheMetadata { try gated.loadMetadata() }
    func write(_ batch: CacheBatch) throws { try gated.write(batch) }
    func write(_ batches: [CacheBatch]) throws { try gated.write(batches) }
    func clear() throws { try gated.clear() }
}

private func counter(_ id: DataID, _ value: Int) -> RecordSource {
    RecordSource(records: [Record(id: id, typename: "Counter", fields: ["value": .scalar(.int(value))])])
}

private func value(_ state: RecordState?) -> Int? {
    guard case .present(let record)? = state else { return nil }
    return record["value"]?.scalarValue?.intValue
}

/// Issue 26, item 3: persistence is written behind, in commit order and whole, and a slow,
/// full or failing disk blocks no reader, watcher or publisher.
@Suite("Write-behind persistence", .ownThread)
struct WriteBehindTests {
    @Test func aCacheWhoseWriteBlocksDelaysNoOtherPublishOrRead() async throws {
        let cache = GatedCache()
        cache.setGate(open: false)
        let store = Store(cache: cache)
        store.publish(counter("a", 1))
        // The first write is now stuck on the disk; the store goes on without waiting for it.
        let descriptor = OperationDescriptor(
            name: "A", selections: [.field("value", type: .scalar("Int"))], variables: [:], rootID: "a", rootType: "Counter")
        let notified = Locked(0)
        let subscription = store.subscribe(descriptor) { _ in notified.withLock { $0 += 1 } }.subscription
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    await onOwnThread {
                        for round in 0..<25 {
                            store.publish(counter(DataID("task:\(task)"), round))
                            _ = store.read(descriptor)
                        }
                    }
                }
            }
        }
        store.publish(counter("a", 2))
        // Every publish, read and notification happened while the disk held the first write.
        #expect(cache.batches.isEmpty)
        #expect(notified.withLock { $0 } == 1)
        #expect(value(store.recordState(of: "a")) == 2)
        #expect(value(store.recordState(of: "task:3")) == 24)
        cache.setGate(open: true)
        store.waitUntilPersisted()
        #expect(value(cache.records["a"]) == 2)
        #expect((0..<4).allSatisfy { value(cache.records[DataID("task:\($0)")]) == 24 })
        // Commits reached the cache in commit order, each whole, those that waited in one call.
        let epochs = cache.batches.map(\.epoch)
        #expect(epochs == epochs.sorted())
        #expect(cache.batches.count == 102)
        #expect(cache.writeCalls < 102)
        subscription.cancel()
    }

    @Test func aFailingDiskLosesNoCommitFromMemoryAndIsReported() throws {
        let cache = GatedCache()
        let store = Store(cache: cache, workingSetLimit: 4)
        cache.setFailing(true)
        for index in 0..<20 { store.publish(counter(DataID("r:\(index)"), index)) }
        let errors = store.takePersistenceErrors()
        #expect(!errors.isEmpty)
        #expect(cache.records.isEmpty)
        // The working set may hold 4 records, yet what the disk refused stays: memory has the only copy.
        for index in 0..<20 { #expect(value(store.recordState(of: DataID("r:\(index)"))) == index) }
        cache.setFailing(false)
        store.publish(counter("r:0", 100))
        #expect(store.takePersistenceErrors().isEmpty)
        #expect(value(cache.records["r:0"]) == 100)
    }

    @Test func aRecordWaitingForItsWriteIsReadFromMemoryNotTheCachesOlderCopy() throws {
        let cache = GatedCache()
        let store = Store(cache: cache, workingSetLimit: 2)
        store.publish(counter("x", 1))
        store.waitUntilPersisted()
        cache.setGate(open: false)
        store.publish(counter("x", 2))
        // Many other records pass through the 2-record working set while x's write waits.
        for index in 0..<10 { store.publish(counter(DataID("other:\(index)"), index)) }
        #expect(value(store.recordState(of: "x")) == 2)
        #expect(value(cache.records["x"]) == 1)
        cache.setGate(open: true)
        store.waitUntilPersisted()
        #expect(value(cache.records["x"]) == 2)
    }

    /// A load that reads ahead more records than memory holds takes the loaded table as
    /// memory's (a cold read): a record memory holds newer, its write still waiting, must win
    /// over the cache's older copy read ahead.
    @Test func aLoadThatReadsAheadKeepsTheNewerRecordMemoryHolds() throws {
        let cache = ReadingAheadCache()
        do {
            let writer = Store(cache: cache)
            for id in ["a", "b", "c", "d", "e"] as [DataID] { writer.publish(counter(id, 1)) }
            writer.waitUntilPersisted()
        }
        let store = Store(cache: cache)
        cache.gated.setGate(open: false)
        store.publish(counter("b", 2))
        // Collection frees memory of every record but b (the cache keeps them): b's write waits.
        store.collectGarbage()
        // Reading a loads it, and the cache gives b to e with it, b at 1.
        #expect(value(store.recordState(of: "a")) == 1)
        #expect(value(store.recordState(of: "b")) == 2)
        #expect(value(store.recordState(of: "e")) == 1)
        #expect(value(cache.gated.records["b"]) == 1)
        cache.gated.setGate(open: true)
        store.waitUntilPersisted()
        #expect(value(store.recordState(of: "b")) == 2)
        #expect(value(cache.gated.records["b"]) == 2)
    }

    @Test func clearIsWrittenBehindAndTheOldCacheIsNotReadMeanwhile() throws {
        let cache = GatedCache()
        let store = Store(cache: cache, workingSetLimit: 2)
        for index in 0..<6 { store.publish(counter(DataID("r:\(index)"), index)) }
        store.waitUntilPersisted()
        cache.setGate(open: false)
        store.clear()
        store.publish(counter("r:5", 50))
        // The cache still has r:0 until the clear is written; the store must not bring it back.
        #expect(store.recordState(of: "r:0") == nil)
        #expect(value(store.recordState(of: "r:5")) == 50)
        cache.setGate(open: true)
        store.waitUntilPersisted()
        #expect(cache.records.keys.sorted { $0.rawValue < $1.rawValue } == ["r:5"])
    }

    /// Issue 26, item 4.
    @Test func anUnchangedRefetchReplacesNothingNotifiesNoOneAndWritesNothing() throws {
        let cache = GatedCache()
        let store = Store(cache: cache)
        let descriptor = OperationDescriptor(
            name: "Q", selections: [.field("hero", type: .object("Character"), selections: [.field("id", type: .scalar("ID")), .field("name", type: .scalar("String"))])],
            variables: [:], rootID: .rootID, rootType: "Query")
        let data: JSONObject = ["hero": .object(["id": .string("1"), "name": .string("R2-D2")])]
        store.publish(data: data, for: descriptor, fetched: true)
        store.waitUntilPersisted()
        let writes = cache.batches.count
        let notified = Locked(0)
        let subscription = store.subscribe(descriptor) { _ in notified.withLock { $0 += 1 } }.subscription
        let changed = store.publish(data: data, for: descriptor, fetched: true)
        #expect(changed.isEmpty)
        #expect(notified.withLock { $0 } == 0)
        // Nothing reaches the disk: the writer's queue is done and no write started. The refetch's
        // fetch time waits for the next write that changes data (or waitUntilPersisted()).
        store.waitForQueuedWrites()
        #expect(cache.writesStarted == writes)
        #expect(cache.batches.count == writes)
        // A one-field change notifies and writes that record only.
        var renamed = data
        renamed["hero"] = .object(["id": .string("1"), "name": .string("Artoo")])
        let renamedIDs = store.publish(data: renamed, for: descriptor, fetched: true)
        #expect(renamedIDs.count == 1)
        #expect(notified.withLock { $0 } == 1)
        store.waitUntilPersisted()
        #expect(cache.batches.last.map { Set($0.records.keys) } == renamedIDs)
        // The deferred fetch time went with that write, not in a write of its own.
        #expect(cache.batches.count == writes + 1)
        #expect(cache.batches.last?.fetches.keys.contains(descriptor.rootKey) == true)
        subscription.cancel()
    }

    /// A fetch time deferred by an unchanged refetch reaches the cache at waitUntilPersisted(),
    /// in one write of fetch times alone.
    @Test func anUnchangedRefetchsFetchTimeIsWrittenByWaitUntilPersisted() throws {
        let cache = GatedCache()
        let store = Store(cache: cache)
        let descriptor = OperationDescriptor(
            name: "Q", selections: [.field("hero", type: .object("Character"), selections: [.field("id", type: .scalar("ID"))])],
            variables: [:], rootID: .rootID, rootType: "Query")
        let data: JSONObject = ["hero": .object(["id": .string("1")])]
        store.publish(data: data, for: descriptor, fetched: true)
        store.waitUntilPersisted()
        let writes = cache.batches.count
        for _ in 0..<5 { store.publish(data: data, for: descriptor, fetched: true) }
        store.waitForQueuedWrites()
        #expect(cache.batches.count == writes)
        store.waitUntilPersisted()
        #expect(cache.batches.count == writes + 1)
        #expect(cache.batches.last?.records.isEmpty == true)
        #expect(cache.batches.last?.fetches.keys.contains(descriptor.rootKey) == true)
    }

    /// A first response into an empty store writes every record memory holds: its batch shares
    /// the store's table instead of copying it. The store's next commits, made while the writer
    /// still holds that batch, change memory and not the batch, and the cache ends with what
    /// memory has.
    @Test func aFirstResponsesBatchSharesTheTableAndLaterCommitsLeaveItAsItWas() {
        let cache = GatedCache()
        cache.setGate(open: false)
        let store = Store(cache: cache)
        // The root too (a new store's memory holds an empty one): every record is written.
        var first = RecordSource(records: [Record(id: .rootID, fields: ["counters": .list((0..<50).map { .link(DataID("c:\($0)")) })])])
        for index in 0..<50 {
            first.set(Record(id: DataID("c:\(index)"), typename: "Counter", fields: ["value": .scalar(.int(index))]))
        }
        store.publish(first)
        // Held by the writer (the gate is shut): the next commits change the table under it.
        store.publish(counter("c:7", 700))
        store.publish(counter("c:60", 60))
        cache.setGate(open: true)
        store.waitUntilPersisted()
        let batches = cache.batches
        #expect(batches.count == 3)
        #expect(batches.first?.wholeTable != nil)
        #expect(batches.first?.recordCount == 51)
        #expect(value(batches.first?.records["c:7"] ?? nil) == 7)
        #expect(batches.dropFirst().allSatisfy { $0.wholeTable == nil && $0.recordCount == 1 })
        #expect(value(cache.records["c:7"]) == 700)
        #expect(value(cache.records["c:60"]) == 60)
        #expect(cache.records.count == 52)
        for (id, state) in store.snapshot().states { #expect(cache.records[id] == state, "\(id)") }
    }

    /// A batch sharing a store's table reads, compares and hashes as the same batch with its
    /// records listed; changing an entry lists them.
    @Test func aBatchSharingATableIsTheBatchWithItsRecordsListed() {
        let record = Record(id: "a", typename: "Counter", fields: ["value": .scalar(1)])
        var shared = CacheBatch(epoch: 3)
        shared.wholeTable = ["a": .present(record), "b": .deleted]
        let listed = CacheBatch(records: ["a": .present(record), "b": .deleted], epoch: 3)
        #expect(shared == listed)
        #expect(shared.hashValue == listed.hashValue)
        #expect(shared.records == listed.records)
        #expect(shared.recordCount == 2)
        #expect(shared.recordState(of: "b") == .some(.deleted))
        #expect(shared.recordState(of: "c") == nil)
        #expect(shared.changesData)
        var changed = shared
        changed.records["c"] = .some(nil)
        #expect(changed.wholeTable == nil)
        #expect(changed.recordCount == 3)
        #expect(changed.recordState(of: "c") == .some(nil))
        #expect(shared.recordCount == 2)
    }
}
