import BatonAPI
import BatonSQLite
import BatonStore
import Dispatch
import Foundation

/// Figures of the commit path (issue 26): what an unchanged refetch and a one-field change cost,
/// what the caller of a publish into an SQLite-backed store waits for, and whether publishes from
/// two threads run side by side.
enum CommitFigures {
    static let query = IssuesAndCommentsForRepositoryQuery()

    static func figures(response: Data) async throws -> ([Figure], [String]) {
        var notes: [String] = []
        guard let data = try JSONValue(parsing: response)["data"]?.objectValue else { throw BenchError("no data") }
        let descriptor = OperationDescriptor(operation: query)
        var figures: [Figure] = []
        figures.append(try await RefetchFigures.unchangedRefetch(response: response, notes: &notes))
        figures.append(try unchangedCommit(data: data, descriptor: descriptor))
        figures.append(try oneFieldChange(response: response))
        figures.append(try sqlitePublish(data: data, descriptor: descriptor, notes: &notes))
        figures.append(try twoPublishers(response: response, notes: &notes))
        figures.append(try parallelCeiling(response: response))
        return (figures, notes)
    }

    /// A cache that counts what it is asked to write, over SQLite.
    final class CountingSQLiteCache: NormalizedCache, Sendable {
        let inner: SQLiteNormalizedCache
        private let counts = Locked((writes: 0, records: 0, fetches: 0))
        init(_ inner: SQLiteNormalizedCache) { self.inner = inner }
        var isPersistent: Bool { true }
        func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { try inner.loadRecords(forKeys: ids) }
        func loadRecords(forKeys ids: Set<DataID>, readingAhead: Bool) throws -> [DataID: RecordState] {
            try inner.loadRecords(forKeys: ids, readingAhead: readingAhead)
        }
        func loadMetadata() throws -> CacheMetadata { try inner.loadMetadata() }
        func write(_ batch: CacheBatch) throws {
            counts.withLock {
                $0.writes += 1
                $0.records += batch.records.count
                $0.fetches += batch.fetches.count
            }
            try inner.write(batch)
        }
        func clear() throws { try inner.clear() }
        var written: (writes: Int, records: Int, fetches: Int) { counts.withLock { $0 } }
    }

    /// The store's part of an unchanged refetch: the commit of a payload whose records the store
    /// holds already vs the first commit of them into an empty store.
    static func unchangedCommit(data: JSONObject, descriptor: OperationDescriptor) throws -> Figure {
        let (filled, records) = unchangedCommitStore(data: data, descriptor: descriptor)
        var fresh: [Store] = []
        return compare("unchanged refetch (commit alone)", floorName: "first commit", target: 1.0, rounds: 15) {
            filled.publish(records)
        } floor: {
            let store = Store()
            store.publish(records)
            fresh.append(store)
        }
    }

    /// A one-field change committed into a store holding 100 copies of the response's records vs
    /// one copy: the commit's cost follows what changed, not the store's size.
    static func oneFieldChange(response: Data) throws -> Figure {
        func filledStore(copies: Int) throws -> Store {
            let bytes = copies == 1 ? response : try GitHubFigures.scaled(response, factor: copies)
            guard let data = try JSONValue(parsing: bytes)["data"]?.objectValue else { throw BenchError("no data") }
            let store = Store()
            store.publish(data: data, for: OperationDescriptor(operation: query))
            return store
        }
        let big = try filledStore(copies: 100)
        let small = try filledStore(copies: 1)
        // A record both stores hold: the repository (the same ID in every copy).
        let repository = small.snapshot().states.first { _, state in
            if case .present(let record) = state { record.typename == "Repository" } else { false }
        }
        guard let id = repository?.key else { throw BenchError("no repository record") }
        var counter = 0
        func changes(_ store: Store) {
            for _ in 0..<200 {
                counter += 1
                store.publish(RecordSource(records: [Record(id: id, typename: "Repository", fields: ["benchCounter": .scalar(.int(counter))])]))
            }
        }
        return compare("one-field change, store of 100 responses", floorName: "store of 1", target: 2.0, rounds: 9) {
            changes(big)
        } floor: {
            changes(small)
        }
    }

    /// What the caller of a publish into an SQLite-backed store waits for (the write goes behind
    /// it) vs a publish into an in-memory store.
    static func sqlitePublish(data: JSONObject, descriptor: OperationDescriptor, notes: inout [String]) throws -> Figure {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var onDisk: [(wall: Duration, cpu: Duration)] = []
        var inMemory: [(wall: Duration, cpu: Duration)] = []
        var behind: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<11 {
            // Fresh stores each round, made (and the file's schema) outside the timing.
            let disk = Store(cache: try SQLiteNormalizedCache(fileURL: folder.appendingPathComponent("publish-\(round).sqlite")))
            let memory = Store()
            if round.isMultiple(of: 2) {
                onDisk.append(measure { disk.publish(data: data, for: descriptor, fetched: true) })
                behind.append(clock.measure { disk.waitUntilPersisted() })
                inMemory.append(measure { memory.publish(data: data, for: descriptor, fetched: true) })
            } else {
                inMemory.append(measure { memory.publish(data: data, for: descriptor, fetched: true) })
                onDisk.append(measure { disk.publish(data: data, for: descriptor, fetched: true) })
                behind.append(clock.measure { disk.waitUntilPersisted() })
            }
            if let error = disk.takePersistenceErrors().first { throw BenchError("SQLite write failed: \(error)") }
        }
        notes.append("publish into an SQLite-backed store: the write behind the caller took \(format(medianOf(behind))) more (median)")
        return Figure(
            name: "publish into SQLite-backed store", baton: medianOf(onDisk.map(\.wall)), floor: medianOf(inMemory.map(\.wall)),
            floorName: "in-memory publish", target: 1.2,
            cpuRatio: seconds(medianOf(onDisk.map(\.cpu))) / seconds(medianOf(inMemory.map(\.cpu))))
    }

    /// The eight responses the two-publisher figure publishes: copies of the response whose
    /// users' IDs differ (its issues have no ID, so their client IDs are the same in all).
    static func publisherResponses(_ response: Data) throws -> [JSONObject] {
        try (0..<8).map { copy in
            let bytes = try GitHubFigures.scaled(response, factor: 1, firstCopy: copy)
            guard let data = try JSONValue(parsing: bytes)["data"]?.objectValue else { throw BenchError("no data") }
            return data
        }
    }

    /// A store holding the response's records, and those records: publishing them again is an
    /// unchanged refetch's commit.
    static func unchangedCommitStore(data: JSONObject, descriptor: OperationDescriptor) -> (store: Store, records: RecordSource) {
        let normalized = Store()
        normalized.publish(data: data, for: descriptor)
        let records = normalized.snapshot()
        let filled = Store()
        filled.publish(records)
        return (filled, records)
    }

    /// Two threads publishing different responses into one store vs one thread publishing half
    /// as many: with only the merge serialized, two do twice the work in little more time.
    /// The ratio is the two threads' time over the one's: ≤ 1.25× is a throughput ≥ 1.6×.
    static func twoPublishers(response: Data, notes: inout [String]) throws -> Figure {
        let descriptor = OperationDescriptor(operation: query)
        let all = try publisherResponses(response)
        @Sendable func publish(_ indices: [Int], into store: Store) {
            for index in indices { store.publish(data: all[index], for: descriptor) }
        }
        var kept: [Store] = []
        // Each thread's span (from the round's start) and CPU time, to tell a thread that waited
        // (a lock, the scheduler) from one that ran slower.
        let spans = Locked<[(thread: Int, start: Duration, end: Duration, cpu: Duration)]>([])
        let clock = ContinuousClock()
        // The floor is one thread publishing the same eight responses into one store, so that
        // both sides do the same work: the first publish into an empty store takes the table
        // over, and each later one merges into a store that holds more than the one before, so
        // four publishes are less than half the work of eight. Throughput of two threads at
        // least 1.6× one thread's (issue 26) is a time at most 1/1.6 = 0.625× of it.
        let figure = compare("2 threads publishing 8 responses", floorName: "1 thread, the same 8", target: 0.625, rounds: 9) {
            let store = Store()
            let start = clock.now
            spans.withLock { $0.removeAll() }
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let begun = clock.now - start
                let cpu = threadCPUTime()
                publish(Array(stride(from: thread, to: 8, by: 2)), into: store)
                let span = (thread, begun, clock.now - start, threadCPUTime() - cpu)
                spans.withLock { $0.append(span) }
            }
            kept.append(store)
        } floor: {
            let store = Store()
            publish(Array(0..<8), into: store)
            kept.append(store)
        }
        let last = spans.withLock { $0 }.sorted { $0.thread < $1.thread }
        notes.append(
            "2 threads publishing, last round: "
                + last.map { "thread \($0.thread) ran \(format($0.start))–\(format($0.end)) using \(format($0.cpu)) CPU" }
                .joined(separator: "; "))
        return figure
    }

    /// What this machine gives two threads that share nothing: each parses its own copy of the
    /// response four times, against one thread doing both threads' work, alternately. The
    /// two-publisher figure cannot be below this row whatever the store does; on these noisy
    /// VMs it moves from run to run (0.53×–0.79× on 2026-11-28). Measured for its own sake (no
    /// target).
    static func parallelCeiling(response: Data) throws -> Figure {
        let copies = (0..<2).map { _ in Data(response) }
        @Sendable func parse(_ bytes: Data) {
            for _ in 0..<4 { _ = try? JSONValue(parsing: bytes) }
        }
        let figure = compare("2 threads parsing", floorName: "1 thread, the same work", target: 0.625, rounds: 9) {
            DispatchQueue.concurrentPerform(iterations: 2) { thread in parse(copies[thread]) }
        } floor: {
            parse(copies[0])
            parse(copies[1])
        }
        return Figure(
            name: "2 threads parsing (the machine's ceiling)", baton: figure.baton, floor: figure.floor, floorName: figure.floorName,
            target: nil, cpuRatio: figure.cpuRatio)
    }
}
