import BatonAPI
import BatonExampleAPI
@testable import BatonSQLite
@_spi(BatonStorage) import BatonStore
import BatonTestSupport
import CSQLite
import Foundation
import Testing

/// A fresh temporary folder, removed afterwards.
func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async rethrows -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

@Suite("SQLite cache", .ownThread)
struct SQLiteCacheTests {
    let query = HeroAndFriendsQuery(episode: .some(.case(.empire)))
    let data: JSONObject = [
        "hero": [
            "__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": ["NEWHOPE"],
            "friends": [["__typename": "Human", "name": "Han Solo"], nil], "height": 5.64,
        ]
    ]

    @Test func recordsSurviveARestart() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                store.write(data: try HeroAndFriendsQuery.Data(jsonObject: data), for: query)
                store.update { $0.delete("client:Human:1000:friends:0") }
                #expect(store.takePersistenceErrors().isEmpty)
            }
            let reopened = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            let hero = try reopened.read(query: query).hero
            #expect(hero?.name == "Luke Skywalker")
            #expect(hero?.friends?[0] == nil)  // deleted stays deleted, not missing
            #expect(reopened.recordState(of: "client:Human:1000:friends:0") == .deleted)
        }
    }

    @Test func theFileUsesWALAndAVersionedSchema() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            store.write(data: try HeroAndFriendsQuery.Data(jsonObject: data), for: query)
            #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
            let header = try Data(contentsOf: url).prefix(16)
            #expect(String(decoding: header, as: UTF8.self) == "SQLite format 3\u{0}")
        }
    }

    @Test func aCorruptFileIsATypedErrorAndRecoveryKeepsIt() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try garbage.write(to: url)
            #expect {
                try SQLiteNormalizedCache(fileURL: url)
            } throws: { error in
                guard case .corrupt(let path, _)? = error as? SQLiteCacheError else { return false }
                return path == url.path
            }
            let (cache, problem) = SQLiteNormalizedCache.openOrRecover(fileURL: url)
            #expect(problem != nil)
            let store = Store(cache: cache)
            store.write(data: try HeroAndFriendsQuery.Data(jsonObject: data), for: query)
            #expect(try store.read(query: query).hero?.name == "Luke Skywalker")
            // The unreadable file was moved aside, byte for byte.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let aside = try #require(names.first { $0.hasPrefix("cache.sqlite.unreadable-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
            #expect(try Data(contentsOf: folder.appendingPathComponent(aside)) == garbage)
        }
    }

    @Test func aForeignDatabaseIsNotTouched() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("other.sqlite")
            // Make a SQLite file of another app: a Baton cache file whose format mark is changed.
            do {
                let cache = try SQLiteNormalizedCache(fileURL: url)
                try cache.write(CacheBatch(records: ["x": .present(Record(id: "x", typename: "X"))]))
            }
            try overwrite(url, marker: "baton-normalized-cache", with: "someone-elses-format!!")
            #expect {
                try SQLiteNormalizedCache(fileURL: url)
            } throws: { error in
                guard case .foreign? = error as? SQLiteCacheError else { return false }
                return true
            }
        }
    }

    @Test func aTruncatedFileIsCorrupt() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            do {
                let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
                for index in 0..<200 {
                    store.publish(RecordSource(records: [Record(id: DataID("r\(index)"), typename: "R", fields: ["v": .scalar(.string(String(repeating: "y", count: 500)))])]))
                }
            }
            // Fold the WAL in, then cut the file in half.
            let full = try Data(contentsOf: url)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            if full.count > 8192 {
                try full.prefix(full.count / 2).write(to: url)
                let opened = Result { try SQLiteNormalizedCache(fileURL: url) }
                if case .success(let cache) = opened {
                    // SQLite may open a truncated file; reading it must then fail cleanly or skip.
                    _ = try? cache.allRecords()
                }
            }
            let (cache, _) = SQLiteNormalizedCache.openOrRecover(fileURL: url)
            _ = Store(cache: cache)
        }
    }

    @Test func headersAndTokensAreNeverStored() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let store = Store(cache: try SQLiteNormalizedCache(fileURL: url))
            store.write(data: try HeroAndFriendsQuery.Data(jsonObject: data), for: query)
            // The store's only input is records; nothing of a request reaches it. Check the bytes.
            for suffix in ["", "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: url.path + suffix))) ?? Data()
                #expect(bytes.range(of: Data("Authorization".utf8)) == nil)
            }
        }
    }

    @Test func storedRecordsReadBackEqualInEitherForm() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "bc", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}", " ", "é", "日本", "🎉", "/", "~"]
        func randomString() -> String {
            (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        var records = [
            Record(id: "", typename: nil),
            Record(
                id: "client:1:\"x\"", typename: "Thing",
                fields: [
                    "zeta": .scalar(.string("")), "alpha": .link("User:1"), "mid(first:10)": .list([.link("a"), .null, .list([.link("b")])]),
                    "number": .scalar(.int(-42)), "ratio": .scalar(.double(1.0)), "half": .scalar(.double(0.5)), "flag": .scalar(.bool(true)),
                    "json": .scalar(.object(["b": 1, "a": [1, "x", nil, false, 2.5]])), "nothing": .null, "tags": .scalar(.list(["x", "y"])),
                    "min": .scalar(.int(.min)), "max": .scalar(.int(.max)), "negativeZero": .scalar(.double(-0.0)), "empty": .list([]),
                ]),
            Record(id: "long", typename: "Long", fields: ["body": .scalar(.string(String(repeating: "0123456789abcdef\r\n\"q\" ", count: 50)))]),
        ]
        for index in 0..<500 {
            var fields = RecordFields()
            for _ in 0..<Int.random(in: 0...14, using: &generator) { fields[randomString()] = .scalar(.string(randomString())) }
            records.append(Record(id: DataID("r\(index)" + randomString()), typename: randomString(), fields: fields))
        }
        let writer = RecordWriter()
        let reader = RecordReader()
        let buffer = ByteBuffer(capacity: 16)
        // Twice: the second time, shapes met before give the keys.
        for record in records + records {
            let start = buffer.count
            writer.write(record, into: buffer)
            let written = UnsafeRawBufferPointer(start: buffer.start + start, count: buffer.count - start)
            let decoded = reader.decode(written, id: record.id)
            #expect(decoded == record, "\(record)")
            #expect(decoded?.fields.keys == record.fields.keys)
            // Version 3 files hold the record's ID in it too, and files before version 3 the
            // JSON form; both read the same, and neither in another ID's row.
            let withID = Self.versionThreeForm(of: Array(written), id: record.id)
            #expect(withID.withUnsafeBytes { reader.decode($0, id: record.id) } == record)
            #expect(withID.withUnsafeBytes { reader.decode($0, id: DataID(record.id.rawValue + "x")) } == nil)
            #expect(RecordCoding.encode(record).withUnsafeBytes { reader.decode($0, id: record.id) } == record)
            #expect(RecordCoding.encode(record).withUnsafeBytes { reader.decode($0, id: DataID(record.id.rawValue + "x")) } == nil)
        }
        let negativeZero = Record(id: "z", fields: ["d": .scalar(.double(-0.0))])
        let zeroStart = buffer.count
        writer.write(negativeZero, into: buffer)
        let zero = reader.decode(UnsafeRawBufferPointer(start: buffer.start + zeroStart, count: buffer.count - zeroStart), id: "z")
        #expect(zero?["d"]?.scalarValue?.doubleValue?.sign == .minus)
    }

    /// `bytes` (a record as ``RecordWriter`` writes it) in version 3's form: the marker `0xBA`,
    /// then the ID as a string, then the rest as before.
    static func versionThreeForm(of bytes: [UInt8], id: DataID) -> [UInt8] {
        let buffer = ByteBuffer(capacity: 16)
        RecordWriter.write(string: id.rawValue, into: buffer)
        return [RecordWriter.markerWithID] + Array(UnsafeBufferPointer(start: buffer.start, count: buffer.count)) + bytes.dropFirst()
    }

    /// `baton_rows(?)`, the table the write reads its rows from, reads only a pointer bound as
    /// its own: without an argument it is an error, with any other value it has no rows, and with
    /// rows it gives each row's ID and record (null for a deletion) in their order.
    @Test func thePendingRowsTableReadsOnlyRowsBoundToIt() async throws {
        try await withTemporaryFolder { folder in
            let connection = try SQLiteConnection(path: folder.appendingPathComponent("rows.sqlite").path)
            #expect(throws: SQLiteCacheError.self) { try connection.run("SELECT count(*) FROM baton_rows") }
            var count = -1
            try connection.run("SELECT count(*) FROM baton_rows(1)") { row in count = row.int(0) }
            #expect(count == 0)
            try connection.execute("CREATE TABLE copied (id TEXT, deleted INTEGER, record BLOB)")
            let bytes = Array("User:1recordUser:2".utf8)
            let rows = UnsafeMutableBufferPointer<PendingRow>.allocate(capacity: 2)
            defer { rows.deallocate() }
            _ = rows.initialize(from: [PendingRow(id: 0..<6, record: 6..<12), PendingRow(id: 12..<18, record: nil)])
            let base = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1)
            defer { base.deallocate() }
            base.copyMemory(from: bytes, byteCount: bytes.count)
            let pending = UnsafeMutablePointer<PendingRows>.allocate(capacity: 1)
            defer { pending.deallocate() }
            pending.initialize(to: PendingRows(base: base, rows: UnsafeBufferPointer(rows)))
            try connection.run("INSERT INTO copied SELECT id, record IS NULL, record FROM baton_rows(?)") { statement, index in
                sqlite3_bind_pointer(statement, index, pending, PendingRowsTable.pointerType, nil)
            }
            var copied: [String] = []
            try connection.run("SELECT id, deleted, CAST(record AS TEXT) FROM copied ORDER BY rowid") { row in
                copied.append("\(row.text(0) ?? "?") \(row.int(1)) \(row.text(2) ?? "null")")
            }
            #expect(copied == ["User:1 0 record", "User:2 1 null"])
            // The same pointer under another type name is not read.
            try connection.run("INSERT INTO copied SELECT id, 0, record FROM baton_rows(?)") { statement, index in
                // SQLite keeps the type's pointer: a string in the binary's constant data.
                sqlite3_bind_pointer(
                    statement, index, pending, UnsafeRawPointer(("another" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self), nil)
            }
            try connection.run("SELECT count(*) FROM copied") { row in count = row.int(0) }
            #expect(count == 2)
        }
    }

    @Test func damagedStoredRecordsAreUnreadableNeverATrap() {
        let record = Record(
            id: "Issue:1", typename: "Issue",
            fields: [
                "title": .scalar(.string("é日本🎉 title")), "author": .link("User:1"), "n": .scalar(.int(-7)), "d": .scalar(.double(2.5)),
                "json": .scalar(.object(["k": ["v", 1]])), "comments": .list([.link("C:1"), .null]),
            ])
        let buffer = ByteBuffer(capacity: 16)
        RecordWriter().write(record, into: buffer)
        let bytes = Array(UnsafeBufferPointer(start: buffer.start, count: buffer.count))
        let reader = RecordReader()
        #expect(bytes.withUnsafeBytes { reader.decode($0, id: record.id) } == record)
        // The same in version 3's form, which holds the ID.
        for form in [bytes, Self.versionThreeForm(of: bytes, id: record.id)] {
            // Every truncation, and bytes left over, are unreadable.
            for length in 0..<form.count {
                #expect(form[..<length].withUnsafeBytes { reader.decode($0, id: record.id) } == nil, "truncated to \(length)")
            }
            #expect((form + [0]).withUnsafeBytes { reader.decode($0, id: record.id) } == nil)
            // Any byte changed to any value: unreadable or some record, never a trap.
            for position in form.indices {
                for value in [0x00, 0x01, 0x07, 0x09, 0x0A, 0x7F, 0x80, 0xBA, 0xBB, 0xC3, 0xFF] as [UInt8] {
                    var damaged = form
                    damaged[position] = value
                    _ = damaged.withUnsafeBytes { reader.decode($0, id: record.id) }
                }
            }
        }
        // Bytes that are not UTF-8 in a string: unreadable, not repaired.
        let invalid = Record(id: "x", fields: ["s": .scalar(.string("abc"))])
        let start = buffer.count
        RecordWriter().write(invalid, into: buffer)
        var invalidBytes = Array(UnsafeBufferPointer(start: buffer.start + start, count: buffer.count - start))
        invalidBytes[invalidBytes.count - 2] = 0xFF
        #expect(invalidBytes.withUnsafeBytes { reader.decode($0, id: invalid.id) } == nil)
        // A key repeated in a record's keys is unreadable.
        #expect(RecordShape(keys: ["a", "a"]) == nil)
    }

    @Test func largePublishesUpdatesAndRemovalsSurviveARestart() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            func record(_ index: Int, _ generation: Int) -> Record {
                Record(id: DataID("r\(index)"), typename: "R", fields: ["g": .scalar(.int(generation)), "s": .scalar(.string("\"\(index)\"\n"))])
            }
            do {
                let cache = try SQLiteNormalizedCache(fileURL: url)
                // 300 rows: statements of 128, 16 and 1 rows.
                try cache.write(CacheBatch(records: Dictionary(uniqueKeysWithValues: (0..<300).map { (DataID("r\($0)"), RecordState?.some(.present(record($0, 1)))) })))
                // Update some, delete some, forget some (more than one statement's worth).
                var changes: [DataID: RecordState?] = [:]
                for index in 0..<100 { changes[DataID("r\(index)")] = .present(record(index, 2)) }
                for index in 100..<110 { changes[DataID("r\(index)")] = .some(.deleted) }
                for index in 110..<290 { changes[DataID("r\(index)")] = .some(nil) }
                try cache.write(CacheBatch(records: changes))
            }
            let source = try SQLiteNormalizedCache(fileURL: url).allRecords()
            for index in 0..<300 {
                switch index {
                case 0..<100: #expect(source[DataID("r\(index)")] == record(index, 2))
                case 100..<110: #expect(source.state(of: DataID("r\(index)")) == .deleted)
                case 110..<290: #expect(source.state(of: DataID("r\(index)")) == nil)
                default: #expect(source[DataID("r\(index)")] == record(index, 1))
                }
            }
        }
    }

    /// The writer prints each generation once its publish returned: that publish is on disk,
    /// so after a SIGKILL the file holds it or the one after it (killed mid-write), whole, never
    /// an older one and never a mix.
    @Test func aWriterKilledMidPublishLeavesWholePublishesOnly() async throws {
        let writer = try #require(stressExecutable())
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("stress.sqlite")
            var generations: [Int] = []
            for round in 0..<20 {
                let delay = Double(Int.random(in: 5...120)) / 1000
                // Started, waited for and killed on a thread of its own: not on Swift's cooperative pool.
                let (reason, output) = try await onOwnThread { () throws -> (Process.TerminationReason, String) in
                    let process = Process()
                    process.executableURL = writer
                    process.arguments = [url.path, "40"]
                    let output = Pipe()
                    process.standardOutput = output
                    try process.run()
                    // Wait until it is writing, then kill it at a random point.
                    var printed = output.fileHandleForReading.availableData
                    Thread.sleep(forTimeInterval: delay)
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    printed.append(output.fileHandleForReading.readDataToEndOfFile())
                    return (process.terminationReason, String(decoding: printed, as: UTF8.self))
                }
                #expect(reason == .uncaughtSignal, "round \(round)")
                // The last generation the writer said it had published (or found at its start).
                let lastPublished = output.split(separator: "\n").compactMap { line -> Int? in
                    let words = line.split(separator: " ")
                    return words.count == 2 && (words[0] == "ready" || words[0] == "published") ? Int(words[1]) : nil
                }.last

                let cache = try SQLiteNormalizedCache(fileURL: url)
                let source = try cache.allRecords()
                #expect(cache.unreadableRecordCount == 0)
                let values = Set((0..<40).compactMap { source[DataID("stress:\($0)")]?["generation"]?.scalarValue?.intValue })
                #expect(values.count <= 1, "round \(round): a torn publish holds generations \(values.sorted())")
                if let value = values.first {
                    #expect((0..<40).allSatisfy { source[DataID("stress:\($0)")] != nil }, "round \(round)")
                    if let lastPublished {
                        #expect(value == lastPublished || value == lastPublished + 1, "round \(round): file \(value), published \(lastPublished)")
                    }
                    generations.append(value)
                }
            }
            // The writer kept going from what it found: generations never go back.
            #expect(generations == generations.sorted())
            #expect(generations.last ?? 0 > 0)
        }
    }
}

/// The `baton-cache-stress` executable built beside the tests.
func stressExecutable() -> URL? {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("baton-cache-stress")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return nil
}

/// Replaces the bytes of `marker` in a file with `replacement` (same length).
func overwrite(_ url: URL, marker: String, with replacement: String) throws {
    precondition(marker.utf8.count == replacement.utf8.count)
    for suffix in ["", "-wal"] {
        let file = URL(fileURLWithPath: url.path + suffix)
        guard var bytes = try? Data(contentsOf: file) else { continue }
        while let range = bytes.range(of: Data(marker.utf8)) {
            bytes.replaceSubrange(range, with: Data(replacement.utf8))
        }
        try bytes.write(to: file)
    }
}
