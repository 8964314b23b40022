import Baton
import BatonExampleAPI
import BatonSQLite
import BatonStore
import Foundation
import Testing

/// A refetch whose response repeats the last one byte for byte, over SQLite-backed stores: what
/// another store (another process) committed to the same file in between is written back by
/// the repeat's commit, as by a full receive; an unchanged repeat writes no record to the file.
@Suite("Repeated responses over an SQLite cache")
struct RepeatedResponseSQLiteTests {
    /// Answers every request with the same bytes.
    final class FixedHTTPClient: HTTPClient {
        let body: Data
        init(body: Data) { self.body = body }

        func send(_ request: HTTPRequest, body _: HTTPRequestBody?, timeout _: Duration?) async throws -> (HTTPResponse, Data) {
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body.withUnsafeBytes { Data($0) })
        }

        func stream(
            _ request: HTTPRequest, body _: HTTPRequestBody?, timeout _: Duration?
        ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
            (HTTPResponse(status: .ok), AsyncThrowingStream { $0.finish() })
        }
    }

    /// Counts what the store asks its cache to write.
    final class CountingCache: NormalizedCache, Sendable {
        let inner: SQLiteNormalizedCache
        private let counts = Locked((records: 0, fetches: 0))
        init(_ inner: SQLiteNormalizedCache) { self.inner = inner }
        var isPersistent: Bool { true }
        func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { try inner.loadRecords(forKeys: ids) }
        func loadMetadata() throws -> CacheMetadata { try inner.loadMetadata() }
        func write(_ batch: CacheBatch) throws {
            counts.withLock {
                $0.records += batch.records.count
                $0.fetches += batch.fetches.count
            }
            try inner.write(batch)
        }
        func clear() throws { try inner.clear() }
        func changesByOthers() throws -> CacheChangesByOthers? { try inner.changesByOthers() }
        var written: (records: Int, fetches: Int) { counts.withLock { $0 } }
    }

    static let body = JSONValue.object([
        "data": [
            "hero": [
                "__typename": "Droid", "id": "2001", "name": "R2-D2",
                "friends": [["__typename": "Human", "name": "Luke Skywalker"]],
            ]
        ]
    ]).serializedData()

    @Test func anotherStoresCommitIsWrittenBackAndAnUnchangedRepeatWritesNoRecord() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-repeat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cache.sqlite")
        let cache = CountingCache(try SQLiteNormalizedCache(fileURL: url))
        let store = Store(cache: cache)
        let client = BatonClient(
            networkTransport: RequestChainNetworkTransport(
                url: URL(string: "http://127.0.0.1:1/graphql")!, httpClient: FixedHTTPClient(body: Self.body)),
            store: store)
        _ = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        store.waitUntilPersisted()

        // Unchanged: recognized, and no record reaches the file.
        let before = cache.written
        _ = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        store.waitUntilPersisted()
        #expect(client.keptResponseHits == 1)
        #expect(cache.written.records == before.records)

        // Another store over the same file renames the droid.
        let other = Store(cache: try SQLiteNormalizedCache(fileURL: url))
        other.update { $0.get(DataID("Droid:2001"))?.setValue("Renamed", "name") }
        other.waitUntilPersisted()
        let descriptor = OperationDescriptor(operation: HeroRecordIDQuery())
        #expect(store.read(descriptor).data?["hero"]?["name"] == "Renamed")

        // The repeat is recognized all the same, and its commit writes the name back.
        let counter = Locked(0)
        let subscription = store.subscribe(descriptor) { _ in counter.withLock { $0 += 1 } }.subscription
        defer { subscription.cancel() }
        let result = try await client.fetch(query: HeroRecordIDQuery(), cachePolicy: .fetchIgnoringCacheData)
        store.waitUntilPersisted()
        #expect(client.keptResponseHits == 2)
        #expect(result.data?.hero?.name == "R2-D2")
        #expect(store.read(descriptor).data?["hero"]?["name"] == "R2-D2")
        #expect(counter.withLock { $0 } == 1)
        #expect(other.read(descriptor).data?["hero"]?["name"] == "R2-D2")
        #expect(store.takePersistenceErrors().isEmpty)
    }
}
