import BatonAPI
import BatonSQLite
import BatonStore
import Foundation

/// Figures of the persistent cache (issue 15): opening a large cache costs what opening a small
/// one does, memory after opening stays small, and a query read from a cold store on disk costs
/// a small multiple of reading it from memory.
enum PersistenceFigures {
    /// The small query the reopen figures answer: one record's name, through one root field.
    static let itemName = OperationDescriptor(
        name: "ItemName",
        selections: [
            .field("item", type: .object("Item"), arguments: ["id": .value(.string("7"))], selections: [.field("name", type: .scalar("String"))])
        ],
        variables: [:], rootType: "Query")

    /// A cache file of `count` item records (200 bytes of fields each) and a root with 100
    /// `item(id:)` fields: what grows is the records of other screens, not the root.
    static func makeCache(at url: URL, records count: Int) throws {
        let cache = try SQLiteNormalizedCache(fileURL: url)
        var root = Record(id: .rootID, typename: "__Root")
        for index in 0..<100 { root.fields[StorageKey.make(fieldName: "item", arguments: ["id": .string("\(index)")])] = .link(DataID("Item:\(index)")) }
        try cache.write(CacheBatch(records: [.rootID: .present(root)], epoch: 1))
        var batch: [DataID: RecordState?] = [:]
        for index in 0..<count {
            let id = DataID("Item:\(index)")
            batch[id] = .present(
                Record(
                    id: id, typename: "Item",
                    fields: [
                        "id": .scalar(.string("\(index)")), "name": .scalar(.string("item \(index)")),
                        "body": .scalar(.string(String(repeating: "x", count: 160))), "next": .link(DataID("Item:\(index + 1)")),
                    ]))
            if batch.count == 5_000 {
                try cache.write(CacheBatch(records: batch, epoch: 1))
                batch.removeAll(keepingCapacity: true)
            }
        }
        try cache.write(CacheBatch(records: batch, epoch: 1))
    }

    /// The child process's part (`--reopen FILE`): resident memory before, then open a store
    /// over the file and answer the small query, then resident memory after; prints
    /// `<nanoseconds> <rss-before-KB> <rss-after-KB>`.
    static func reopenChild(file: String) throws {
        let before = residentKB()
        let clock = ContinuousClock()
        var store: Store?
        var name: JSONValue?
        let elapsed = try clock.measure {
            store = Store(cache: try SQLiteNormalizedCache(fileURL: URL(fileURLWithPath: file)))
            name = store?.read(itemName).data?["item"]?["name"]
        }
        guard name == .string("item 7") else { throw BenchError("the reopened cache did not answer the query: \(String(describing: name))") }
        let after = residentKB()
        withExtendedLifetime(store) {}
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        print("\(nanoseconds) \(before) \(after)")
    }

    /// `VmRSS` of this process, in KB.
    static func residentKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    static func figures(response: Data, notes: inout [String]) throws -> [Figure] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var figures: [Figure] = []

        // Reopen + one small query: 200,000 records against 2,000, each in a fresh process (so the
        // figure is what an app's launch pays), alternately; the files are in the OS page cache.
        let large = folder.appendingPathComponent("large.sqlite")
        let small = folder.appendingPathComponent("small.sqlite")
        try makeCache(at: large, records: 200_000)
        try makeCache(at: small, records: 2_000)
        var largeRuns: [Duration] = []
        var smallRuns: [Duration] = []
        var memoryGrowth: [Int] = []
        for round in 0..<7 {
            let order = round.isMultiple(of: 2) ? [large, small] : [small, large]
            for file in order {
                let (elapsed, before, after) = try runChild(file: file)
                if file == large {
                    largeRuns.append(elapsed)
                    memoryGrowth.append(after - before)
                } else {
                    smallRuns.append(elapsed)
                }
            }
        }
        figures.append(
            Figure(
                name: "reopen 200k-record cache + small query", baton: medianOf(largeRuns), floor: medianOf(smallRuns),
                floorName: "the same on 2k records", target: 5.0))
        let growthKB = memoryGrowth.sorted()[memoryGrowth.count / 2]
        figures.append(
            Figure(
                name: "resident memory after that reopen", baton: .milliseconds(growthKB), floor: .milliseconds(20 * 1024),
                floorName: "20 MB", target: 1.0, batonText: "+\(growthKB / 1024) MB", floorText: "20 MB"))
        let largeSize = (try? FileManager.default.attributesOfItem(atPath: large.path)[.size] as? Int) ?? 0
        notes.append(
            "reopen: a child process opens a store over the file and reads one record through the root (median of 7 each, "
                + "alternating; files in the OS page cache; the large file is \(largeSize / 1_048_576) MB)")

        // The GitHub query read from a store just opened over a file that holds its response
        // (every record loaded from disk, in batches), against reading it from memory.
        guard let data = try JSONValue(parsing: response)["data"]?.objectValue else { throw BenchError("no data") }
        let descriptor = OperationDescriptor(operation: GitHubFigures.query)
        let file = folder.appendingPathComponent("github.sqlite")
        do {
            let writer = Store(cache: try SQLiteNormalizedCache(fileURL: file))
            writer.publish(data: data, for: descriptor, fetched: true)
            if let error = writer.takePersistenceErrors().first { throw BenchError("SQLite write failed: \(error)") }
        }
        let warm = Store()
        warm.publish(data: data, for: descriptor, fetched: true)
        var cold: [(wall: Duration, cpu: Duration)] = []
        var inMemory: [(wall: Duration, cpu: Duration)] = []
        for round in 0..<15 {
            // Opened outside the timing (it reads the bookkeeping only); the read loads every record.
            let opened = Store(cache: try SQLiteNormalizedCache(fileURL: file))
            var coldRead: ReadResult?
            let readCold = { coldRead = opened.read(descriptor) }
            let readWarm = { _ = warm.read(descriptor) }
            if round.isMultiple(of: 2) {
                cold.append(measure(readCold))
                inMemory.append(measure(readWarm))
            } else {
                inMemory.append(measure(readWarm))
                cold.append(measure(readCold))
            }
            guard let coldRead, !coldRead.isMissing else { throw BenchError("the GitHub query is missing from the cache on disk") }
            guard coldRead.data == warm.read(descriptor).data else { throw BenchError("the GitHub query read from disk differs from memory") }
        }
        figures.append(
            Figure(
                name: "GitHub query from a cold store on disk", baton: medianOf(cold.map(\.wall)),
                // Issue 26 asks 2.5× (it was 3.0×).
                floor: medianOf(inMemory.map(\.wall)), floorName: "read from memory", target: 2.5,
                cpuRatio: seconds(medianOf(cold.map(\.cpu))) / seconds(medianOf(inMemory.map(\.cpu)))))
        return figures
    }

    private static func runChild(file: URL) throws -> (Duration, Int, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--reopen", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 3 else { throw BenchError("the reopen child failed: \(text)") }
        return (.nanoseconds(fields[0]), fields[1], fields[2])
    }
}
