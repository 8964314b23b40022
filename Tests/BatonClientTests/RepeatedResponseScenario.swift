import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Foundation
import Testing

/// An HTTP client for tests that answers every request with the bytes (and head) set last: the
/// client's own HTTP transport reads them, as it reads a server's (no socket, no server).
final class CannedHTTPClient: HTTPClient {
    private let next = Locked((body: Data(), cacheControl: String?.none, requests: 0))

    func answer(_ body: Data, cacheControl: String? = nil) {
        next.withLock {
            $0.body = body
            $0.cacheControl = cacheControl
        }
    }

    var requestCount: Int { next.withLock { $0.requests } }

    func send(_ request: HTTPRequest, body _: HTTPRequestBody?, timeout _: Duration?) async throws -> (HTTPResponse, Data) {
        let (body, cacheControl) = next.withLock { next in
            next.requests += 1
            return (next.body, next.cacheControl)
        }
        var fields: HTTPFields = [.contentType: "application/json"]
        if let cacheControl { fields[.cacheControl] = cacheControl }
        // A buffer of its own each time, as a network's: the comparison reads every byte.
        return (HTTPResponse(status: .ok, headerFields: fields), body.withUnsafeBytes { Data($0) })
    }

    func stream(
        _ request: HTTPRequest, body _: HTTPRequestBody?, timeout _: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        (HTTPResponse(status: .ok), AsyncThrowingStream { $0.finish() })
    }
}

/// A client over the HTTP transport and a canned HTTP client.
struct CannedClient {
    let http = CannedHTTPClient()
    let client: BatonClient

    init(store: Store = Store(), keptResponseBytes: Int = 4_000_000) {
        client = BatonClient(
            networkTransport: RequestChainNetworkTransport(url: URL(string: "http://127.0.0.1:1/graphql")!, httpClient: http),
            store: store, keptResponseBytes: keptResponseBytes)
    }

    var store: Store { client.store }
    var hits: Int { client.keptResponseHits }

    func fetch<Query: GraphQLQuery>(
        _ query: Query, answering body: Data, cacheControl: String? = nil, cachePolicy: SingleResultCachePolicy = .fetchIgnoringCacheData
    ) async throws -> GraphQLResult<Query.Data> {
        http.answer(body, cacheControl: cacheControl)
        return try await client.fetch(query: query, cachePolicy: cachePolicy)
    }
}

/// `HeroRecordIDQuery`'s response as bytes.
func heroBytes(name: String = "R2-D2", friendName: String = "Luke Skywalker", errors: Bool = false) -> Data {
    var body = Scenario.heroRecordIDResponse(name: name, friendName: friendName)
    if errors {
        body["errors"] = [["message": "friends are late", "path": ["hero", "friends"]]]
        body["extensions"] = ["cost": 3]
    }
    return JSONValue.object(body).serializedData()
}

let droid = DataID("Droid:2001")

/// A refetch whose response has exactly the bytes of the last response to the same request is
/// neither parsed nor executed again (issue 26): its kept payload is committed as any response
/// is, so the store ends as it would have, and its kept data is the result.
@Suite("Scenario: a response that repeats the last one byte for byte")
struct RepeatedResponseScenario {
    @Test func identicalBytesAreNeitherParsedNorExecutedAgain() async throws {
        let canned = CannedClient()
        let first = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(errors: true))
        let snapshot = canned.store.snapshot()
        let counter = NotificationCounter()
        let (_, subscription) = canned.store.subscribe(OperationDescriptor(operation: HeroRecordIDQuery())) { _ in counter.increment() }
        defer { subscription.cancel() }

        let again = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(errors: true))
        #expect(canned.hits == 1)
        #expect(again.data?.jsonObject == first.data?.jsonObject)
        #expect(again.data?.hero?.__id == "Droid:2001")
        #expect(again.errors == first.errors && again.errors?.count == 1)
        #expect(again.extensions == first.extensions && again.extensions?["cost"] == 3)
        #expect(again.source == .server)
        #expect(canned.store.snapshot() == snapshot)
        #expect(counter.value == 0)
    }

    @Test func differentBytesOrVariablesAreReceivedInFull() async throws {
        let canned = CannedClient()
        _ = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes())
        // The same JSON, one more space: not the same bytes.
        var spaced = heroBytes()
        spaced.append(contentsOf: Array(" ".utf8))
        let result = try await canned.fetch(HeroRecordIDQuery(), answering: spaced)
        #expect(result.data?.hero?.name == "R2-D2")
        #expect(canned.hits == 0)
        // The same bytes as the last, for other variables: another request.
        _ = try await canned.fetch(HeroRecordIDQuery(episode: .some(.case(.empire))), answering: spaced)
        #expect(canned.hits == 0)
        // A changed field: received in full, and watchers hear of it.
        let changed = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(name: "Artoo"))
        #expect(changed.data?.hero?.name == "Artoo")
        #expect(canned.hits == 0)
        _ = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(name: "Artoo"))
        #expect(canned.hits == 1)
    }

    /// Each way a record the response wrote can change before the refetch: the repeat is still
    /// recognized (its parse and execution depend on the bytes alone), and its commit writes the
    /// record back and notifies as a full receive does, compared with a client that keeps nothing.
    @Test(arguments: ChangeBetweenFetches.allCases)
    func aRecordChangedSinceIsWrittenBack(_ change: ChangeBetweenFetches) async throws {
        let fast = CannedClient()
        let naive = CannedClient(keptResponseBytes: 0)
        var counters: [NotificationCounter] = []
        var subscriptions: [StoreSubscription] = []
        for canned in [fast, naive] {
            _ = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes())
            let counter = NotificationCounter()
            subscriptions.append(
                canned.store.subscribe(OperationDescriptor(operation: HeroRecordIDQuery())) { _ in counter.increment() }.subscription)
            counters.append(counter)
            change.apply(to: canned.store)
        }
        defer { for subscription in subscriptions { subscription.cancel() } }
        let notifiedBefore = counters.map(\.value)
        let results = [
            try await fast.fetch(HeroRecordIDQuery(), answering: heroBytes()),
            try await naive.fetch(HeroRecordIDQuery(), answering: heroBytes()),
        ]
        #expect(fast.hits == 1)
        #expect(naive.hits == 0)
        #expect(results[0].data?.jsonObject == results[1].data?.jsonObject)
        #expect(fast.store.snapshot() == naive.store.snapshot())
        #expect(fast.store.recordState(of: droid) == naive.store.recordState(of: droid))
        #expect(counters[0].value - notifiedBefore[0] == counters[1].value - notifiedBefore[1])
        let descriptor = OperationDescriptor(operation: HeroRecordIDQuery())
        #expect(fast.store.check(descriptor) == naive.store.check(descriptor))
        #expect(fast.store.read(descriptor).data == naive.store.read(descriptor).data)
        #expect(fast.store.optimisticUpdateCount == naive.store.optimisticUpdateCount)
        if change != .optimisticUpdate {
            #expect(fast.store.check(descriptor) == .available)
            #expect(fast.store.read(descriptor).data?["hero"]?["name"] == "R2-D2")
        }
    }

    @Test func cacheControlStillCounts() async throws {
        let clock = ManualFreshnessClock()
        let freshness = CacheFreshness(defaultMaxAge: .seconds(20))
        let fast = CannedClient(store: Store(freshness: freshness, clock: clock))
        let naive = CannedClient(store: Store(freshness: freshness, clock: clock), keptResponseBytes: 0)
        for canned in [fast, naive] { _ = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(), cacheControl: "max-age=10") }
        // A refetch dates the fields again: fresh for another 10 s from now.
        clock.advance(by: .seconds(8))
        for canned in [fast, naive] { _ = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(), cacheControl: "max-age=10") }
        #expect(fast.hits == 1)
        #expect(fast.store.snapshot() == naive.store.snapshot())
        guard case .present(let record)? = fast.store.recordState(of: droid) else {
            Issue.record("the droid is missing")
            return
        }
        #expect(FieldAges.age(of: "name", in: record)?.receivedAt == clock.now.timeIntervalSince1970)
        clock.advance(by: .seconds(5))
        #expect(fast.store.check(OperationDescriptor(operation: HeroRecordIDQuery())) == .available)

        // `no-store`: the repeat writes nothing.
        for canned in [fast, naive] { canned.store.update { $0.get(droid)?.setValue("Changed", "name") } }
        for canned in [fast, naive] { _ = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(), cacheControl: "no-store") }
        #expect(fast.hits == 2)
        #expect(fast.store.snapshot() == naive.store.snapshot())
        #expect(fast.store.read(OperationDescriptor(operation: HeroRecordIDQuery())).data?["hero"]?["name"] == "Changed")
    }

    @Test func ignoringTheCacheCompletelyStillWritesNothing() async throws {
        let canned = CannedClient()
        let first = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(), cachePolicy: .fetchIgnoringCacheCompletely)
        let again = try await canned.fetch(HeroRecordIDQuery(), answering: heroBytes(), cachePolicy: .fetchIgnoringCacheCompletely)
        #expect(canned.hits == 1)
        #expect(again.data?.jsonObject == first.data?.jsonObject)
        #expect(again.data?.hero?.__id == "Droid:2001")
        #expect(canned.store.recordState(of: droid) == nil)
    }

    @Test func aZeroLimitKeepsNothingAndTheLeastRecentlyUsedGoFirst() async throws {
        let none = CannedClient(keptResponseBytes: 0)
        for _ in 0..<3 { _ = try await none.fetch(HeroRecordIDQuery(), answering: heroBytes()) }
        #expect(none.hits == 0)
        #expect(none.client.keptResponseUsage.entries == 0)

        // Room for two responses of this size, not three.
        let size = heroBytes().count
        let small = CannedClient(keptResponseBytes: size * 2 + size / 2)
        let episodes: [GraphQLNullable<GraphQLEnum<Episode>>] = [.some(.case(.newhope)), .some(.case(.empire)), .some(.case(.jedi))]
        for episode in episodes { _ = try await small.fetch(HeroRecordIDQuery(episode: episode), answering: heroBytes()) }
        #expect(small.client.keptResponseUsage.bytes <= size * 2 + size / 2)
        // The most recent is kept; the oldest went.
        _ = try await small.fetch(HeroRecordIDQuery(episode: episodes[2]), answering: heroBytes())
        #expect(small.hits == 1)
        _ = try await small.fetch(HeroRecordIDQuery(episode: episodes[0]), answering: heroBytes())
        #expect(small.hits == 1)
        // A response larger than the whole limit is not kept.
        let tiny = CannedClient(keptResponseBytes: size - 1)
        for _ in 0..<2 { _ = try await tiny.fetch(HeroRecordIDQuery(), answering: heroBytes()) }
        #expect(tiny.hits == 0)
    }
}

/// The ways a record can change between a fetch and its refetch.
enum ChangeBetweenFetches: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case localWrite, otherResponse, optimisticUpdate, invalidation, deletion, garbageCollection, clear

    var testDescription: String { rawValue }

    func apply(to store: Store) {
        switch self {
        case .localWrite:
            store.update { $0.get(droid)?.setValue("Changed", "name") }
        case .otherResponse:
            store.publish(
                data: ["hero": ["__typename": "Droid", "id": "2001", "name": "Other", "friends": []]],
                for: OperationDescriptor(operation: HeroRecordIDQuery()))
        case .optimisticUpdate:
            _ = store.applyOptimisticUpdate(data: nil, for: OperationDescriptor(operation: HeroRecordIDQuery())) { proxy, _ in
                proxy.get(droid)?.setValue("Optimistic", "name")
            }
        case .invalidation:
            store.invalidateRecord(droid)
        case .deletion:
            store.update { $0.delete(droid) }
        case .garbageCollection:
            // Nothing retains the query (network-only fetches keep it only in the release buffer).
            let token = store.retain(OperationDescriptor(operation: HeroRecordIDQuery()))
            token.release()
            _ = store.collectGarbage()
        case .clear:
            store.clear()
        }
    }
}
