import BatonAPI
import BatonSQLite
import BatonStore
import Dispatch
import Foundation

/// `baton-bench --profile <workload> [repetitions [scale]]`: runs one figure's work alone, with no
/// timing and no table, for a profiler (`valgrind --tool=callgrind`, `perf record`).
enum ProfileWorkload: String, CaseIterable {
    /// Baton's JSON parser on the response.
    case parse
    /// Read the body from its bytes (parse and executor in one walk), typed data and commit into
    /// a fresh store (what a response costs).
    case receive
    /// Normalize the parsed response into a store over a fresh SQLite file.
    case persist
    /// The SQLite cache's write of the response's records alone (the persist figure's work),
    /// each into a new file; with a second argument, that many writes of the records of other
    /// copies of the response follow on the same connection (a writer's later writes).
    case cacheWrite
    /// Read the query back from a filled store into typed data.
    case read
    /// Read the query from stores just opened over a SQLite file that holds it (every record
    /// loaded from disk).
    case coldRead
    /// Peak resident memory of parsing alone, then of receiving into a store (printed).
    case memory
    /// The client's first receive (`BatonClient.fetch` over the HTTP transport, bytes from
    /// memory), each into a new client and store made beforehand.
    case clientReceive
    /// The client's refetch of the same bytes, after one first receive: recognized, neither
    /// parsed nor executed (`refetch` minus one `clientReceive` is the refetches' cost).
    case refetch
    /// Two threads publishing different copies of the response into one store (the
    /// two-publisher figure's work), `repetitions` rounds, each into a new store.
    case twoPublishers
    /// The same publishes on one thread (the two-publisher figure's floor).
    case onePublisher
    /// The commit of records the store holds already (the unchanged-refetch commit figure).
    case unchangedCommit

    static func run(arguments: [String], response: Data) throws {
        guard let name = arguments.first, let workload = ProfileWorkload(rawValue: name) else {
            throw BenchError("--profile needs one of: " + allCases.map(\.rawValue).joined(separator: ", "))
        }
        let repetitions = arguments.dropFirst().first.flatMap { Int($0) } ?? 20
        // An optional third argument scales the response (its issues repeated, as the growth figures
        // do); for `cacheWrite` it is the number of later writes.
        let third = arguments.dropFirst(2).first.flatMap { Int($0) }
        if workload == .cacheWrite {
            try workload.run(response: response, repetitions: repetitions, laterWrites: third ?? 0)
            return
        }
        let factor = third ?? 1
        try workload.run(response: factor == 1 ? response : try GitHubFigures.scaled(response, factor: factor), repetitions: repetitions)
    }

    func run(response: Data, repetitions: Int, laterWrites: Int = 0) throws {
        switch self {
        case .clientReceive:
            // The client's workloads are async: run on a task, waited for here, so that `--profile`
            // stays synchronous at the top level (valgrind crashed when it awaited there).
            try waitFor {
                let clients = (0..<repetitions).map { _ in RefetchFigures.client(answering: response) }
                for client in clients { try await RefetchFigures.fetch(client) }
            }
        case .refetch:
            try waitFor {
                let client = RefetchFigures.client(answering: response)
                try await RefetchFigures.fetch(client)
                for _ in 0..<repetitions { try await RefetchFigures.fetch(client) }
                guard client.keptResponseHits == repetitions else { throw BenchError("a refetch was not recognized") }
            }
        case .parse:
            for _ in 0..<repetitions { _ = try JSONValue(parsing: response) }
        case .receive:
            for _ in 0..<repetitions { try GitHubFigures.receive(response, into: Store()) }
        case .persist:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            for round in 0..<repetitions {
                let cache = try SQLiteNormalizedCache(fileURL: folder.appendingPathComponent("cache-\(round).sqlite"))
                try GitHubFigures.receive(response, into: Store(cache: cache))
            }
        case .cacheWrite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let batches = try (0..<(1 + laterWrites)).map { copy in
                let bytes = try GitHubFigures.scaled(response, factor: 1, firstCopy: copy)
                guard let data = try JSONValue(parsing: bytes)["data"]?.objectValue else { throw BenchError("no data") }
                let normalized = Store()
                normalized.publish(data: data, for: OperationDescriptor(operation: GitHubFigures.query))
                var records: [DataID: RecordState?] = [:]
                for (id, state) in normalized.snapshot().states { records[id] = state }
                return CacheBatch(records: records)
            }
            for round in 0..<repetitions {
                let cache = try SQLiteNormalizedCache(fileURL: folder.appendingPathComponent("cache-\(round).sqlite"))
                for batch in batches { try cache.write(batch) }
            }
        case .memory:
            let start = GitHubFigures.residentPeakKB()
            var tree: JSONValue? = try JSONValue(parsing: response)
            let parsed = GitHubFigures.residentPeakKB()
            tree = nil
            let store = Store()
            try GitHubFigures.receive(response, into: store)
            let received = GitHubFigures.residentPeakKB()
            withExtendedLifetime((tree, store)) {}
            print("peak KB: parse tree +\(parsed - start), then receiving into a store +\(received - start)")
        case .coldRead:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("cache.sqlite")
            try GitHubFigures.receive(response, into: Store(cache: try SQLiteNormalizedCache(fileURL: file)))
            let descriptor = OperationDescriptor(operation: GitHubFigures.query)
            for _ in 0..<repetitions {
                let read = Store(cache: try SQLiteNormalizedCache(fileURL: file)).read(descriptor)
                guard !read.isMissing else { throw BenchError("the GitHub query is missing from the cache on disk") }
            }
        case .twoPublishers, .onePublisher:
            let all = try CommitFigures.publisherResponses(response)
            let descriptor = OperationDescriptor(operation: GitHubFigures.query)
            for _ in 0..<repetitions {
                let store = Store()
                if self == .onePublisher {
                    for index in stride(from: 0, to: 8, by: 2) { store.publish(data: all[index], for: descriptor) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: 2) { thread in
                        for index in stride(from: thread, to: 8, by: 2) { store.publish(data: all[index], for: descriptor) }
                    }
                }
            }
        case .unchangedCommit:
            guard let data = try JSONValue(parsing: response)["data"]?.objectValue else { throw BenchError("no data") }
            let (filled, records) = CommitFigures.unchangedCommitStore(data: data, descriptor: OperationDescriptor(operation: GitHubFigures.query))
            for _ in 0..<repetitions { filled.publish(records) }
        case .read:
            let store = Store()
            try GitHubFigures.receive(response, into: store)
            for _ in 0..<repetitions { _ = try store.read(query: GitHubFigures.query) }
        }
    }
}

/// Runs `body` on a task and blocks the calling thread until it ends.
private func waitFor(_ body: @escaping @Sendable () async throws -> Void) throws {
    let outcome = Locked<(any Error)??>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            try await body()
            outcome.withLock { $0 = .some(nil) }
        } catch {
            outcome.withLock { $0 = .some(error) }
        }
        done.signal()
    }
    done.wait()
    if let error = outcome.withLock({ $0 }) ?? nil { throw error }
}
