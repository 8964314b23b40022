import BatonAPI
import BatonSQLite
import BatonStore
import Foundation
import Testing
import BatonTestSupport

/// Random sequences of store operations run against the real store and against a deliberately
/// naive reference model; after every step both must read the same for every query, and
/// `check` must agree, and so must when each read goes stale: every server payload dates the
/// fields it writes on a clock that moves a little at each step, and every field has the same
/// max age. The model recomputes the optimistic view from scratch (base plus every
/// pending update in order), finds reachable records from scratch, and keeps retention in plain
/// arrays: none of the store's indexes, rebasing or buffers. It shares only the normalizer and
/// the reader, which are pure functions tested on their own.
@Suite("Store against a naive model", .ownThread)
struct StoreModelTests {
    @Test(arguments: [1, 2, 3])
    func inMemoryStoreMatchesTheModel(seed: UInt64) async throws {
        try await run(seed: seed, steps: 3_500, sqlite: nil)
    }

    @Test(arguments: [11, 12])
    func sqliteStoreMatchesTheModelAcrossReopens(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            try await run(seed: seed, steps: 1_000, sqlite: folder.appendingPathComponent("model.sqlite"))
        }
    }

    /// Memory of a few records over the file: records leave memory and come back (read ahead
    /// with the rest of their write, as memory has room) all the time.
    @Test(arguments: [21, 22])
    func sqliteStoreWithASmallWorkingSetMatchesTheModel(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            try await run(seed: seed, steps: 1_000, sqlite: folder.appendingPathComponent("model.sqlite"), workingSetLimit: 8)
        }
    }

    /// Issue 26: publishers on two threads at once (payloads that commute, so the model may
    /// take them in either order) with readers beside them, over a disk that is slow now and
    /// then and fails on demand. A failed write leaves memory right (it keeps what the disk
    /// refused), so reads still match the model; the file is then behind, so the run reopens it
    /// only after a `clear()` has brought disk and memory together again.
    @Test(arguments: [31, 32])
    func sqliteStoreUnderConcurrentPublishersAndAFaultyDiskMatchesTheModel(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            try await run(seed: seed, steps: 1_000, sqlite: folder.appendingPathComponent("model.sqlite"), workingSetLimit: 8, faults: true)
        }
    }

    /// Issue 29: a second store over the same file (a second connection, as another process
    /// has) takes a share of the writes (publishes, invalidations, garbage collection) and is
    /// reopened now and then; after every step both stores' writes are in the file, and both
    /// must read what the model reads: the first with its optimistic updates, the second the
    /// base records alone (optimistic data and retention stay in the store that made them).
    /// Field ages included: both stores and the model date the fields a server payload writes.
    /// (Two store defects this found: a commit merged over the other store's stored copy lost
    /// its fields' new dates, so a store read them as older, stale sooner; and a fetch a store
    /// dropped with its root came back from the file at its next look at the other store's
    /// commits, before its removal was written, so the store read as available a query the
    /// model had forgotten.)
    @Test(arguments: [41, 42, 43])
    func twoStoresOverOneFileMatchTheModel(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            try await run(
                seed: seed, steps: 1_000, sqlite: folder.appendingPathComponent("model.sqlite"), workingSetLimit: 8, secondStore: true)
        }
    }

    func run(
        seed: UInt64, steps: Int, sqlite: URL?, workingSetLimit: Int = 50_000, faults: Bool = false, secondStore: Bool = false
    ) async throws {
        var random = SeededGenerator(seed: seed)
        // Time moves on its own generator, so a seed takes the same steps as before ages.
        var time = SeededGenerator(seed: seed &+ 0x5EED)
        let clock = TestClock()
        var faulty: FaultyCache?
        let freshness = CacheFreshness(defaultMaxAge: .seconds(ModelStore.maxAge))
        func openStore() throws -> Store {
            var cache: any NormalizedCache = try sqlite.map { try SQLiteNormalizedCache(fileURL: $0) } ?? InMemoryNormalizedCache()
            if faults {
                let wrapped = FaultyCache(cache, seed: random.next())
                faulty = wrapped
                cache = wrapped
            }
            return Store(
                cache: cache, releaseBufferSize: ModelStore.releaseBufferSize, workingSetLimit: workingSetLimit,
                freshness: freshness, clock: clock)
        }
        /// Whether a write failed since the last successful clear: the file is behind memory.
        var diskBehind = false
        var store = try openStore()
        func openSecond() throws -> Store? {
            guard secondStore, let sqlite else { return nil }
            // The same freshness rules and clock as the first: one app, two processes.
            return Store(
                cache: try SQLiteNormalizedCache(fileURL: sqlite), workingSetLimit: workingSetLimit,
                freshness: freshness, clock: clock)
        }
        var second = try openSecond()
        // Watchers come and go on their own generator (a seed takes the same store steps as
        // before they were added); after each step, what each last heard is what a read gives.
        var watching = SeededGenerator(seed: seed &+ 0x3A7C4)
        var watchers = ModelWatchers(store)
        /// The store a shared write goes to: either, with a second store.
        func either(_ random: inout SeededGenerator) -> (Store, String) {
            guard let second, random.next(upperBound: 2) == 0 else { return (store, "") }
            return (second, " (second store)")
        }
        var model = ModelStore(persistent: sqlite != nil)
        var tokens: [(query: Int, token: RetainToken)] = []
        var layers: [(update: OptimisticUpdate, modelID: Int)] = []
        var log: [String] = []

        for step in 0..<steps {
            // Long CPU work on Swift's cooperative pool (two threads here) lets other tests' tasks
            // run between steps.
            if step % 50 == 0 { await Task.yield() }
            clock.advance(seconds: Double(time.next(upperBound: 3)))
            if watching.next(upperBound: 8) == 0 {
                let query = watching.next(upperBound: ModelQueries.all.count)
                if model.watched.remove(query) != nil {
                    log.append("stop watching q\(query)")
                    watchers.stop(query)
                } else {
                    log.append("watch q\(query)")
                    model.watched.insert(query)
                    watchers.watch(query)
                }
            }
            model.now = clock.now.timeIntervalSince1970
            let action = random.next(upperBound: faults ? 112 : sqlite == nil ? 100 : 104)
            switch action {
            case 100..<104 where diskBehind:
                continue
            case 104..<109:
                // Two publishers at once on records they do not share (User:1, User:2), and a
                // reader beside them.
                let first = ModelQueries.payload(for: 1, using: &random)
                let second = ModelQueries.payload(for: 2, using: &random)
                log.append("concurrently publish q1 \(JSONValue.object(first).serializedString()) q2 \(JSONValue.object(second).serializedString())")
                let current = store
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    switch thread {
                    case 0: current.publish(data: first, for: ModelQueries.all[1], fetched: true, received: ResponseAge())
                    case 1: current.publish(data: second, for: ModelQueries.all[2], fetched: true, received: ResponseAge())
                    default: for descriptor in ModelQueries.all { _ = current.read(descriptor) }
                    }
                }
                model.publish(first, query: 1)
                model.publish(second, query: 2)
            case 109..<112:
                let failing = random.next(upperBound: 2) == 0
                log.append(failing ? "the disk fails" : "the disk works")
                faulty?.setFailing(failing)
            case 0..<30:  // a server payload, some of its nulls reported as field errors
                let query = random.next(upperBound: ModelQueries.all.count)
                let data = ModelQueries.payload(for: query, using: &random)
                let errors = ModelQueries.fieldErrors(in: data, step: step, using: &random)
                let (target, which) = either(&random)
                log.append("publish q\(query) \(JSONValue.object(data).serializedString()) errors \(errors.map(\.description))\(which)")
                target.publish(data: data, for: ModelQueries.all[query], errors: errors, fetched: true, received: ResponseAge())
                model.publish(data, query: query, errors: errors)
            case 30..<42:  // an optimistic update
                let query = random.next(upperBound: ModelQueries.all.count)
                let data = ModelQueries.payload(for: query, using: &random)
                log.append("optimistic q\(query) \(JSONValue.object(data).serializedString())")
                let update = store.applyOptimisticUpdate(data: data, for: ModelQueries.all[query])
                layers.append((update, model.applyOptimistic(data, query: query)))
            case 42..<50 where !layers.isEmpty:  // the server answers an optimistic update
                let index = random.next(upperBound: layers.count)
                let (update, modelID) = layers.remove(at: index)
                let query = model.layerQuery(modelID)
                let data = ModelQueries.payload(for: query, using: &random)
                log.append("commit layer \(modelID) q\(query) \(JSONValue.object(data).serializedString())")
                store.publish(data: data, for: ModelQueries.all[query], replacing: update, received: ResponseAge())
                model.commitOptimistic(modelID, with: data)
            case 50..<56 where !layers.isEmpty:  // an optimistic update is reverted
                let index = random.next(upperBound: layers.count)
                let (update, modelID) = layers.remove(at: index)
                log.append("revert layer \(modelID)")
                store.revertOptimisticUpdate(update)
                model.revertOptimistic(modelID)
            case 56..<62:
                let id = ModelQueries.someRecordID(using: &random)
                let (target, which) = either(&random)
                log.append("invalidate \(id)\(which)")
                target.invalidateRecord(id)
                model.invalidate(record: id)
            case 62..<64:
                let (target, which) = either(&random)
                log.append("invalidate store\(which)")
                target.invalidateStore()
                model.invalidateStore()
            case 64..<76:
                let query = random.next(upperBound: ModelQueries.all.count)
                log.append("retain q\(query)")
                tokens.append((query, store.retain(ModelQueries.all[query])))
                model.retain(query)
            case 76..<90 where !tokens.isEmpty:
                let (query, token) = tokens.remove(at: random.next(upperBound: tokens.count))
                log.append("release q\(query)")
                token.release()
                model.release(query)
            case 90..<97:
                let (target, which) = either(&random)
                log.append("collect garbage\(which)")
                target.collectGarbage()
                model.collectGarbage()
            case 97..<100:
                log.append("clear")
                store.clear()
                model.clear()
                if faults && store.takePersistenceErrors().isEmpty { diskBehind = false }
            case 100..<104 where second != nil && random.next(upperBound: 2) == 0:
                // The second store restarts (it holds no optimistic updates or retention).
                log.append("reopen the second store")
                second = nil
                second = try openSecond()
            case 100..<104:
                // Restart: a new store over the same file. What only memory held goes: optimistic
                // updates and retention; records, fetch times and invalidation marks stay.
                log.append("reopen")
                tokens.removeAll()
                layers.removeAll()
                faulty = nil
                watchers.cancel()
                store = Store()  // the old store writes what it has and closes its file first
                store = try openStore()
                watchers = ModelWatchers(store)
                for query in model.watched { watchers.watch(query) }
                model.reopen()
            default:
                continue
            }
            if faults && !store.takePersistenceErrors().isEmpty { diskBehind = true }
            if let second {
                // Each store's commits are in the file before the other reads.
                store.waitUntilPersisted()
                second.waitUntilPersisted()
                #expect(second.takePersistenceErrors().isEmpty)
            }
            try compare(store, model, step: step, seed: seed, log: log)
            try watchers.compare(store, step: step, seed: seed, log: log)
            if let second { try compare(second, model, step: step, seed: seed, log: log, base: true) }
        }
    }

    /// Compares every query's read and check; `base`: against the model's base records alone
    /// (a store without the optimistic updates).
    func compare(_ store: Store, _ model: ModelStore, step: Int, seed: UInt64, log: [String], base: Bool = false) throws {
        for (index, descriptor) in ModelQueries.all.enumerated() {
            let real = store.read(descriptor)
            let expected = model.read(query: index, source: base ? model.base : nil)
            let readsAgree =
                real.isMissing == expected.isMissing
                && (real.isMissing || (real.data == expected.data && real.fieldErrors == expected.fieldErrors))
            let realCheck = store.check(descriptor)
            let expectedCheck = model.check(query: index, source: base ? model.base : nil)
            let expectedStaleAt = model.staleAt(query: index, source: base ? model.base : nil)
            if !readsAgree || realCheck != expectedCheck || real.staleAt != expectedStaleAt {
                Issue.record(
                    """
                    seed \(seed), step \(step), query q\(index)\(base ? " (second store)" : ""): store read \(real.isMissing ? "missing" : String(describing: real.data)), \
                    check \(realCheck), stale at \(String(describing: real.staleAt)); \
                    model read \(expected.isMissing ? "missing" : String(describing: expected.data)), \
                    check \(expectedCheck), stale at \(String(describing: expectedStaleAt))
                    last steps:
                    \(log.suffix(12).joined(separator: "\n"))
                    """)
                throw ModelMismatch()
            }
        }
    }

    struct ModelMismatch: Error {}
}

/// Watchers on some of ``ModelQueries/all`` (issue 26: watchers re-read after the commit's lock,
/// once for a batch of commits, in memory without the lock): what each last heard (or its
/// initial read) must always be what a read of its query gives, and no two of its callbacks may
/// run at once.
final class ModelWatchers: Sendable {
    private struct Heard {
        var results: [Int: ReadResult] = [:]
        var subscriptions: [Int: StoreSubscription] = [:]
        var inCallback = Set<Int>()
        var overlapped = false
    }

    private let store: Store
    private let heard = Locked(Heard())

    init(_ store: Store) {
        self.store = store
    }

    func watch(_ query: Int) {
        let heard = self.heard
        let (initial, subscription) = store.subscribe(ModelQueries.all[query]) { result in
            heard.withLock { state in
                if !state.inCallback.insert(query).inserted { state.overlapped = true }
                state.results[query] = result
            }
            heard.withLock { _ = $0.inCallback.remove(query) }
        }
        heard.withLock { state in
            state.results[query] = initial
            state.subscriptions[query] = subscription
        }
    }

    func stop(_ query: Int) {
        let subscription = heard.withLock { state in
            state.results[query] = nil
            return state.subscriptions.removeValue(forKey: query)
        }
        subscription?.cancel()
    }

    func cancel() {
        let subscriptions = heard.withLock { state in
            defer { state = Heard() }
            return state.subscriptions.values
        }
        subscriptions.forEach { $0.cancel() }
    }

    func compare(_ store: Store, step: Int, seed: UInt64, log: [String]) throws {
        let (results, overlapped) = heard.withLock { ($0.results, $0.overlapped) }
        #expect(!overlapped, "seed \(seed), step \(step): a watcher's callbacks overlapped")
        for (query, last) in results.sorted(by: { $0.key < $1.key }) {
            let read = store.read(ModelQueries.all[query])
            if last.isMissing != read.isMissing || last.data != read.data {
                Issue.record(
                    """
                    seed \(seed), step \(step), watcher of q\(query) last heard \(last.isMissing ? "missing " : "")\(String(describing: last.data)); \
                    a read gives \(read.isMissing ? "missing " : "")\(String(describing: read.data))
                    last steps:
                    \(log.suffix(12).joined(separator: "\n"))
                    """)
                throw StoreModelTests.ModelMismatch()
            }
        }
    }
}

/// A cache over another that is slow now and then and fails while told to (a disk that
/// stalls, then fills up).
final class FaultyCache: NormalizedCache, Sendable {
    let inner: any NormalizedCache
    private let state: Locked<(failing: Bool, random: SeededGenerator)>

    init(_ inner: any NormalizedCache, seed: UInt64) {
        self.inner = inner
        state = Locked((false, SeededGenerator(seed: seed)))
    }

    var isPersistent: Bool { inner.isPersistent }
    func loadRecords(forKeys ids: Set<DataID>) throws -> [DataID: RecordState] { try inner.loadRecords(forKeys: ids) }
    func loadRecords(forKeys ids: Set<DataID>, readingAhead: Bool) throws -> [DataID: RecordState] {
        try inner.loadRecords(forKeys: ids, readingAhead: readingAhead)
    }
    func loadMetadata() throws -> CacheMetadata { try inner.loadMetadata() }

    struct DiskFull: Error {}

    func write(_ batch: CacheBatch) throws {
        let (failing, slow) = state.withLock { state in (state.failing, state.random.next(upperBound: 20) == 0) }
        if slow { Thread.sleep(forTimeInterval: 0.002) }
        if failing { throw DiskFull() }
        try inner.write(batch)
    }

    func clear() throws {
        if state.withLock({ $0.failing }) { throw DiskFull() }
        try inner.clear()
    }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
}

/// The queries the random steps use, over a small schema: `Query { me: User, user(id:): User,
/// users: [User] }`, `User { id, name, bestFriend: User }`.
enum ModelQueries {
    static let userIDs = ["1", "2", "3", "4"]
    static let names = ["Ann", "Bo", "Cy", "Di", "Ed"]

    static let userFields: [Selection] = [
        .field("__typename", type: .nonNull(.scalar("String"))),
        .field("id", type: .nonNull(.scalar("ID"))),
        .field("name", type: .scalar("String")),
    ]
    static let me = OperationDescriptor(
        name: "Me",
        selections: [
            .field(
                "me", type: .object("User"),
                selections: userFields + [.field("bestFriend", type: .object("User"), selections: userFields)])
        ], variables: [:], rootType: "Query")
    static func user(_ id: String) -> OperationDescriptor {
        OperationDescriptor(
            name: "User", selections: [.field("user", type: .object("User"), arguments: ["id": .variable("id")], selections: userFields)],
            variables: ["id": .string(id)], rootType: "Query")
    }
    static let users = OperationDescriptor(
        name: "Users", selections: [.field("users", type: .list(.object("User")), selections: userFields)], variables: [:],
        rootType: "Query")
    /// A fragment read on a record, like a live fragment.
    static let userNameFragment = OperationDescriptor(
        name: "UserName", selections: userFields, variables: [:], rootID: "User:1", rootType: "User")

    static let all: [OperationDescriptor] = [me, user("1"), user("2"), users, userNameFragment]

    static func someRecordID(using random: inout SeededGenerator) -> DataID {
        DataID("User:" + userIDs[random.next(upperBound: userIDs.count)])
    }

    static func userObject(using random: inout SeededGenerator, id: String? = nil, friend: Bool = false) -> JSONValue {
        var object: JSONObject = [
            "__typename": "User", "id": .string(id ?? userIDs[random.next(upperBound: userIDs.count)]),
            "name": random.next(upperBound: 6) == 0 ? .null : .string(names[random.next(upperBound: names.count)]),
        ]
        if friend {
            object["bestFriend"] = random.next(upperBound: 3) == 0 ? .null : userObject(using: &random)
        }
        return .object(object)
    }

    /// Errors at some of the nulls of `data`, as a server reports the fields it nulled. Not in
    /// an object whose record the payload holds twice: which occurrence's field stays is the
    /// executor's rule (the last), which the model does not repeat.
    static func fieldErrors(in data: JSONObject, step: Int, using random: inout SeededGenerator) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        var occurrences: [String: Int] = [:]
        func count(_ value: JSONValue) {
            switch value {
            case .object(let object):
                if let id = object["id"]?.stringValue { occurrences[id, default: 0] += 1 }
                object.values.forEach(count)
            case .list(let items): items.forEach(count)
            default: return
            }
        }
        count(.object(data))
        func visit(_ value: JSONValue, _ path: [ResponsePath.Component], in parentID: String? = nil) {
            switch value {
            case .null:
                if parentID.map({ occurrences[$0] == 1 }) ?? true, random.next(upperBound: 2) == 0 {
                    errors.append(GraphQLError(message: "failed at step \(step)", path: ResponsePath(path), extensions: ["step": .int(step)]))
                }
            case .object(let object):
                let id = object["id"]?.stringValue
                for (key, child) in zip(object.keys, object.values) { visit(child, path + [.key(key)], in: id) }
            case .list(let items):
                for (index, item) in items.enumerated() { visit(item, path + [.index(index)], in: parentID) }
            default:
                return
            }
        }
        visit(.object(data), [])
        return errors
    }

    static func payload(for query: Int, using random: inout SeededGenerator) -> JSONObject {
        switch query {
        case 0: return ["me": random.next(upperBound: 8) == 0 ? .null : userObject(using: &random, friend: true)]
        case 1: return ["user": random.next(upperBound: 8) == 0 ? .null : userObject(using: &random, id: "1")]
        case 2: return ["user": random.next(upperBound: 8) == 0 ? .null : userObject(using: &random, id: "2")]
        case 3: return ["users": .list((0..<random.next(upperBound: 4)).map { _ in userObject(using: &random) })]
        default: return Self.userObject(using: &random, id: "1").objectValue ?? [:]
        }
    }
}

/// The naive reference: base records, an ordered list of optimistic payloads, retention counts
/// and a release buffer in arrays, epochs for invalidation. Everything is recomputed from
/// scratch when asked. Over a persistent cache, garbage collection frees memory only, so it
/// changes no read, and a restart keeps records, fetch times and invalidation marks.
struct ModelStore {
    static let releaseBufferSize = 2
    /// Every field's max age, in seconds.
    static let maxAge: Int64 = 4
    let persistent: Bool
    /// Whether fields are dated (the stores have a max age); else nothing is ever stale by age.
    var datesFields = true
    /// The clock's time (seconds since 1970).
    var now: Double = 0
    /// When a server payload last wrote each field of each base record.
    var dates: [DataID: [String: Double]] = [:]

    struct Root {
        var retainCount = 0
        var fetchEpoch: Int?
    }

    var base = RecordSource(records: [Record(id: .rootID, typename: "__Root")])
    var layers: [(id: Int, query: Int, data: JSONObject)] = []
    var nextLayerID = 0
    var roots: [Int: Root] = [:]
    var releaseBuffer: [Int] = []
    var epoch = 0
    var storeInvalidatedAt: Int?
    var invalidatedAt: [DataID: Int] = [:]
    var collectionPending = false
    /// The queries watched: a store's garbage collection keeps what its watchers read.
    var watched = Set<Int>()

    func normalize(_ data: JSONObject, query: Int) -> RecordSource {
        let descriptor = ModelQueries.all[query]
        return ResponseNormalizer.normalize(
            data, selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables)
    }

    /// Base plus every pending optimistic payload, in order, recomputed from scratch.
    var view: RecordSource {
        var view = base
        for layer in layers { view.apply(normalize(layer.data, query: layer.query)) }
        return view
    }

    func read(query: Int, source: RecordSource? = nil) -> ReadResult {
        let descriptor = ModelQueries.all[query]
        return Reader.read(
            selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables, source: source ?? view)
    }

    func check(query: Int, source: RecordSource? = nil) -> OperationAvailability {
        let lastWritten = roots[query]?.fetchEpoch
        if let invalidated = storeInvalidatedAt, lastWritten.map({ $0 <= invalidated }) ?? true { return .stale }
        let result = read(query: query, source: source)
        if let latest = result.seenIDs.compactMap({ invalidatedAt[$0] }).max(), lastWritten.map({ latest > $0 }) ?? true {
            return .stale
        }
        if result.isMissing { return .missing }
        if let staleAt = staleAt(query: query, source: source), staleAt.timeIntervalSince1970 <= now { return .stale }
        return .available
    }

    /// When the query's data goes stale: the soonest date plus max age of the fields its read
    /// finds (over the optimistic view, or `source`), walked naively; a field never dated is
    /// stale forever.
    func staleAt(query: Int, source: RecordSource? = nil) -> Date? {
        guard datesFields else { return nil }
        let descriptor = ModelQueries.all[query]
        let view = source ?? self.view
        var soonest = Double.infinity
        func walk(_ id: DataID, _ selections: [Selection]) {
            guard let record = view[id] else { return }
            for case .field(let field) in selections where field.name != "__typename" {
                var key = field.name
                if !field.arguments.isEmpty {
                    // The model's only arguments: `user(id: $id)`.
                    key += "(id:" + (descriptor.variables["id"]?.serializedString() ?? "null") + ")"
                }
                guard let value = record[key] else { continue }
                soonest = min(soonest, dates[id]?[key].map { $0 + Double(Self.maxAge) } ?? -.infinity)
                guard !field.selections.isEmpty else { continue }
                func follow(_ value: RecordValue) {
                    switch value {
                    case .link(let linked): walk(linked, field.selections)
                    case .list(let items): items.forEach(follow)
                    case .scalar, .fieldErrors, .embedded: break
                    }
                }
                follow(value)
            }
        }
        walk(descriptor.rootID, descriptor.selections)
        guard soonest != .infinity else { return nil }
        return Date(timeIntervalSince1970: max(soonest, -1e12))
    }

    /// Dates every field `changes` writes.
    mutating func date(_ changes: RecordSource) {
        guard datesFields else { return }
        for id in changes.ids {
            guard let record = changes[id] else { continue }
            for key in record.fields.keys { dates[id, default: [:]][key] = now }
        }
    }

    mutating func publish(_ data: JSONObject, query: Int, errors: [GraphQLError] = []) {
        epoch += 1
        let changes = normalize(data, query: query)
        base.apply(changes)
        date(changes)
        for error in errors { keep(error, query: query) }
        roots[query, default: Root()].fetchEpoch = epoch
    }

    /// Puts a field error where its path leads, naively: follow the path's fields through the
    /// records from the query's root (the model's queries select each field under its own name,
    /// `user(id:)` keyed by its argument) and replace the null at its end.
    mutating func keep(_ error: GraphQLError, query: Int) {
        let descriptor = ModelQueries.all[query]
        guard let components = error.path?.components, !components.isEmpty else { return }
        var id = descriptor.rootID
        var value: RecordValue?
        for (position, component) in components.enumerated() {
            let isLast = position == components.count - 1
            switch component {
            case .key(let key):
                if let link = value?.linkedID { id = link }
                var storageKey = key
                if position == 0, key == "user", let userID = descriptor.variables["id"]?.stringValue { storageKey = #"user(id:"\#(userID)")"# }
                if isLast {
                    var record = base[id]!
                    record[storageKey] = .fieldErrors([error.moved(to: ResponsePath())])
                    base.set(record)
                    return
                }
                value = base[id]?[storageKey]
            case .index(let index):
                guard case .list(let items)? = value, items.indices.contains(index) else { return }
                value = items[index]
            }
        }
    }

    mutating func applyOptimistic(_ data: JSONObject, query: Int) -> Int {
        defer { nextLayerID += 1 }
        layers.append((nextLayerID, query, data))
        return nextLayerID
    }

    func layerQuery(_ id: Int) -> Int { layers.first { $0.id == id }!.query }

    /// The server's payload for a mutation is written to the base, not as a fetch of a query.
    mutating func commitOptimistic(_ id: Int, with data: JSONObject) {
        let query = layerQuery(id)
        layers.removeAll { $0.id == id }
        epoch += 1
        let changes = normalize(data, query: query)
        base.apply(changes)
        date(changes)
        runPendingCollection()
    }

    mutating func revertOptimistic(_ id: Int) {
        layers.removeAll { $0.id == id }
        runPendingCollection()
    }

    mutating func runPendingCollection() {
        if layers.isEmpty && collectionPending { collectGarbage() }
    }

    mutating func invalidate(record id: DataID) {
        epoch += 1
        invalidatedAt[id] = epoch
    }

    mutating func invalidateStore() {
        epoch += 1
        storeInvalidatedAt = epoch
    }

    mutating func retain(_ query: Int) {
        roots[query, default: Root()].retainCount += 1
        releaseBuffer.removeAll { $0 == query }
    }

    mutating func release(_ query: Int) {
        guard var root = roots[query] else { return }
        root.retainCount = max(0, root.retainCount - 1)
        roots[query] = root
        guard root.retainCount == 0 else { return }
        releaseBuffer.removeAll { $0 == query }
        releaseBuffer.append(query)
        if releaseBuffer.count > Self.releaseBufferSize {
            let evicted = releaseBuffer.removeFirst()
            if roots[evicted]?.retainCount == 0 { roots[evicted] = nil }
            collectGarbage()
        }
    }

    mutating func collectGarbage() {
        epoch += 1
        guard layers.isEmpty else {
            collectionPending = true
            return
        }
        collectionPending = false
        guard !persistent else { return }
        var reachable: Set<DataID> = [.rootID]
        for (query, root) in roots where root.retainCount > 0 || releaseBuffer.contains(query) {
            reachable.formUnion(read(query: query, source: base).seenIDs)
        }
        for query in watched { reachable.formUnion(read(query: query, source: base).seenIDs) }
        for id in base.ids where !reachable.contains(id) {
            base.remove(id)
            invalidatedAt[id] = nil
            dates[id] = nil
        }
    }

    mutating func clear() {
        epoch += 1
        base = RecordSource(records: [Record(id: .rootID, typename: "__Root")])
        dates.removeAll()
        roots.removeAll()
        releaseBuffer.removeAll()
        invalidatedAt.removeAll()
        storeInvalidatedAt = nil
    }

    mutating func reopen() {
        layers.removeAll()
        // Fetch times stay (the cache keeps them); retention does not.
        roots = roots.compactMapValues { root in root.fetchEpoch.map { Root(retainCount: 0, fetchEpoch: $0) } }
        releaseBuffer.removeAll()
        collectionPending = false
    }
}
