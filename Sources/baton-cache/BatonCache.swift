// baton-cache: inspects a Baton SQLite cache file. Every command but `trim` opens the file
// read-only and never changes it; `trim` removes the least recently used records down to a size.
import ArgumentParser
import BatonAPI
import BatonSQLite
import BatonStore
import Foundation

@main
struct BatonCache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baton-cache",
        abstract: "Inspect or trim a Baton SQLite cache file.",
        subcommands: [Stats.self, Show.self, Dump.self, Trim.self])
}

/// Prints `error` to standard error and exits with status 1: a damaged or newer file, a
/// missing record, a failed trim.
func fail(_ error: any Error) -> ExitCode {
    FileHandle.standardError.write(Data("baton-cache: \(error)\n".utf8))
    return ExitCode(1)
}

func inspector(_ file: String) throws -> SQLiteCacheInspector {
    do { return try SQLiteCacheInspector(fileURL: URL(fileURLWithPath: file)) } catch { throw fail(error) }
}

func iso(_ date: Date?) -> String {
    guard let date else { return "-" }
    return date.formatted(.iso8601)
}

func json(_ string: String) -> String { JSONValue.string(string).serializedString() }

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Records, bytes by type, the oldest and newest writes, what is stale now (read-only).")

    @ArgumentParser.Argument(help: "The cache file.") var file: String
    @Flag(help: "Print the figures as JSON.") var json = false
    @Option(
        help: ArgumentHelp(
            "Count a field received more than this many seconds ago as past its max age.",
            discussion: """
                The file keeps when each field was received, and when its response's Cache-Control max-age \
                makes it expire (always counted). The schema's @cacheControl and the client's max ages are \
                not in the file: give the one that applies here.
                """, valueName: "seconds")) var maxAge: Double?

    func validate() throws {
        // Bounded (about 31,700 years) so that it always makes a Duration.
        if let maxAge, !(maxAge >= 0 && maxAge <= 1e12) { throw ValidationError("--max-age must be a number of seconds from 0 to 1e12") }
    }

    func run() throws {
        let statistics: CacheStatistics
        do {
            statistics = try inspector(file).statistics(now: Date(), maxAge: maxAge.map { .milliseconds(Int64(($0 * 1000).rounded())) })
        } catch let error as ExitCode { throw error } catch { throw fail(error) }
        let types = statistics.byType.sorted { $0.value.bytes != $1.value.bytes ? $0.value.bytes > $1.value.bytes : $0.key < $1.key }
        if json {
            var out = "{\"records\":\(statistics.records),\"deletedRecords\":\(statistics.deletedRecords)"
            out += ",\"unreadableRecords\":\(statistics.unreadableRecords),\"storedBytes\":\(statistics.storedBytes)"
            out += ",\"usedBytes\":\(statistics.usedBytes),\"fileBytes\":\(statistics.fileBytes)"
            out += ",\"oldestWrite\":\(statistics.oldestWrite.map { BatonCacheJSON.string(iso($0)) } ?? "null")"
            out += ",\"newestWrite\":\(statistics.newestWrite.map { BatonCacheJSON.string(iso($0)) } ?? "null")"
            out += ",\"staleRecords\":\(statistics.staleRecords),\"invalidatedRecords\":\(statistics.invalidatedRecords)"
            out += ",\"expiredRecords\":\(statistics.expiredRecords),\"operations\":\(statistics.operations)"
            out += ",\"staleOperations\":\(statistics.staleOperations),\"byType\":{"
            out += types.map { "\(BatonCacheJSON.string($0.key)):{\"records\":\($0.value.records),\"bytes\":\($0.value.bytes)}" }
                .joined(separator: ",")
            out += "}}"
            print(out)
            return
        }
        print("records: \(statistics.records) (\(statistics.deletedRecords) deleted, \(statistics.unreadableRecords) unreadable)")
        print("bytes: \(statistics.storedBytes) stored, \(statistics.usedBytes) in pages, file \(statistics.fileBytes)")
        print("oldest write: \(iso(statistics.oldestWrite))")
        print("newest write: \(iso(statistics.newestWrite))")
        print(
            "stale: \(statistics.staleRecords) records (\(statistics.invalidatedRecords) invalidated, "
                + "\(statistics.expiredRecords) past their max age), \(statistics.staleOperations) of \(statistics.operations) operations")
        print("by type:")
        for (type, figures) in types { print("  \(type): \(figures.records) records, \(figures.bytes) bytes") }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "One record and the records that link to it (read-only).")

    @ArgumentParser.Argument(help: "The cache file.") var file: String
    @ArgumentParser.Argument(help: "The record's ID, e.g. User:1 or client:root.") var id: String

    func run() throws {
        let cache = try inspector(file)
        let stored: StoredRecord?
        let referrers: [(id: DataID, fields: [String])]
        do {
            stored = try cache.record(DataID(id))
            referrers = try cache.referrers(of: DataID(id))
        } catch { throw fail(error) }
        guard let stored else { throw fail(BatonCacheError("no record \(id) in \(file)")) }
        switch stored.state {
        case .present(let record)?: print(String(decoding: RecordCoding.encode(record), as: UTF8.self))
        case .deleted?: print("\(id): deleted")
        case nil: print("\(id): unreadable")
        }
        print("bytes: \(stored.bytes), write: \(stored.write)")
        print("written: \(iso(stored.writtenAt)), last read: \(iso(stored.usedAt))")
        if let epoch = stored.invalidatedAtEpoch { print("invalidated at epoch \(epoch)") }
        print("linked from: \(referrers.isEmpty ? "nothing" : "")")
        for referrer in referrers { print("  \(referrer.id.rawValue): \(referrer.fields.joined(separator: ", "))") }
    }
}

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The whole file as JSON (read-only).")

    @ArgumentParser.Argument(help: "The cache file.") var file: String

    func run() throws {
        let cache = try inspector(file)
        let output = FileHandle.standardOutput
        var pending = ""
        do {
            try cache.dump { piece in
                pending += piece
                if pending.utf8.count > 1 << 16 {
                    output.write(Data(pending.utf8))
                    pending = ""
                }
            }
        } catch { throw fail(error) }
        output.write(Data(pending.utf8))
    }
}

struct Trim: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove the least recently used records until the file holds at most --max-bytes, then compact it.",
        discussion: """
            The one command that writes. An app may keep the file open meanwhile (they share it); \
            the records a running app's retained queries read are not known here, so it may have \
            to fetch them again.
            """)

    @ArgumentParser.Argument(help: "The cache file.") var file: String
    @Option(help: "The most bytes of pages in use to leave.") var maxBytes: Int
    @Flag(help: "Leave the file its size (freed pages are reused) instead of compacting it.") var noCompact = false

    func validate() throws {
        guard maxBytes >= 0 else { throw ValidationError("--max-bytes must be at least 0") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        do {
            // Checked read-only first: a damaged, foreign or newer file is refused before anything is written.
            _ = try SQLiteCacheInspector(fileURL: url)
            let cache = try SQLiteNormalizedCache(fileURL: url)
            let result = try cache.trim(toBytes: maxBytes)
            if !noCompact { try cache.compact() }
            let size = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
            print("removed \(result.removedRecords) records; \(result.bytesBefore) → \(result.bytesAfter) bytes in pages; file \(size) bytes")
        } catch { throw fail(error) }
    }
}

struct BatonCacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum BatonCacheJSON {
    static func string(_ value: String) -> String { json(value) }
}
