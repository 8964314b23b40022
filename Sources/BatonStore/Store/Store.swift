import BatonAPI
import Foundation

/// The normalized store: every record once, one publish path for every write, watchers that
/// re-read when a record they saw changes, retention and garbage collection, invalidation, and a
/// persistent ``NormalizedCache`` written behind every publish, in commit order
/// (``waitUntilPersisted()`` waits for it).
public final class Store: Sendable {
    /// The cache-key rule for every operation, when given; otherwise each operation's generated
    /// schema decides (see ``CacheKeyConfiguration``), and ``CacheKeyConfiguration/default``
    /// serves operations without one.
    public let cacheKeys: CacheKeyConfiguration?
    public let cache: any NormalizedCache
    /// How many released query roots stay retained, most recent first (Relay's release buffer).
    public let releaseBufferSize: Int
    /// Data fetched longer ago than this is stale for ``check(_:)``; `nil` never expires.
    public let queryCacheExpirationTime: Duration?
    /// Variables whose values never become part of a storage key as they are (see ``storageDescriptor(_:)``).
    public let sensitiveData: SensitiveData
    /// How long data stays fresh, per type and field (see ``CacheFreshness``).
    public let freshness: CacheFreshness
    /// The clock that dates server responses and measures their age.
    public let clock: any FreshnessClock
    /// Mixed into the stand-ins of sensitive values; never stored, so they differ in every run.
    private let redactionSalt: (UInt64, UInt64)

    let state: Locked<StoreState>
    /// Whether commits are written to `cache` (not for the in-memory default).
    private let persists: Bool
    let notifications = NotificationQueue()
    private let persistenceErrors: Locked<[any Error]>
    /// Writes commits to `cache` behind the callers, in commit order (`nil` for the in-memory default).
    private let writer: PersistenceWriter?

    /// A store over `cache` (in memory by default). With a persistent cache, opening costs the
    /// same whatever the cache holds: its bookkeeping (fetch times, invalidation marks) is read
    /// now, its records when something needs them, and memory keeps at most `workingSetLimit`
    /// records (the least recently used that nothing watches leave memory, not the cache). A
    /// cache that cannot be read leaves the store empty and the error in ``takePersistenceErrors()``.
    /// `cacheKeys`, when given, replaces the rule each operation's generated schema gives.
    /// `freshness` says how long data stays fresh, measured on `clock`.
    public init(
        cache: any NormalizedCache = InMemoryNormalizedCache(),
        cacheKeys: CacheKeyConfiguration? = nil,
        releaseBufferSize: Int = 10,
        queryCacheExpirationTime: Duration? = nil,
        sensitiveData: SensitiveData = .default,
        workingSetLimit: Int = 50_000,
        freshness: CacheFreshness = .default,
        clock: any FreshnessClock = SystemFreshnessClock()
    ) {
        self.cache = cache
        self.freshness = freshness
        self.clock = clock
        self.sensitiveData = sensitiveData
        var generator = SystemRandomNumberGenerator()
        redactionSalt = (generator.next(), generator.next())
        persists = cache.isPersistent
        self.cacheKeys = cacheKeys
        self.releaseBufferSize = releaseBufferSize
        self.queryCacheExpirationTime = queryCacheExpirationTime
        let errors = Locked<[any Error]>([])
        persistenceErrors = errors
        let memory = WorkingSet(records: RecordSource(), cache: persists ? cache : nil, limit: workingSetLimit) { error in
            storeLogger.error("A record could not be loaded from the persistent cache; it reads as missing: \(error)")
            errors.withLock { $0.append(error) }
        }
        // A cache that survives the process may hold records dated in an earlier run.
        var state = StoreState(memory: memory, freshness: freshness, mayHoldAges: persists)
        if persists {
            do {
                let metadata = try cache.loadMetadata()
                let (now, date) = (ContinuousClock.now, Date())
                state.epoch = metadata.epoch
                state.storeInvalidatedAt = metadata.storeInvalidatedAt
                state.invalidatedAt = metadata.invalidatedAt
                state.fetches = metadata.fetches.mapValues { FetchState($0, now: now, date: date) }
                if metadata.holdsNoRecords { memory.cacheHoldsOnlyWhatIsWritten() }
                memory.load([.rootID])
            } catch {
                storeLogger.error("The persistent cache could not be read; the store starts empty: \(error)")
                errors.withLock { $0.append(error) }
            }
        }
        if memory.records.state(of: .rootID) == nil { memory.records.set(Record(id: .rootID, typename: "__Root")) }
        let locked = Locked(state)
        self.state = locked
        writer =
            persists
            ? PersistenceWriter(
                cache: cache,
                keep: { [weak locked] in
                    // On the writer's thread, when the cache's eviction policy has work to do.
                    locked?.withLock { $0.recordsToKeep() } ?? []
                }
            ) { [weak locked] outcome in
                // On the writer's thread: memory learns what reached the cache. Weakly: the
                // store's state (and through it the cache) goes with the store.
                var failure: (any Error)?
                locked?.withLock { state in
                    switch outcome {
                    case .wrote(let commits, let error):
                        for commit in commits { state.memory.didWrite(commit, succeeded: error == nil) }
                        // Written records may leave memory now.
                        state.trimMemory()
                        failure = error
                    case .cleared(let error):
                        state.memory.didClear(succeeded: error == nil)
                        failure = error
                    }
                }
                if let failure {
                    storeLogger.error("A write to the persistent cache failed; memory has it, the cache does not: \(failure)")
                    errors.withLock { $0.append(failure) }
                }
            } : nil
        // A file over its bound is trimmed behind the caller: the writer asks the cache's policy
        // (`needsEviction`) on its own thread.
        writer?.enqueueEviction()
    }

    /// Waits for the commits made so far to reach the persistent cache (written, or failed and
    /// reported). The store writes behind its callers: a publish returns once memory has the
    /// commit, and the cache gets it in commit order on a thread of its own. Call this before
    /// reading the cache file by other means, or before the process exits. A no-op for the
    /// in-memory cache.
    public func waitUntilPersisted() {
        writer?.waitUntilIdle()
    }

    /// Waits for the writes queued so far, but leaves the fetch times of commits that changed
    /// nothing else (an unchanged refetch) deferred, as they are until the next write that
    /// changes data, ``waitUntilPersisted()`` or the store's end: what a refetch itself writes.
    package func waitForQueuedWrites() {
        writer?.waitUntilIdle(flushingDeferred: false)
    }

    deinit {
        // What was committed reaches the cache, and the writer lets the cache go, before the
        // file can be opened again.
        writer?.close()
    }

    /// The cache-key rule for `descriptor`: the store's own, else the descriptor's schema's,
    /// else ``CacheKeyConfiguration/default``.
    public func cacheKeys(for descriptor: OperationDescriptor) -> CacheKeyConfiguration {
        cacheKeys ?? descriptor.cacheKeys ?? .default
    }

    /// Errors the persistent cache reported: a write that failed (memory keeps what it could not
    /// write, and keeps working) or a load. Each is also logged. It first waits for the commits
    /// made so far to be written (``waitUntilPersisted()``), so their failures are among them.
    /// Reading clears them.
    public func takePersistenceErrors() -> [any Error] {
        waitUntilPersisted()
        return persistenceErrors.withLock { errors in
            defer { errors.removeAll() }
            return errors
        }
    }

    // MARK: Reading

    /// Reads an operation or fragment from the store; `collectsMissingPaths` also says where
    /// the data is incomplete (``ReadResult/missingPaths``, for partial reads).
    public func read(_ descriptor: OperationDescriptor, collectsMissingPaths: Bool = false) -> ReadResult {
        let descriptor = storageDescriptor(descriptor)
        return withCurrentState { state in
            defer { finishRead(&state) }
            return state.read(descriptor, collectsMissingPaths: collectsMissingPaths)
        }
    }

    /// The state of one record (loaded from the cache when not in memory): present, deleted, or
    /// `nil` when missing.
    public func recordState(of id: DataID) -> RecordState? {
        withCurrentState { state in
            defer { finishRead(&state) }
            return state.memory.state(of: id)
        }
    }

    /// Runs `body` under the store's lock once memory has taken in what other writers of a
    /// shared cache committed (see ``NormalizedCache/changesByOthers()``); watchers whose data
    /// those commits changed are notified after the lock is released.
    func withCurrentState<T>(_ body: (inout StoreState) throws -> T) rethrows -> T {
        let result = try state.withLock { state in
            takeInChangesByOthers(&state)
            return try body(&state)
        }
        notifyWatchers()
        return result
    }

    /// After a read: memory back within its bound, and when many records were read with no
    /// commit to carry their reading times to the cache, a write of those times alone (queued
    /// behind the reader, for least-recently-used eviction).
    private func finishRead(_ state: inout StoreState) {
        state.trimMemory()
        if let writer, state.memory.readsWaitingForWrite >= Self.readsPerReadingTimeWrite {
            writer.enqueueReads(CacheBatch(epoch: state.epoch, readIDs: state.memory.takeReadSinceWrite()))
        }
    }

    /// How many records are read, with no commit, before their reading times are written alone.
    static let readsPerReadingTimeWrite = 1_024

    /// Takes in what other writers of the cache committed since the last look: memory lets go
    /// of the records they wrote, adopts their fetch times, invalidation marks and epoch (so
    /// that one order of commits holds across stores), the optimistic layers that read those
    /// records are applied again, and the watchers that saw them re-read.
    func takeInChangesByOthers(_ state: inout StoreState) {
        guard persists else { return }
        let changes: CacheChangesByOthers
        do {
            guard let found = try cache.changesByOthers() else { return }
            changes = found
        } catch {
            storeLogger.error("The persistent cache could not tell what other writers changed: \(error)")
            persistenceErrors.withLock { $0.append(error) }
            return
        }
        let oldRoot = state.source.state(of: .rootID)
        var changed: Set<DataID>
        if changes.cleared {
            changed = Set(state.source.ids)
            changed.formUnion(changes.recordIDs)
            state.memory.othersCleared()
        } else {
            changed = changes.recordIDs
            state.memory.othersChanged(changes.recordIDs)
        }
        if state.source.state(of: .rootID) == nil {
            state.memory.load([.rootID])
            if state.source.state(of: .rootID) == nil { state.source.set(Record(id: .rootID, typename: "__Root")) }
        }
        let newRoot = state.source.state(of: .rootID)
        var rootFields = Set<String>()
        if case .present(let old)? = oldRoot, case .present(let new)? = newRoot {
            for (key, value) in new.fields where old.fields[key] != value { rootFields.insert(key) }
            for (key, _) in old.fields where new.fields[key] == nil { rootFields.insert(key) }
        } else if oldRoot != newRoot, case .present(let new)? = newRoot {
            rootFields.formUnion(new.fields.keys)
        }
        if rootFields.isEmpty { changed.remove(.rootID) } else { changed.insert(.rootID) }
        let invalidationsBefore = state.invalidatedAt
        state.adoptMetadata(changes.metadata, now: ContinuousClock.now, date: Date())
        for (id, epoch) in state.invalidatedAt where invalidationsBefore[id] != epoch { changed.insert(id) }
        guard !changed.isEmpty else { return }
        if state.optimistic.isEmpty {
            state.noteChange(of: changed, changedRootFields: rootFields, in: notifications)
        } else {
            let touched = state.optimistic.rebase(changedBase: changed, removed: nil, baseLookup: state.baseLookup)
            state.noteChange(
                of: changed.union(touched.ids), changedRootFields: rootFields.union(touched.rootFields), in: notifications)
        }
    }

    /// A copy of the records in memory (with a persistent cache, the working set only), for
    /// inspection and tests.
    public func snapshot() -> RecordSource {
        state.withLock { $0.source }
    }

    /// Whether the store can answer `descriptor` without the network, as relay-runtime's
    /// `check` answers: `.stale` when the whole store was invalidated after the operation was
    /// last written (or it never was), or a record it reads was invalidated after that — before
    /// looking at what is missing; then `.missing` when anything is; then `.stale` when its
    /// fetch is older than ``queryCacheExpirationTime``; else `.available`.
    public func check(_ descriptor: OperationDescriptor) -> OperationAvailability {
        load(descriptor).availability
    }

    /// Reads `descriptor` and tells its availability (as ``check(_:)``) from that one read:
    /// what a cache policy needs to decide and answer.
    public func load(_ descriptor: OperationDescriptor) -> CacheLoad {
        let descriptor = storageDescriptor(descriptor)
        let now = ContinuousClock.now
        let date = clock.now
        return withCurrentState { state in
            defer { finishRead(&state) }
            let read = state.read(descriptor)
            let (availability, expiredFor) = availability(of: descriptor, read: read, in: state, now: now, date: date)
            return CacheLoad(availability: availability, read: read, expiredFor: expiredFor)
        }
    }

    /// The availability of `read`, and when it is stale only by age, for how long it has been.
    private func availability(
        of descriptor: OperationDescriptor, read: ReadResult, in state: StoreState, now: ContinuousClock.Instant, date: Date
    ) -> (OperationAvailability, Duration?) {
        let fetch = state.fetches[descriptor.rootKey]
        let lastWritten = fetch?.epoch
        if let invalidated = state.storeInvalidatedAt, lastWritten.map({ $0 <= invalidated }) ?? true { return (.stale, nil) }
        let mostRecentInvalidation = read.seenIDs.lazy.compactMap { state.invalidatedAt[$0] }.max()
        if let mostRecentInvalidation, lastWritten.map({ mostRecentInvalidation > $0 }) ?? true { return (.stale, nil) }
        if read.isMissing { return (.missing, nil) }
        var expiredFor: Duration?
        if let expiration = queryCacheExpirationTime, let fetched = fetch?.time, now - fetched > expiration {
            expiredFor = now - fetched - expiration
        }
        if let staleAt = read.staleAt, staleAt <= date {
            // An unknown age (a field never dated) is stale past any bound.
            let past =
                staleAt.timeIntervalSince1970 < -1e11
                ? Duration.seconds(Int64.max / 4) : .milliseconds(Int64(date.timeIntervalSince(staleAt) * 1000))
            expiredFor = max(expiredFor ?? .zero, past)
        }
        return (expiredFor == nil ? .available : .stale, expiredFor)
    }

    /// `descriptor` as the store keys it: each sensitive variable's value replaced by a
    /// stand-in (`"<redacted:…>"`) made from the value with a salt that only this store instance
    /// knows. Distinct values keep distinct storage keys while it lives, yet no key that reaches
    /// the persistent cache holds a secret or a hash anyone could test guesses against. The
    /// price: fields keyed by a sensitive variable are not found again after a restart.
    /// The store's own cache-key rule, when it has one, replaces the descriptor's (so that reads
    /// follow its key arguments).
    public func storageDescriptor(_ descriptor: OperationDescriptor) -> OperationDescriptor {
        let redacts = sensitiveData.hasSensitiveVariables && !descriptor.variables.isEmpty
        guard redacts || cacheKeys != nil else { return descriptor }
        guard redacts else {
            return OperationDescriptor(
                name: descriptor.name, selections: descriptor.selections, variables: descriptor.variables,
                rootID: descriptor.rootID,
                rootType: descriptor.rootType, cacheKeys: cacheKeys, cacheDirectives: descriptor.cacheDirectives)
        }
        let salt = redactionSalt
        let variables = sensitiveData.redacting(descriptor.variables) { value in
            var hasher = Hasher()
            hasher.combine(salt.0)
            hasher.combine(value.serializedString())
            hasher.combine(salt.1)
            let stamp = UInt64(bitPattern: Int64(hasher.finalize()))
            return .string("<redacted:\(String(stamp, radix: 16))>")
        }
        return OperationDescriptor(
            name: descriptor.name, selections: descriptor.selections, variables: variables, rootID: descriptor.rootID,
            rootType: descriptor.rootType, cacheKeys: cacheKeys ?? descriptor.cacheKeys,
            cacheDirectives: descriptor.cacheDirectives)
    }

    // MARK: Writing

    /// Publishes record changes and invalidations through the one commit path. `fetched` marks
    /// the operation whose server response this is (for ``check(_:)``). Returns the IDs whose
    /// records changed.
    @discardableResult
    public func publish(
        _ changes: RecordSource, invalidating invalidations: Invalidations = .init(), fetched: OperationDescriptor? = nil
    )
        -> Set<DataID>
    {
        commit(fetched: fetched.map(storageDescriptor)) { _ in StoreChanges(records: changes, invalidations: invalidations) }
    }

    /// Normalizes a response object for `descriptor` and publishes it: directive handlers
    /// (`@connection`, mutation directives) run on it, then `updater`. When the payload answers an
    /// optimistic update, pass it as `replacing`: in one step its layer goes, the payload is
    /// committed, the other optimistic updates are applied again in order, and watchers are told once.
    /// The watcher of `silencing` (a watch publishing its own fetch) takes the new data without
    /// being notified; every other watcher is notified as usual. `received`, for a server's
    /// response, dates the fields it writes (see ``CacheFreshness``).
    @discardableResult
    public func publish(
        data: JSONObject, for descriptor: OperationDescriptor, errors: [GraphQLError] = [], fetched: Bool = false,
        updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)? = nil, replacing optimistic: OptimisticUpdate? = nil,
        silencing subscription: StoreSubscription? = nil, received: ResponseAge? = nil
    ) -> Set<DataID> {
        let descriptor = storageDescriptor(descriptor)
        // Normalized before the lock: only the handlers, the updater and the merge need it.
        var payload = PayloadApplier.normalize(
            data: data, descriptor: descriptor, errors: errors, cacheKeys: cacheKeys(for: descriptor))
        return commit(
            fetched: fetched ? descriptor : nil, removing: optimistic, silencing: subscription?.id,
            dating: fieldDate(for: descriptor, received)
        ) { state in
            PayloadApplier.apply(taking: &payload, lookup: state.baseLookup, updater: updater)
        }
    }

    /// Checks a server response's `data` against `descriptor`'s selections and normalizes it, in
    /// one walk and without the store's lock (so tasks prepare their payloads in parallel). A
    /// mismatch throws an error naming its path, and nothing is written. Publish the result with
    /// ``publish(_:fetched:updater:replacing:silencing:received:)``; ``PreparedPayload/data`` is the data
    /// in the store's shape (record IDs filled in where `__id` is selected).
    public func prepare(
        data: JSONObject, for descriptor: OperationDescriptor, errors: [GraphQLError] = []
    ) throws(SelectionSetDecodingError) -> PreparedPayload {
        let descriptor = storageDescriptor(descriptor)
        return PreparedPayload(
            payload: try PayloadApplier.execute(
                data: data, descriptor: descriptor, errors: errors, cacheKeys: cacheKeys(for: descriptor), checks: .response))
    }

    /// Reads a server's whole JSON response body and prepares its `data` as
    /// ``prepare(data:for:errors:)`` does, in one walk over the bytes where the response is
    /// regular (see `ResponseBytesExecutor`). Throws a `JSONParseError` for a body that is not a
    /// JSON object.
    package func prepare(responseBody bytes: UnsafeRawBufferPointer, for descriptor: OperationDescriptor) throws
        -> PreparedResponse
    {
        let stored = storageDescriptor(descriptor)
        let body = try ResponseBytesExecutor.execute(body: bytes, descriptor: stored, cacheKeys: cacheKeys(for: stored))
        return PreparedResponse(
            body: body.body, payload: body.payload.map { $0.map(PreparedPayload.init(payload:)) },
            readFromBytes: body.readFromBytes,
            descriptor: descriptor)
    }

    /// Checks and normalizes the deferred parts one part of an incremental response added, each
    /// at its path only (never the whole body again); `data` is the response merged so far.
    /// `nil` when a path does not lead to an object of the selections: prepare the whole `data`
    /// then. The result's ``PreparedPayload/data`` is `data` as it is (it does not fill `__id`).
    public func prepare(
        patches: [(path: ResponsePath, data: JSONObject)], in data: JSONObject, for descriptor: OperationDescriptor,
        errors: [GraphQLError] = []
    ) throws(SelectionSetDecodingError) -> PreparedPayload? {
        let descriptor = storageDescriptor(descriptor)
        let cacheKeys = cacheKeys(for: descriptor)
        guard
            let (records, handles) = try ResponseExecutor.execute(
                patches: patches.map { ($0.path.components, $0.data) }, in: data, selections: descriptor.selections,
                rootID: descriptor.rootID, rootType: descriptor.rootType, variables: descriptor.variables, cacheKeys: cacheKeys,
                errors: errors)
        else { return nil }
        return PreparedPayload(
            payload: NormalizedPayload(
                shapedData: data, descriptor: descriptor, cacheKeys: cacheKeys, records: records, handles: handles))
    }

    /// Publishes a prepared payload: its directive handlers (`@connection`, mutation directives)
    /// run, then `updater`, in one commit. `replacing` and `silencing` are as for
    /// ``publish(data:for:errors:fetched:updater:replacing:silencing:received:)``.
    @discardableResult
    public func publish(
        _ prepared: consuming PreparedPayload, fetched: Bool = false,
        updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)? = nil, replacing optimistic: OptimisticUpdate? = nil,
        silencing subscription: StoreSubscription? = nil, received: ResponseAge? = nil
    ) -> Set<DataID> {
        // Taken over: when the caller keeps no copy of the payload, the commit holds the only
        // reference to its records (see `NormalizedPayload.takeRecords()`).
        var payload = prepared.payload
        _ = consume prepared
        return commit(
            fetched: fetched ? payload.descriptor : nil, removing: optimistic, silencing: subscription?.id,
            dating: fieldDate(for: payload.descriptor, received)
        ) { state in
            PayloadApplier.apply(taking: &payload, lookup: state.baseLookup, updater: updater)
        }
    }

    /// Edits records through proxies (Relay's `commitUpdate`), then publishes the edits. The
    /// closure runs while the store is locked: use only the proxy inside it.
    @discardableResult
    public func update<T>(_ body: (RecordSourceProxy) throws -> T) rethrows -> T {
        var result: T?
        try commit { state in
            let proxy = RecordSourceProxy(base: state.baseLookup, cacheKeys: self.cacheKeys ?? .default)
            result = try body(proxy)
            return StoreChanges(records: proxy.changes, invalidations: proxy.invalidations)
        }
        return result!
    }

    /// Applies an optimistic update on top of the store: the optimistic response (normalized,
    /// with its directive handlers) and then `updater`. It stays, applied again over every later
    /// server write, until it is replaced by its server payload or reverted. Optimistic data is
    /// never written to the persistent cache.
    public func applyOptimisticUpdate(
        data: JSONObject?, for descriptor: OperationDescriptor,
        updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)? = nil
    ) -> OptimisticUpdate {
        let descriptor = storageDescriptor(descriptor)
        // Normalized once, before the lock; a rebase runs only the handlers and the updater again.
        let payload = PayloadApplier.normalize(
            data: data ?? [:], descriptor: descriptor, errors: [], cacheKeys: cacheKeys(for: descriptor), normalize: data != nil)
        return applyOptimistic(payload, updater: updater)
    }

    /// Applies an optimistic response as relay-runtime takes one: checked against `descriptor`'s
    /// selections, where values that are there must have their selected type but any field may
    /// be left out (it is not written: the record keeps its value) and a concrete type needs no
    /// `__typename`. A value of the wrong type throws an error naming its path, and nothing is
    /// applied. Then as ``applyOptimisticUpdate(data:for:updater:)``.
    public func applyOptimisticResponse(
        _ data: JSONObject, for descriptor: OperationDescriptor,
        updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)? = nil
    ) throws(SelectionSetDecodingError) -> OptimisticUpdate {
        let descriptor = storageDescriptor(descriptor)
        let payload = try PayloadApplier.execute(
            data: data, descriptor: descriptor, errors: [], cacheKeys: cacheKeys(for: descriptor), checks: .optimistic)
        return applyOptimistic(payload, updater: updater)
    }

    private func applyOptimistic(
        _ payload: NormalizedPayload, updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)?
    ) -> OptimisticUpdate {
        let recipe: @Sendable (@escaping Reader.Lookup) -> StoreChanges = { lookup in
            PayloadApplier.apply(payload, lookup: lookup, updater: updater)
        }
        var id = 0
        commit(adding: recipe, addedLayer: &id) { _ in StoreChanges(records: RecordSource()) }
        return OptimisticUpdate(id: id)
    }

    /// Removes an optimistic update; the others are applied again in order.
    public func revertOptimisticUpdate(_ update: OptimisticUpdate) {
        commit(removing: update) { _ in StoreChanges(records: RecordSource()) }
    }

    /// How many optimistic updates are applied.
    public var optimisticUpdateCount: Int { state.withLock { $0.optimistic.count } }

    /// The single write path, for server payloads, updaters, direct writes, invalidation,
    /// `clear()` and garbage collection: computes the changes against the base records (the
    /// optimistic overlay dropped), applies them, queues them for the persistent cache's writer
    /// (which writes them in commit order, off the lock), rebases the optimistic updates, and
    /// records what changed for the watchers while the lock is held; the watchers re-read and
    /// are notified after it (``notifyWatchers()``).
    ///
    /// Optimistic updates go through it too: `removing` takes a layer away (its server payload
    /// is `compute`'s, or there is none: a revert), `adding` puts a new layer on top, computed
    /// over everything below it, and sets `addedLayer` to its ID.
    @discardableResult
    func commit(
        fetched: OperationDescriptor? = nil, removing optimistic: OptimisticUpdate? = nil, silencing: Int? = nil,
        dating: FieldDate? = nil, _ compute: (inout StoreState) throws -> StoreChanges
    ) rethrows -> Set<DataID> {
        var unused = 0
        return try commit(
            fetched: fetched, removing: optimistic, adding: nil, addedLayer: &unused, silencing: silencing, dating: dating,
            compute)
    }

    /// The date a server response's fields get, when anything will measure it: the operation's
    /// schema or the store's configuration gives max ages, or the response expires.
    func fieldDate(for descriptor: OperationDescriptor, _ received: ResponseAge?) -> FieldDate? {
        guard let received else { return nil }
        guard received.maxAge != nil || freshness.rules(for: descriptor.cacheDirectives) != nil else { return nil }
        let now = clock.now.timeIntervalSince1970
        return FieldDate(receivedAt: now, expiresAt: received.maxAge.map { now + $0.seconds })
    }

    @discardableResult
    func commit(
        fetched: OperationDescriptor? = nil, removing optimistic: OptimisticUpdate? = nil,
        adding recipe: (@Sendable (@escaping Reader.Lookup) -> StoreChanges)?, addedLayer: inout Int, silencing: Int? = nil,
        dating: FieldDate? = nil, _ compute: (inout StoreState) throws -> StoreChanges
    ) rethrows -> Set<DataID> {
        let now = ContinuousClock.now
        let date = Date()
        // What the commit replaced or consumed: freed after the lock (see `RecordSource.apply`).
        var displaced = DisplacedRecords()
        var consumed = RecordSource()
        let (changed, collect, layerID) = try state.withLock { state -> (Set<DataID>, Bool, Int) in
            // What other writers of a shared cache committed comes first: this commit merges
            // over their records, not over stale copies.
            takeInChangesByOthers(&state)
            state.epoch += 1
            let removedLayer = optimistic.flatMap { state.optimistic.remove($0.id) }
            var changes = try compute(&state)
            var changed = Set<DataID>()
            var batch = CacheBatch(epoch: state.epoch)
            // `nil`: every root field (the root record was replaced).
            var rootFields: Set<String>? = []
            var clearsCache = false
            if changes.clearsAll {
                changed = Set(state.source.ids)
                state.source = RecordSource(records: [Record(id: .rootID, typename: "__Root")])
                state.roots.removeAll()
                state.releaseBuffer.removeAll()
                state.invalidatedAt.removeAll()
                state.storeInvalidatedAt = nil
                state.fetches.removeAll()
                state.droppedFetches.removeAll()
                state.droppedFetchEpochs.removeAll()
                rootFields = nil
                clearsCache = persists
            }
            for id in changes.evictions where state.source.state(of: id) != nil {
                if persists {
                    // Garbage collection frees memory only: the cache keeps the record.
                    state.memory.forget(id)
                } else {
                    state.source.remove(id)
                    state.invalidatedAt[id] = nil
                    changed.insert(id)
                }
            }
            for key in state.droppedFetches where state.roots[key] == nil { batch.fetches[key] = .some(nil) }
            state.droppedFetches.removeAll()
            // Handed over, not shared, so that a large change set's table can be taken over as it is.
            var records = changes.records
            changes.records = RecordSource()
            // Fields merge over the whole record, so the cache's copy of each one comes first.
            if persists && !clearsCache { state.memory.load(records.ids) }
            // The edits themselves, for a cache that others write too (merged over their copies).
            if writer != nil {
                if records.count > state.source.count {
                    // The change set will be taken over as the store's table (see
                    // `RecordSource.apply`): the batch gets the short form, so that it does not
                    // share that table (which would make taking it over a copy of every record).
                    let source = state.source
                    var held = RecordSource()
                    for id in source.ids { if let edit = records.state(of: id) { held.replace(id, with: edit) } }
                    batch.changes = held
                    batch.recordsNotEdited = changes.invalidations.records.filter { !records.contains($0) }
                } else {
                    batch.changes = records
                }
            }
            if let dating {
                // Server data: every field written gets the response's date, over the record's other ages.
                let base = state.source
                FieldAges.stamp(
                    &records, base: { base.state(of: $0) }, receivedAt: dating.receivedAt, expiresAt: dating.expiresAt)
                if var edits = batch.changes {
                    // The edits carry the dates of the fields they write, and only those: merged
                    // over another writer's copy, its dates for the other fields stay.
                    FieldAges.stamp(&edits, base: { _ in nil }, receivedAt: dating.receivedAt, expiresAt: dating.expiresAt)
                    batch.changes = edits
                }
                state.mayHoldAges = true
            }
            var changedRootFields = Set<String>()
            let applied = state.source.apply(&records, changedRootFields: &changedRootFields, displaced: &displaced)
            swap(&consumed, &records)
            // Most commits changed nothing before this: the applied set is taken as it is (a
            // union into an empty set inserts every ID again: half of a first receive's commit).
            if changed.isEmpty { changed = applied } else { changed.formUnion(applied) }
            rootFields?.formUnion(changedRootFields)
            if changes.invalidations.store {
                state.storeInvalidatedAt = state.epoch
                batch.invalidatesStore = true
            }
            for id in changes.invalidations.records {
                state.invalidatedAt[id] = state.epoch
                batch.invalidatedRecords.insert(id)
                changed.insert(id)
            }
            if let fetched {
                if state.roots[fetched.rootKey] == nil { state.roots[fetched.rootKey] = RootState(descriptor: fetched) }
                let fetch = FetchState(epoch: state.epoch, time: now, date: date)
                state.fetches[fetched.rootKey] = fetch
                batch.fetches[fetched.rootKey] = fetch.persisted
            }
            if let writer {
                if clearsCache {
                    state.memory.willClear()
                    writer.enqueueClear()
                }
                // What memory holds of each changed ID. An invalidated record that is not in
                // memory is only marked: its stored copy stays.
                if applied.count == state.source.count {
                    // The commit wrote every record memory holds (a first response into an empty
                    // store): the batch shares memory's table instead of copying it. (Every ID
                    // applied is in the table, so the counts being equal makes them the same IDs.)
                    batch.wholeTable = state.source.states
                } else {
                    // Scoped: the copy of the table must be gone before memory changes again.
                    let (written, source) = (clearsCache ? applied : changed, state.source)
                    batch.records.reserveCapacity(written.count)
                    for id in written {
                        if let record = source.state(of: id) { batch.records[id] = record }
                    }
                }
                if batch.changesData {
                    // Reads since the last write go with the next one that writes something (an
                    // optimistic commit writes nothing and must not drop them).
                    batch.readIDs = state.memory.takeReadSinceWrite()
                    state.memory.willWrite(batch)
                    writer.enqueue(batch)
                }
            }
            var layerID = -1
            if state.optimistic.isEmpty && removedLayer == nil && recipe == nil {
                state.noteChange(of: changed, changedRootFields: rootFields, silencing: silencing, in: notifications)
            } else {
                var touched: (ids: Set<DataID>, rootFields: Set<String>) = ([], [])
                if !state.optimistic.isEmpty || removedLayer != nil {
                    touched = state.optimistic.rebase(changedBase: changed, removed: removedLayer, baseLookup: state.baseLookup)
                }
                if let recipe {
                    // The new layer goes on top of the others, computed over all of them.
                    layerID = state.optimistic.nextLayerID
                    state.optimistic.nextLayerID += 1
                    let changes = recipe(state.lookup)
                    state.optimistic.add(OptimisticLayer(id: layerID, recipe: recipe, changes: changes))
                    touched.ids.formUnion(changes.records.ids)
                    if let root = changes.records[.rootID] { touched.rootFields.formUnion(root.fields.keys) }
                }
                state.noteChange(
                    of: changed.union(touched.ids), changedRootFields: rootFields?.union(touched.rootFields),
                    silencing: silencing,
                    in: notifications)
            }
            state.trimMemory()
            return (changed, removedLayer != nil && state.optimistic.isEmpty && state.garbageCollectionPending, layerID)
        }
        withExtendedLifetime((displaced, consumed)) {}
        addedLayer = layerID
        notifyWatchers()
        if collect { collectGarbage() }
        return changed
    }

    /// Has the watchers re-read what the commits so far changed, and calls those whose data
    /// changed, in commit order, with the lock released (see ``NotificationQueue``). The
    /// re-reads run without the lock too, over the records in memory as they were when the
    /// drain took the changes: re-reading watchers never holds up a publisher. (With a
    /// persistent cache, a re-read that needs a record memory let go is made again under the
    /// lock, where it is loaded; what watchers read stays in memory, so this is rare.)
    private func notifyWatchers() {
        notifications.drain { [state, notifications] in
            let planned = state.withLock { $0.planRereads(from: notifications) }
            guard !planned.reads.isEmpty else { return [] }
            var results: [(id: Int, result: ReadResult)] = []
            results.reserveCapacity(planned.reads.count)
            for read in planned.reads {
                results.append((read.id, StoreState.run(read, lookup: planned.lookup)))
                if planned.misses.any { break }
            }
            return state.withLock { $0.take(results, of: planned) }
        }
    }

    /// Makes the next ``check(_:)`` of any operation that read this record report it stale.
    public func invalidateRecord(_ id: DataID) {
        publish(RecordSource(), invalidating: Invalidations(records: [id]))
    }

    /// Makes the next ``check(_:)`` of every operation report it stale.
    public func invalidateStore() {
        publish(RecordSource(), invalidating: Invalidations(store: true))
    }

    /// Removes every record, retained root, fetch time and invalidation mark, in memory and in the cache,
    /// through the one commit path: pending optimistic updates are applied again over the empty
    /// store, and watchers see their data go missing.
    public func clear() {
        commit { _ in StoreChanges(records: RecordSource(), clearsAll: true) }
    }

    // MARK: Watching

    /// Calls `onChange` with a new read each time a record that the last read saw changes and
    /// the data it reads is different. `onChange` is called after the store's lock is released,
    /// in commit order (it may read and write the store). Returns the initial read and the
    /// subscription; cancel it to stop.
    public func subscribe(
        _ descriptor: OperationDescriptor, onChange: @escaping @Sendable (ReadResult) -> Void
    ) -> (initial: ReadResult, subscription: StoreSubscription) {
        let descriptor = storageDescriptor(descriptor)
        let cancelled = OnceFlag()
        return withCurrentState { state in
            let initial = state.read(descriptor)
            let id = state.subscriptions.add(
                Watcher(
                    descriptor: descriptor, last: initial, readVersion: state.changeVersion, cancelled: cancelled,
                    onChange: onChange))
            return (initial, StoreSubscription(store: self, id: id, cancelled: cancelled))
        }
    }

    func removeWatcher(_ id: Int) {
        state.withLock { $0.subscriptions.remove(id) }
    }

    /// How many watchers are registered.
    public var watcherCount: Int { state.withLock { $0.subscriptions.count } }
}

/// A handle to an applied optimistic update.
public struct OptimisticUpdate: Sendable, Hashable {
    let id: Int
}

/// A watcher's registration; cancel it to stop being notified.
public final class StoreSubscription: Sendable {
    private weak let store: Store?
    let id: Int
    private let cancelled: OnceFlag

    init(store: Store, id: Int, cancelled: OnceFlag) {
        self.store = store
        self.id = id
        self.cancelled = cancelled
    }

    public func cancel() {
        if cancelled.setFirstTime() { store?.removeWatcher(id) }
    }

    deinit { cancel() }
}

extension Store {
    /// Reads `data` as the store would after publishing it for `descriptor` into an empty store
    /// (directive handlers and `@connection` included, record IDs filled in for `__id`), without
    /// touching this store: the store's shape for a response that is not written to it.
    public func readDetached(data: JSONObject, for descriptor: OperationDescriptor, errors: [GraphQLError] = []) -> ReadResult {
        let descriptor = storageDescriptor(descriptor)
        var base = RecordSource()
        base.set(Record(id: .rootID, typename: "__Root"))
        let empty = base
        let changes = PayloadApplier.apply(
            data: data, descriptor: descriptor, errors: errors, cacheKeys: cacheKeys(for: descriptor),
            lookup: { empty.state(of: $0) }, updater: nil)
        base.apply(changes.records)
        let source = base
        return Reader.read(
            selections: descriptor.selections, rootID: descriptor.rootID, rootType: descriptor.rootType,
            variables: descriptor.variables, source: source)
    }
}
