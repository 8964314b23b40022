import BatonAPI
import BatonSQLite
import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// A cache that records every write and is slow on the ones it is told to be slow on.
final class SlowRecordingCache: NormalizedCache, Sendable {
    private let state = Locked<(records: [DataID: RecordState], writes: Int)>(([:], 0))
    private let slowWrites: Set<Int>

    init(slowWrites: Set<Int>) { self.slowWrites = slowWrites }

    var isPersistent: Bool { true }

    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] {
        state.withLock { state in state.records.filter { ids.contains($0.key) } }
    }

    func loadMetadata() throws -> CacheMetadata { CacheMetadata() }

    func write(_ batch: CacheBatch) throws {
        let number = state.withLock { state -> Int in
            state.writes += 1
            return state.writes
        }
        if slowWrites.contains(number) { Thread.sleep(forTimeInterval: 0.05) }
        state.withLock { state in
            for (id, change) in batch.records { state.records[id] = change }
        }
    }

    func clear() throws { state.withLock { $0.records.removeAll() } }

    var records: [DataID: RecordState] { state.withLock { $0.records } }
}

@Suite("Persistence order")
struct PersistenceOrderTests {
    static func value(_ store: Store) -> RecordValue? { store.snapshot()["counter"]?["value"] }

    @Test func writesReachASlowCacheInCommitOrderUnderConcurrentPublishers() async throws {
        for round in 0..<3 {
            let cache = SlowRecordingCache(slowWrites: [1, 2, 5, 9])
            let store = Store(cache: cache)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    // Threads of their own: publishers waiting on the store's lock while a slow write
                    // holds it must not hold Swift's cooperative pool.
                    group.addTask {
                        await onOwnThread {
                            store.publish(RecordSource(records: [Record(id: "counter", typename: "C", fields: ["value": .scalar(.int(index))])]))
                            if index % 5 == 0 { store.invalidateRecord("counter") }
                        }
                    }
                }
            }
            // Memory and the cache agree on the last commit, whatever order the threads ran in,
            // once the writes behind the publishes are done.
            store.waitUntilPersisted()
            let inMemory = try #require(store.recordState(of: "counter"))
            #expect(cache.records["counter"] == inMemory, "round \(round)")
        }
    }

    @Test func aReopenedSQLiteFileEqualsMemoryAfterConcurrentPublishes() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let snapshot: RecordSource
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                await withTaskGroup(of: Void.self) { group in
                    for writer in 0..<8 {
                        group.addTask {
                            await onOwnThread {
                                for step in 0..<25 {
                                    let id = DataID("r\((writer + step) % 5)")
                                    store.publish(
                                        RecordSource(records: [Record(id: id, typename: "R", fields: ["by": .scalar(.int(writer)), "step": .scalar(.int(step))])]))
                                    if step % 10 == 9 { store.collectGarbage() }
                                    if step == 20 && writer == 3 { store.clear() }
                                }
                            }
                        }
                    }
                }
                // What the store answers for each record, loading from the file what memory let go.
                snapshot = RecordSource((0..<5).reduce(into: [:]) { states, index in
                    states[DataID("r\(index)")] = store.recordState(of: DataID("r\(index)"))
                })
            }
            var reopened = try SQLiteNormalizedCache(fileURL: url).allRecords()
            reopened.remove(.rootID)
            #expect(reopened == snapshot)
        }
    }

    @Test func aFailedWriteIsReportedAndMemoryKeepsWorking() {
        struct FullDisk: Error {}
        final class FailingCache: NormalizedCache {
            var isPersistent: Bool { true }
            func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { [:] }
            func loadMetadata() throws -> CacheMetadata { CacheMetadata() }
            func write(_ batch: CacheBatch) throws { throw FullDisk() }
            func clear() throws { throw FullDisk() }
        }
        let store = Store(cache: FailingCache())
        store.publish(RecordSource(records: [Record(id: "a", typename: "A", fields: ["v": .scalar(1)])]))
        #expect(store.snapshot()["a"]?["v"] == .scalar(1))
        let errors = store.takePersistenceErrors()
        #expect(errors.count == 1)
        #expect(errors.first is FullDisk)
        #expect(store.takePersistenceErrors().isEmpty)
    }

    @Test func openOrRecoverFallsBackToMemoryInAFolderItCannotWrite() throws {
        // A path under a regular file can never be created, whoever runs the test (root included).
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("baton-blocker-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let (cache, problem) = SQLiteNormalizedCache.openOrRecover(fileURL: blocker.appendingPathComponent("cache.sqlite"))
        #expect(problem != nil)
        #expect(cache is InMemoryNormalizedCache)
        let store = Store(cache: cache)
        store.publish(RecordSource(records: [Record(id: "a", typename: "A", fields: ["v": .scalar(1)])]))
        #expect(store.snapshot()["a"]?["v"] == .scalar(1))
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/:memory:"))
    }
}
