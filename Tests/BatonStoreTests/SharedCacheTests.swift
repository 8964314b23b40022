import BatonAPI
@testable import BatonSQLite
@testable import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// Issue 29, items 5 and 6: one cache file shared by several stores and processes, and
/// eviction by size that keeps what retained queries need.
@Suite("A shared SQLite cache", .ownThread)
struct SharedCacheTests {
    static func user(_ id: String) -> OperationDescriptor { PersistenceTests.user(id) }
    static func userData(_ id: Int, name: String = "") -> JSONObject { PersistenceTests.userData(id, name: name) }

    // MARK: Two processes

    /// Two real processes write their own fields of the same records (and of the root) and read
    /// the other's, at once, thousands of steps each. Each checks as it goes that nothing it
    /// wrote was lost, that the other's values never go back and never come torn; the file
    /// holds at the end what each last wrote (the model: each worker's last generation per record).
    @Test(arguments: [(UInt64(1), UInt64(2)), (UInt64(7), UInt64(8))])
    func twoProcessesWritingAndReadingOneFileLoseNothing(seeds: (UInt64, UInt64)) async throws {
        let worker = try #require(stressExecutable())
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("shared.sqlite")
            let outputs = try await onOwnThread { () throws -> [(status: Int32, output: String)] in
                let processes = try [seeds.0, seeds.1].enumerated().map { index, seed in
                    let process = Process()
                    process.executableURL = worker
                    process.arguments = ["share", url.path, "\(index)", "6000", "\(seed)"]
                    let output = Pipe()
                    process.standardOutput = output
                    process.standardError = output
                    try process.run()
                    return (process, output)
                }
                return processes.map { process, output in
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
                }
            }
            var model: [[Int]] = []
            var roots: [Int] = []
            for (index, run) in outputs.enumerated() {
                #expect(run.status == 0, "worker \(index): \(run.output.split(separator: "\n").prefix(8).joined(separator: "\n"))")
                let final = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("final ") })
                let pairs = final.split(separator: " ").dropFirst(2).map { $0.split(separator: "=") }
                model.append(pairs.filter { $0[0] != "root" }.map { Int($0[1])! })
                roots.append(Int(pairs.first { $0[0] == "root" }![1])!)
            }
            let cache = try SQLiteNormalizedCache(fileURL: url)
            let stored = try cache.allRecords()
            #expect(cache.unreadableRecordCount == 0)
            for key in 0..<8 {
                let record = stored[DataID("shared:\(key)")]
                for worker in 0..<2 where model[worker][key] > 0 {
                    let value = record?["w\(worker)"]?.scalarValue?.intValue
                    #expect(value == model[worker][key], "shared:\(key) worker \(worker)")
                    #expect(record?["w\(worker)_check"]?.scalarValue?.stringValue == "\(model[worker][key])-\(worker)-\(key)")
                }
            }
            for worker in 0..<2 {
                #expect(stored[.rootID]?["worker\(worker)"]?.scalarValue?.intValue == roots[worker])
            }
        }
    }

    /// Two processes take turns: what one has written (and waited to be in the file) the
    /// other reads on its very next read, both ways, over and over on the same records.
    @Test func eachProcessSeesTheOthersCommitOnItsNextRead() async throws {
        let worker = try #require(stressExecutable())
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("turns.sqlite")
            let transcript = try await onOwnThread { () throws -> [String] in
                let peers = try (0..<2).map { _ in try Peer(worker, ["serve", url.path]) }
                defer { for peer in peers { peer.quit() } }
                var mismatches: [String] = []
                for peer in peers where peer.line() != "ready" { mismatches.append("a peer did not start") }
                for round in 0..<60 {
                    let (writer, reader) = round % 2 == 0 ? (peers[0], peers[1]) : (peers[1], peers[0])
                    let id = "item:\(round % 3)"
                    // The reader has the record in memory already (it read it last round).
                    _ = reader.ask("get \(id)")
                    let answer = writer.ask("put \(id) v\(round)")
                    if answer != "ok" { mismatches.append("round \(round): put answered \(answer ?? "nothing")") }
                    let seen = reader.ask("get \(id)")
                    if seen != "v\(round)" { mismatches.append("round \(round): \(id) read \(seen ?? "nothing"), v\(round) was written") }
                }
                return mismatches
            }
            #expect(transcript.isEmpty, "\(transcript)")
        }
    }

    // MARK: Two stores in one process

    /// The merge that keeps another writer's fields: store B changed a field of a record store A
    /// holds in memory; A's later edit of another field is written over B's copy, field by
    /// field, and A's next look reports the record, whose stored copy its memory lacks.
    @Test func aWriteMergesItsEditsOverAnotherWritersNewerCopy() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("merge.sqlite")
            let a = try SQLiteNormalizedCache(fileURL: url)
            let b = try SQLiteNormalizedCache(fileURL: url)
            let original = Record(id: "User:1", typename: "User", fields: ["name": .scalar("Ann"), "age": .scalar(.int(1))])
            try a.write(CacheBatch(records: ["User:1": .present(original)], epoch: 1))
            // B was open when A wrote: its next look finds the record (and then nothing more).
            #expect(try b.changesByOthers()?.recordIDs == ["User:1"])
            #expect(try b.changesByOthers() == nil)
            #expect(try b.loadRecords(forKeys: ["User:1"])["User:1"] == .present(original))
            var older = original
            older.fields["age"] = .scalar(.int(2))
            try b.write(CacheBatch(records: ["User:1": .present(older)], epoch: 2))
            // A edits the name of its (now older) copy before it looked.
            var mine = original
            mine.fields["name"] = .scalar("Bo")
            var edits = RecordSource()
            edits.set(Record(id: "User:1", fields: ["name": .scalar("Bo")]))
            try a.write(CacheBatch(records: ["User:1": .present(mine)], epoch: 2, changes: edits))
            let stored = try #require(try a.allRecords()["User:1"])
            #expect(stored["name"] == .scalar("Bo"))
            #expect(stored["age"] == .scalar(.int(2)))
            let changes = try #require(try a.changesByOthers())
            #expect(changes.recordIDs == ["User:1"])
            #expect(!changes.cleared)
            #expect(try a.changesByOthers() == nil)
            // B hears of A's write too.
            #expect(try b.changesByOthers()?.recordIDs == ["User:1"])
        }
    }

    /// The short form of a commit's edits (`CacheBatch.recordsNotEdited`, which a first
    /// response into a store sends) merges as the long form does: the edits of a record the
    /// store held go over another writer's newer copy, a record new to the store is its own
    /// edit, and a record the commit did not edit keeps the stored copy.
    @Test func theShortFormOfACommitsEditsMergesOverAnotherWritersNewerCopy() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("merge.sqlite")
            let a = try SQLiteNormalizedCache(fileURL: url)
            let b = try SQLiteNormalizedCache(fileURL: url)
            let original = Record(id: "User:1", typename: "User", fields: ["name": .scalar("Ann"), "age": .scalar(.int(1))])
            let third = Record(id: "User:3", typename: "User", fields: ["name": .scalar("Cy")])
            try a.write(CacheBatch(records: ["User:1": .present(original), "User:3": .present(third)], epoch: 1))
            #expect(try b.changesByOthers()?.recordIDs == ["User:1", "User:3"])
            var older = original
            older.fields["age"] = .scalar(.int(2))
            var renamed = third
            renamed.fields["name"] = .scalar("Di")
            try b.write(CacheBatch(records: ["User:1": .present(older), "User:3": .present(renamed)], epoch: 2))
            var mine = original
            mine.fields["name"] = .scalar("Bo")
            let new = Record(id: "User:2", typename: "User", fields: ["name": .scalar("Eve")])
            var held = RecordSource()
            held.set(Record(id: "User:1", fields: ["name": .scalar("Bo")]))
            var batch = CacheBatch(
                records: ["User:1": .present(mine), "User:2": .present(new), "User:3": .present(third)], epoch: 2, changes: held)
            batch.recordsNotEdited = ["User:3"]
            #expect(batch.edit(of: "User:1") == held.state(of: "User:1"))
            #expect(batch.edit(of: "User:2") == .present(new))
            #expect(batch.edit(of: "User:3") == nil)
            #expect(batch.allEdits() == RecordSource(["User:1": held.state(of: "User:1")!, "User:2": .present(new)]))
            try a.write(batch)
            let stored = try a.allRecords()
            #expect(stored["User:1"]?["name"] == .scalar("Bo"))
            #expect(stored["User:1"]?["age"] == .scalar(.int(2)))
            #expect(stored["User:2"] == new)
            #expect(stored["User:3"]?["name"] == .scalar("Di"))
        }
    }

    /// Field ages through the merge: store B writes a record store A wrote before (so its write
    /// is merged over A's stored copy); the fields B wrote carry B's date in the file, in B's
    /// memory and in A's, not A's older one (the two-store model test's disagreement with ages:
    /// the edits merged over the stored copy had no ages, so the stored dates stayed).
    @Test func aCommitMergedOverAnotherStoresCopyKeepsItsOwnFieldAges() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("ages.sqlite")
            let clock = TestClock()
            let freshness = CacheFreshness(defaultMaxAge: .seconds(10))
            let a = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: freshness, clock: clock)
            let b = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: freshness, clock: clock)
            a.publish(data: Self.userData(1), for: Self.user("1"), received: ResponseAge())
            a.waitUntilPersisted()
            #expect(!b.read(Self.user("1")).isMissing)
            clock.advance(seconds: 3)
            b.publish(data: Self.userData(1, name: "again"), for: Self.user("1"), received: ResponseAge())
            b.waitUntilPersisted()
            let expected = clock.now.addingTimeInterval(10)
            #expect(b.read(Self.user("1")).staleAt == expected)
            #expect(a.read(Self.user("1")).staleAt == expected)
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url), freshness: freshness, clock: clock)
            #expect(reopened.read(Self.user("1")).staleAt == expected)
        }
    }

    /// Two stores over one file in one process publish different queries at once, without
    /// waiting for each other: both root fields survive (the root record is merged field by
    /// field), and a third store reads both queries.
    @Test func concurrentPublishesOfTwoStoresKeepBothRootFields() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("roots.sqlite")
            let a = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            let b = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            for round in 0..<40 {
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    let id = round * 2 + index
                    (index == 0 ? a : b).publish(data: Self.userData(id), for: Self.user("\(id)"), fetched: true)
                }
            }
            a.waitUntilPersisted()
            b.waitUntilPersisted()
            let reader = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            for id in 0..<80 {
                #expect(reader.read(Self.user("\(id)")).data == Self.userData(id), "user \(id)")
                #expect(reader.check(Self.user("\(id)")) == .available, "user \(id)")
            }
            // And each writer sees the other's queries on its next read.
            #expect(a.read(Self.user("1")).data == Self.userData(1))
            #expect(b.read(Self.user("0")).data == Self.userData(0))
        }
    }

    /// A watcher of one store re-emits when another store's commit changes what it read, once
    /// its store next reads or commits (the change is found by SQLite's data version, not by
    /// polling); a clear by the other store empties this one's memory.
    @Test func anotherStoresCommitsReachWatchersAndItsClearEmptiesMemory() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("watch.sqlite")
            let a = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            let b = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            a.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
            a.waitUntilPersisted()
            let names = Locked<[JSONValue?]>([])
            let (initial, subscription) = a.subscribe(Self.user("1")) { result in
                names.withLock { $0.append(result.data?["user"]?["name"]) }
            }
            #expect(initial.data == Self.userData(1))
            b.publish(data: Self.userData(1, name: "renamed"), for: Self.user("1"), fetched: true)
            b.waitUntilPersisted()
            _ = a.read(Self.user("2"))
            #expect(names.withLock { $0 } == [.string("renamed")])
            b.invalidateRecord("User:1")
            b.waitUntilPersisted()
            #expect(a.check(Self.user("1")) == .stale)
            b.clear()
            b.waitUntilPersisted()
            #expect(a.read(Self.user("1")).isMissing)
            #expect(a.check(Self.user("1")) == .missing)
            #expect(a.recordState(of: "User:1") == nil)
            subscription.cancel()
        }
    }

    // MARK: Size-capped eviction

    /// Issue 29, item 6: a byte bound on the file; the least recently read records leave it,
    /// on the store's writer (not the caller's thread), and never one a retained query reads,
    /// even when it is the least recently read of all.
    @Test func evictionBySizeKeepsWhatARetainedQueryReads() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("bounded.sqlite")
            let bound = 1 << 20
            let policy = CacheEvictionPolicy(maxBytes: bound, checkInterval: 1)
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url, eviction: policy), workingSetLimit: 64)
            store.publish(data: Self.userData(1), for: Self.user("1"), fetched: true)
            let token = store.retain(Self.user("1"))
            // Never read again; thousands of other records are written after it.
            let body = String(repeating: "z", count: 1_500)
            for batch in 0..<30 {
                var records = RecordSource()
                for index in 0..<50 {
                    let id = DataID("Other:\(batch * 50 + index)")
                    records.set(Record(id: id, typename: "Other", fields: ["body": .scalar(.string(body))]))
                }
                store.publish(records)
            }
            store.waitUntilPersisted()
            #expect(store.takePersistenceErrors().isEmpty)
            let cache = try SQLiteNormalizedCache(fileURL: url)
            #expect(try cache.usedBytes() <= bound)
            let left = try cache.allRecords()
            #expect(left["Other:0"] == nil)
            #expect(left["Other:1499"] != nil)
            for id in ["User:1", "User:1001", "User:2001"] { #expect(left[DataID(id)] != nil, "\(id)") }
            // After a restart the retained query still reads from the file alone.
            #expect(Store(cache: cache).read(Self.user("1")).data == Self.userData(1))
            token.release()
        }
    }

    /// Reading times reach the file in batches: a thousand reads with no commit make one write
    /// of their times, behind the reader; fewer wait for the next commit.
    @Test func readingTimesAreWrittenInBatchesNotPerRead() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("reads.sqlite")
            let writes = WriteCounter(try SQLiteNormalizedCache(fileURL: url))
            let store = Store(cache: writes)
            var records = RecordSource()
            for index in 0..<1_500 { records.set(Record(id: DataID("R:\(index)"), typename: "R", fields: ["n": .scalar(.int(index))])) }
            store.publish(records)
            store.waitUntilPersisted()
            let before = try Self.usedAt(url, "R:0")
            try await Task.sleep(for: .milliseconds(30))
            let writesBefore = writes.count
            for index in 0..<(Store.readsPerReadingTimeWrite - 1) { _ = store.recordState(of: DataID("R:\(index)")) }
            store.waitUntilPersisted()
            #expect(writes.count == writesBefore)
            _ = store.recordState(of: DataID("R:\(Store.readsPerReadingTimeWrite - 1)"))
            store.waitUntilPersisted()
            #expect(writes.count == writesBefore + 1)
            #expect(try Self.usedAt(url, "R:0") > before)
            #expect(try Self.usedAt(url, "R:1400") == before)
        }
    }

    static func usedAt(_ url: URL, _ id: String) throws -> Double {
        let connection = try SQLiteConnection(path: url.path)
        var value = 0.0
        try connection.run("SELECT used_at FROM records WHERE id = ?", [.text(id)]) { row in value = row.double(0) }
        return value
    }
}

/// A cache that counts its writes.
final class WriteCounter: NormalizedCache, Sendable {
    let inner: SQLiteNormalizedCache
    private let writes = Locked(0)

    init(_ inner: SQLiteNormalizedCache) { self.inner = inner }

    var count: Int { writes.withLock { $0 } }
    var isPersistent: Bool { true }
    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { try inner.loadRecords(forKeys: ids) }
    func loadMetadata() throws -> CacheMetadata { try inner.loadMetadata() }
    func write(_ batch: CacheBatch) throws {
        writes.withLock { $0 += 1 }
        try inner.write(batch)
    }
    func clear() throws { try inner.clear() }
    func changesByOthers() throws -> CacheChangesByOthers? { try inner.changesByOthers() }
}

/// A child process spoken to a line at a time.
final class Peer {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffered = Data()

    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// The next line it printed (`nil` once it has exited).
    func line() -> String? {
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<end], as: UTF8.self)
                buffered = Data(buffered[(end + 1)...])
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { return nil }
            buffered.append(more)
        }
    }

    func ask(_ command: String) -> String? {
        input.fileHandleForWriting.write(Data("\(command)\n".utf8))
        return line()
    }

    func quit() {
        try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        process.waitUntilExit()
    }
}
