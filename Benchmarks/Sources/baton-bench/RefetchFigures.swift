import Baton
import BatonAPI
import BatonSQLite
import BatonStore
import Foundation
import HTTPTypes

#if canImport(Glibc)
    import Glibc
#endif

/// The unchanged refetch (issue 26), as an app meets it: `BatonClient.fetch` over the HTTP
/// transport, whose HTTP client hands back the GitHub response's bytes from memory (no socket),
/// so both sides pay the same request path and only the receive differs.
enum RefetchFigures {
    static let query = IssuesAndCommentsForRepositoryQuery()

    /// An HTTP client that answers every request with the same bytes, in a buffer of their own
    /// each time (as a network's would be: the comparison with the kept bytes reads them all).
    struct FixedResponseHTTPClient: HTTPClient {
        let body: Data

        func send(_ request: HTTPRequest, body _: HTTPRequestBody?, timeout _: Duration?) async throws -> (HTTPResponse, Data) {
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            return (HTTPResponse(status: .ok, headerFields: fields), body.withUnsafeBytes { Data($0) })
        }

        func stream(
            _ request: HTTPRequest, body _: HTTPRequestBody?, timeout _: Duration?
        ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
            throw BenchError("the fixed-response HTTP client does not stream")
        }
    }

    /// A client over a store (in memory unless given) whose server always answers `response`.
    static func client(answering response: Data, store: Store = Store(), keptResponseBytes: Int = 4_000_000) -> BatonClient {
        let transport = RequestChainNetworkTransport(
            url: URL(string: "http://127.0.0.1:1/graphql")!, httpClient: FixedResponseHTTPClient(body: response))
        return BatonClient(networkTransport: transport, store: store, keptResponseBytes: keptResponseBytes)
    }

    /// One network-only fetch of the query (it writes to the store), checked to have data.
    static func fetch(_ client: BatonClient) async throws {
        let result = try await client.fetch(query: query, cachePolicy: .fetchIgnoringCacheData)
        guard result.data?.repository != nil else { throw BenchError("the fetch has no data") }
    }

    /// A refetch whose response has exactly the bytes of the last one vs the first receive of
    /// those bytes into an empty store (a new client, made outside the timing). A note counts
    /// the watcher notifications of 10 such refetches into an SQLite-backed store and what
    /// reached the file, after waiting for the writes behind them.
    static func unchangedRefetch(response: Data, notes: inout [String]) async throws -> Figure {
        let filled = client(answering: response)
        try await fetch(filled)
        // Clients made before the timings and freed after each pair, outside them.
        var fresh: [BatonClient] = (0..<16).map { _ in client(answering: response) }
        var used: [BatonClient] = []
        /// The floor: a first receive, by a client made before the timing and freed after it.
        func firstReceive() async throws {
            let client = fresh.removeLast()
            try await fetch(client)
            used.append(client)
        }
        let hitsBefore = filled.keptResponseHits
        let figure = try await compareProcessCPU(
            "unchanged refetch (receive)", floorName: "first receive", target: 0.25, rounds: 15
        ) {
            try await fetch(filled)
        } floor: {
            try await firstReceive()
        } between: {
            used.removeAll()
        }
        fresh = (0..<10).map { _ in client(answering: response) }
        let hits = filled.keptResponseHits - hitsBefore
        // The same, with no response kept (every refetch parsed and executed again).
        let naive = client(answering: response, keptResponseBytes: 0)
        try await fetch(naive)
        let slow = try await compareProcessCPU("refetch, no response kept", floorName: "first receive", target: 1.5, rounds: 9) {
            try await fetch(naive)
        } floor: {
            try await firstReceive()
        } between: {
            used.removeAll()
        }

        // Watchers and an SQLite cache.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("refetch.sqlite")
        let cache = CommitFigures.CountingSQLiteCache(try SQLiteNormalizedCache(fileURL: file))
        let onDisk = client(answering: response, store: Store(cache: cache))
        try await fetch(onDisk)
        onDisk.store.waitUntilPersisted()
        let notified = Locked(0)
        let subscription = onDisk.store.subscribe(OperationDescriptor(operation: query)) { _ in notified.withLock { $0 += 1 } }.subscription
        // The subscription's first read dates the records it read; those reading times go with the
        // next write. An unrelated write takes them now, so that what follows counts only the refetches.
        onDisk.store.publish(RecordSource(records: [Record(id: "bench:flush", typename: "Flush", fields: ["at": .scalar(.int(1))])]))
        onDisk.store.waitUntilPersisted()
        let before = cache.written
        let bytesBefore = fileBytes(file)
        let diskHitsBefore = onDisk.keptResponseHits
        for _ in 0..<10 { try await fetch(onDisk) }
        // What the refetches themselves wrote: the writer's queue done, their fetch times still
        // deferred (they go with the next write that changes data, or with waitUntilPersisted()).
        onDisk.store.waitForQueuedWrites()
        let after = cache.written
        let bytesAfter = fileBytes(file)
        onDisk.store.waitUntilPersisted()
        let flushed = cache.written
        subscription.cancel()
        notes.append(
            String(
                format: "unchanged refetch: %d of %d refetches recognized (neither parsed nor executed); without a kept response "
                    + "a refetch costs %.2f× the first receive (CPU %.2f×); 10 refetches into an SQLite-backed store (%d recognized): "
                    + "%d watcher notifications, %d writes, %d records and %d fetch dates written, the file and its WAL grew %d bytes; "
                    + "their fetch dates, deferred, then took %d write(s) of %d fetch date(s) at waitUntilPersisted() (%d bytes)",
                hits, 16, slow.ratio, slow.cpuRatio ?? .nan, onDisk.keptResponseHits - diskHitsBefore, notified.withLock { $0 },
                after.writes - before.writes, after.records - before.records, after.fetches - before.fetches,
                bytesAfter - bytesBefore, flushed.writes - after.writes, flushed.fetches - after.fetches, fileBytes(file) - bytesAfter))
        return figure
    }

    /// The bytes of an SQLite file and its write-ahead log.
    static func fileBytes(_ file: URL) -> Int {
        [file.path, file.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }
}

/// CPU time of the whole process so far (the client's work may hop threads between awaits).
func processCPUTime() -> Duration {
    #if canImport(Glibc)
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    #else
        return .zero
    #endif
}

/// ``compare(_:floorName:target:rounds:warmup:baton:floor:)`` for async work: wall time, and the
/// process's CPU time as the CPU-time ratio (the work may hop threads). `between` runs after
/// each pair, outside the timings.
func compareProcessCPU(
    _ name: String, floorName: String, target: Double, rounds: Int = 7,
    baton: () async throws -> Void, floor: () async throws -> Void, between: () -> Void = {}
) async rethrows -> Figure {
    try await baton()
    try await floor()
    between()
    let clock = ContinuousClock()
    var batonTimes: [(wall: Duration, cpu: Duration)] = []
    var floorTimes: [(wall: Duration, cpu: Duration)] = []
    for _ in 0..<rounds {
        var cpu = processCPUTime()
        var start = clock.now
        try await baton()
        batonTimes.append((clock.now - start, processCPUTime() - cpu))
        cpu = processCPUTime()
        start = clock.now
        try await floor()
        floorTimes.append((clock.now - start, processCPUTime() - cpu))
        between()
    }
    return Figure(
        name: name, baton: medianOf(batonTimes.map(\.wall)), floor: medianOf(floorTimes.map(\.wall)), floorName: floorName,
        target: target, cpuRatio: seconds(medianOf(batonTimes.map(\.cpu))) / seconds(medianOf(floorTimes.map(\.cpu))))
}
