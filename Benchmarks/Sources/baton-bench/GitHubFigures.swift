import BatonAPI
import BatonSQLite
import BatonStore
import Foundation

/// Figures on the real workload: GitHub's `IssuesAndCommentsForRepository` and its 410 KB
/// response, and synthetic scale-ups of it.
enum GitHubFigures {
    static let query = IssuesAndCommentsForRepositoryQuery()

    /// Parse, check against the selections, normalize into a store: what a response costs.
    static func receive(_ bytes: Data, into store: Store) throws {
        guard let data = try JSONValue(parsing: bytes)["data"]?.objectValue else { throw BenchError("no data") }
        _ = try IssuesAndCommentsForRepositoryQuery.Data(jsonObject: data)
        store.publish(data: data, for: OperationDescriptor(operation: query), fetched: true)
    }

    static func figures(response: Data, notes: inout [String]) throws -> [Figure] {
        var figures: [Figure] = []
        figures.append(
            try compare("parse + normalize + typed data", floorName: "parse alone", target: 2.5) {
                try receive(response, into: Store())
            } floor: {
                _ = try JSONValue(parsing: response)
            })

        let filled = Store()
        try receive(response, into: filled)
        figures.append(
            try compare("read back into typed data", floorName: "parse + normalize", target: 1.0) {
                _ = try filled.read(query: query)
            } floor: {
                try receive(response, into: Store())
            })

        figures.append(try sqlite(response: response, notes: &notes))
        figures.append(try growth(response: response, notes: &notes))
        return figures
    }

    /// Persisting the response's records to SQLite vs normalizing them in memory.
    static func sqlite(response: Data, notes: inout [String]) throws -> Figure {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let data = try JSONValue(parsing: response)["data"]?.objectValue else { throw BenchError("no data") }
        let descriptor = OperationDescriptor(operation: query)
        var persisted: [Duration] = []
        var inMemory: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<7 {
            let cache = try SQLiteNormalizedCache(fileURL: folder.appendingPathComponent("cache-\(round).sqlite"))
            let onDisk = Store(cache: cache)
            persisted.append(clock.measure { onDisk.publish(data: data, for: descriptor) })
            let memory = Store()
            inMemory.append(clock.measure { memory.publish(data: data, for: descriptor) })
        }
        let file = folder.appendingPathComponent("cache-0.sqlite")
        var opened: Store?
        let open = try clock.measure { opened = Store(cache: try SQLiteNormalizedCache(fileURL: file)) }
        var firstRead: IssuesAndCommentsForRepositoryQuery.Data?
        let read = try clock.measure { firstRead = try opened?.read(query: query) }
        notes.append(
            "SQLite cold open (load \(opened?.snapshot().count ?? 0) records): \(format(open)); first read of the query from it: \(format(read))"
                + (firstRead == nil ? " (missing!)" : ""))
        return Figure(
            name: "persist to SQLite", baton: persisted.sorted()[3], floor: inMemory.sorted()[3], floorName: "normalize in memory",
            target: 3.0)
    }

    /// The response with its issues repeated `factor` times, IDs made distinct per copy.
    static func scaled(_ response: Data, factor: Int) throws -> Data {
        guard case .object(var root) = try JSONValue(parsing: response),
            case .object(var data)? = root["data"], case .object(var repository)? = data["repository"],
            case .object(var issues)? = repository["issues"], case .list(let nodes)? = issues["nodes"]
        else { throw BenchError("unexpected response shape") }
        var scaledNodes: [JSONValue] = []
        for copy in 0..<factor {
            for node in nodes { scaledNodes.append(distinct(node, copy: copy)) }
        }
        issues["nodes"] = .list(scaledNodes)
        repository["issues"] = .object(issues)
        data["repository"] = .object(repository)
        root["data"] = .object(data)
        return JSONValue.object(root).serializedData()
    }

    private static func distinct(_ value: JSONValue, copy: Int) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object {
                if key == "id", case .string(let id) = member {
                    result[key] = .string("\(id)-\(copy)")
                } else {
                    result[key] = distinct(member, copy: copy)
                }
            }
            return .object(result)
        case .list(let items): return .list(items.map { distinct($0, copy: copy) })
        default: return value
        }
    }

    /// How the cost of a response grows: time per MB at 100× the issues vs 1×.
    static func growth(response: Data, notes: inout [String]) throws -> Figure {
        var perMB: [Int: Duration] = [:]
        for factor in [1, 10, 100] {
            let bytes = factor == 1 ? response : try scaled(response, factor: factor)
            let time = try median(runs: factor == 100 ? 3 : 5) { try receive(bytes, into: Store()) }
            let megabytes = Double(bytes.count) / 1_000_000
            perMB[factor] = time / megabytes
            notes.append(
                String(format: "response ×%d (%.1f MB): parse + normalize + typed %@, %@ per MB", factor, megabytes, format(time), format(time / megabytes)))
        }
        return Figure(name: "cost per MB, 100× response", baton: perMB[100]!, floor: perMB[1]!, floorName: "1× response", target: 1.5)
    }

    /// A one-issue response to the same query, received before the memory figure: it pages in
    /// the code that parses, checks and normalizes (file-backed resident pages, over 1 MB of
    /// them), so that the peak which follows measures the response's data, not the code.
    static let warmUpResponse = Data(
        #"{"data":{"repository":{"__typename":"Repository","name":"apollo-ios","issues":{"__typename":"IssueConnection","nodes":[{"__typename":"Issue","title":"t","author":{"__typename":"User","login":"a","id":"MDQ6VXNlcjE=","name":"A"},"body":"b","comments":{"__typename":"IssueCommentConnection","nodes":[{"__typename":"IssueComment","body":"c","author":{"__typename":"Bot","login":"bot"}}]}}]}}}}"#
            .utf8)

    /// Peak resident memory while holding the normalized response, over the JSON's size. Runs
    /// first, before anything else raises the process's peak (after the small warm-up response,
    /// whose few kilobytes of heap do not lower it).
    static func memory(response: Data) throws -> (Figure, String) {
        try receive(warmUpResponse, into: Store())
        let before = residentPeakKB()
        let store = Store()
        try receive(response, into: store)
        let after = residentPeakKB()
        let ratio = Double(after - before) * 1024 / Double(response.count)
        withExtendedLifetime(store) {}
        let note = String(format: "peak resident memory holding the normalized response: +%d KB for %d KB of JSON (%.2f×, target ≤ 4×)", after - before, response.count / 1024, ratio)
        return (
            Figure(
                name: "peak memory holding the response", baton: .milliseconds(Int(ratio * 1000)), floor: .milliseconds(1000),
                floorName: "JSON size", target: 4.0, batonText: "\(after - before) KB", floorText: "\(response.count / 1024) KB"), note
        )
    }

    /// `VmHWM` of this process, in KB.
    static func residentPeakKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
