import BatonAPI
import Foundation

/// The normalized store: every record once, one publish path for every write, watchers that
/// re-read when a record they saw changes, retention and garbage collection, invalidation, and a
/// persistent ``NormalizedCache`` written through on every publish.
public final class Store: Sendable {
    public let cacheKeys: CacheKeyConfiguration
    public let cache: any NormalizedCache
    /// How many released query roots stay retained, most recent first (Relay's release buffer).
    public let releaseBufferSize: Int
    /// Data fetched longer ago than this is stale for ``check(_:)``; `nil` never expires.
    public let queryCacheExpirationTime: Duration?
    /// Variables whose values never become part of a storage key as they are (see ``storageDescriptor(_:)``).
    public let sensitiveData: SensitiveData
    /// Mixed into the stand-ins of sensitive values; never stored, so they differ in every run.
    private let redactionSalt: (UInt64, UInt64)

    let state: Locked<StoreState>
    /// Whether publishes are written through to `cache` (not for the in-memory default).
    private let persists: Bool
    private let persistenceErrors: Locked<[any Error]>

    /// A store over `cache` (in memory by default). Records already in the cache are loaded; a
    /// cache that cannot be read leaves the store empty and the error in ``persistenceErrors``.
    public init(
        cache: any NormalizedCache = InMemoryNormalizedCache(),
        cacheKeys: CacheKeyConfiguration = .default,
        releaseBufferSize: Int = 10,
        queryCacheExpirationTime: Duration? = nil,
        sensitiveData: SensitiveData = .default
    ) {
        self.cache = cache
        self.sensitiveData = sensitiveData
        var generator = SystemRandomNumberGenerator()
        redactionSalt = (generator.next(), generator.next())
        persists = !(cache is InMemoryNormalizedCache)
        self.cacheKeys = cacheKeys
        self.releaseBufferSize = releaseBufferSize
        self.queryCacheExpirationTime = queryCacheExpirationTime
        var loadError: (any Error)?
        var source = RecordSource()
        do {
            source = try cache.loadRecords()
        } catch {
            loadError = error
        }
        if source[.rootID] == nil { source.set(Record(id: .rootID, typename: "__Root")) }
        state = Locked(StoreState(source: source))
        persistenceErrors = Locked(loadError.map { [$0] } ?? [])
    }

    /// Errors the persistent cache reported (it is written after memory, so the store keeps
    /// working). Reading clears them.
    public func takePersistenceErrors() -> [any Error] {
        persistenceErrors.withLock { errors in
            defer { errors.removeAll() }
            return errors
        }
    }

    // MARK: Reading

    /// Reads an operation or fragment from the store.
    public func read(_ descriptor: OperationDescriptor) -> ReadResult {
        let descriptor = storageDescriptor(descriptor)
        return state.withLock { $0.read(descriptor) }
    }

    /// The state of one record: present, deleted, or `nil` when missing.
    public func recordState(of id: DataID) -> RecordState? {
        state.withLock { $0.source.state(of: id) }
    }

    /// A copy of every record, for inspection and tests.
    public func snapshot() -> RecordSource {
        state.withLock { $0.source }
    }

    /// Whether the store can answer `descriptor` without the network.
    public func check(_ descriptor: OperationDescriptor) -> OperationAvailability {
        let descriptor = storageDescriptor(descriptor)
        let now = ContinuousClock.now
        return state.withLock { state in
            let result = state.read(descriptor)
            if result.isMissing { return .missing }
            let root = state.roots[descriptor.rootKey]
            let fetchEpoch = root?.fetchEpoch ?? 0
            if let invalidated = state.storeInvalidatedAt, invalidated >= fetchEpoch { return .stale }
            for id in result.seenIDs {
                if let invalidated = state.invalidatedAt[id], invalidated >= fetchEpoch { return .stale }
            }
            if let expiration = queryCacheExpirationTime, let fetched = root?.fetchTime, now - fetched > expiration {
                return .stale
            }
            return .available
        }
    }

    /// `descriptor` as the store keys it: each sensitive variable's value replaced by a
    /// stand-in (`"<redacted:…>"`) made from the value with a salt that only this store instance
    /// knows. Distinct values keep distinct storage keys while it lives, yet no key that reaches
    /// the persistent cache holds a secret or a hash anyone could test guesses against. The
    /// price: fields keyed by a sensitive variable are not found again after a restart.
    public func storageDescriptor(_ descriptor: OperationDescriptor) -> OperationDescriptor {
        guard sensitiveData.hasSensitiveVariables, !descriptor.variables.isEmpty else { return descriptor }
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
            rootType: descriptor.rootType)
    }

    // MARK: Writing

    /// The one publish path: applies record changes, persists them, and notifies the watchers of
    /// changed records. `fetched` marks the operation whose server response this is (for ``check(_:)``).
    /// Returns the IDs whose records changed.
    @discardableResult
    public func publish(_ changes: RecordSource, invalidating invalidations: Invalidations = .init(), fetched: OperationDescriptor? = nil)
        -> Set<DataID>
    {
        commit(fetched: fetched.map(storageDescriptor)) { _ in StoreChanges(records: changes, invalidations: invalidations) }
    }

    /// Normalizes a response object for `descriptor` and publishes it: directive handlers
    /// (`@connection`, mutation directives) run on it, then `updater`. When the payload answers an
    /// optimistic update, pass it as `replacing`: in one step its layer goes, the payload is
    /// committed, the other optimistic updates are applied again in order, and watchers are told once.
    @discardableResult
    public func publish(
        data: JSONObject, for descriptor: OperationDescriptor, errorPaths: [ResponsePath] = [], fetched: Bool = false,
        updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)? = nil, replacing optimistic: OptimisticUpdate? = nil
    ) -> Set<DataID> {
        let cacheKeys = self.cacheKeys
        let descriptor = storageDescriptor(descriptor)
        return commit(fetched: fetched ? descriptor : nil, removing: optimistic) { lookup in
            PayloadApplier.apply(
                data: data, descriptor: descriptor, errorPaths: errorPaths, cacheKeys: cacheKeys, lookup: lookup, updater: updater)
        }
    }

    /// Edits records through proxies (Relay's `commitUpdate`), then publishes the edits. The
    /// closure runs while the store is locked: use only the proxy inside it.
    @discardableResult
    public func update<T>(_ body: (RecordSourceProxy) throws -> T) rethrows -> T {
        var result: T?
        try commit { lookup in
            let proxy = RecordSourceProxy(base: lookup, cacheKeys: self.cacheKeys)
            result = try body(proxy)
            return StoreChanges(records: proxy.changes, invalidations: proxy.invalidations)
        }
        return result!
    }

    /// Applies an optimistic update on top of the store: the optimistic response (normalized,
    /// with its directive handlers) and then `updater`. It stays, applied again over every later
    /// server write, until it is replaced by its server payload or reverted.
    public func applyOptimisticUpdate(
        data: JSONObject?, for descriptor: OperationDescriptor, updater: (@Sendable (RecordSourceProxy, JSONObject) -> Void)? = nil
    ) -> OptimisticUpdate {
        let cacheKeys = self.cacheKeys
        let descriptor = storageDescriptor(descriptor)
        let recipe: @Sendable (@escaping Reader.Lookup) -> StoreChanges = { lookup in
            PayloadApplier.apply(
                data: data ?? [:], descriptor: descriptor, errorPaths: [], cacheKeys: cacheKeys, lookup: lookup,
                updater: updater, normalize: data != nil)
        }
        let id = state.withLock { state -> Int in
            let id = state.nextLayerID
            state.nextLayerID += 1
            let changes = recipe(state.lookup)
            state.addLayer(OptimisticLayer(id: id, recipe: recipe, changes: changes))
            var rootFields = Set<String>()
            if let root = changes.records[.rootID] { rootFields.formUnion(root.fields.keys) }
            state.notifyWatchers(of: Set(changes.records.ids), changedRootFields: rootFields)
            return id
        }
        return OptimisticUpdate(id: id)
    }

    /// Removes an optimistic update; the others are applied again in order.
    public func revertOptimisticUpdate(_ update: OptimisticUpdate) {
        state.withLock { state in
            guard let removed = state.removeLayer(update.id) else { return }
            let touched = state.rebaseOverlay(changedBase: [], removed: removed)
            state.notifyWatchers(of: touched.ids, changedRootFields: touched.rootFields)
        }
    }

    /// How many optimistic updates are applied.
    public var optimisticUpdateCount: Int { state.withLock { $0.layers.count } }

    /// The single write path: computes the changes against the base records (the optimistic
    /// overlay dropped), applies and persists them, rebases the optimistic updates, and
    /// notifies each affected watcher once.
    @discardableResult
    func commit(
        fetched: OperationDescriptor? = nil, removing optimistic: OptimisticUpdate? = nil,
        _ compute: (@escaping Reader.Lookup) throws -> StoreChanges
    ) rethrows -> Set<DataID> {
        let now = ContinuousClock.now
        let (changed, toPersist): (Set<DataID>, [DataID: RecordState?]) = try state.withLock { state in
            state.epoch += 1
            let removedLayer = optimistic.flatMap { state.removeLayer($0.id) }
            var changes = try compute(state.baseLookup)
            // Handed over, not shared, so that a large change set's table can be taken over as it is.
            let records = changes.records
            changes.records = RecordSource()
            var rootFields = Set<String>()
            var changed = state.source.apply(records, changedRootFields: &rootFields)
            if changes.invalidations.store { state.storeInvalidatedAt = state.epoch }
            for id in changes.invalidations.records {
                state.invalidatedAt[id] = state.epoch
                changed.insert(id)
            }
            if let fetched {
                state.roots[fetched.rootKey, default: RootState(descriptor: fetched)].fetched(epoch: state.epoch, at: now)
            }
            var toPersist: [DataID: RecordState?] = [:]
            if persists {
                toPersist.reserveCapacity(changed.count)
                for id in changed { toPersist[id] = state.source.state(of: id) }
            }
            if state.layers.isEmpty && removedLayer == nil {
                state.notifyWatchers(of: changed, changedRootFields: rootFields)
            } else {
                let touched = state.rebaseOverlay(changedBase: changed, removed: removedLayer)
                state.notifyWatchers(of: changed.union(touched.ids), changedRootFields: rootFields.union(touched.rootFields))
            }
            return (changed, toPersist)
        }
        persist(toPersist)
        return changed
    }

    /// Makes the next ``check(_:)`` of any operation that read this record report it stale.
    public func invalidateRecord(_ id: DataID) {
        publish(RecordSource(), invalidating: Invalidations(records: [id]))
    }

    /// Makes the next ``check(_:)`` of every operation report it stale.
    public func invalidateStore() {
        publish(RecordSource(), invalidating: Invalidations(store: true))
    }

    /// Removes every record, in memory and in the cache. Watchers see their data go missing.
    public func clear() {
        state.withLock { state in
            let ids = Set(state.source.ids)
            state.source = RecordSource(records: [Record(id: .rootID, typename: "__Root")])
            state.roots.removeAll()
            state.releaseBuffer.removeAll()
            state.notifyWatchers(of: ids, changedRootFields: nil)
        }
        do {
            try cache.clear()
        } catch {
            persistenceErrors.withLock { $0.append(error) }
        }
    }

    func persist(_ changes: [DataID: RecordState?]) {
        guard !changes.isEmpty else { return }
        do {
            try cache.write(changes)
        } catch {
            persistenceErrors.withLock { $0.append(error) }
        }
    }

    // MARK: Watching

    /// Calls `onChange` with a new read each time a record that the last read saw changes and
    /// the data it reads is different. `onChange` runs while the store publishes: it must only
    /// hand the result on (yield it to a stream), not call back into the store.
    /// Returns the initial read and the subscription; cancel it to stop.
    public func subscribe(
        _ descriptor: OperationDescriptor, onChange: @escaping @Sendable (ReadResult) -> Void
    ) -> (initial: ReadResult, subscription: StoreSubscription) {
        let descriptor = storageDescriptor(descriptor)
        return state.withLock { state in
            let initial = state.read(descriptor)
            let id = state.addWatcher(Watcher(descriptor: descriptor, last: initial, onChange: onChange))
            return (initial, StoreSubscription(store: self, id: id))
        }
    }

    func removeWatcher(_ id: Int) {
        state.withLock { $0.removeWatcher(id) }
    }

    /// How many watchers are registered.
    public var watcherCount: Int { state.withLock { $0.watchers.count } }
}

/// A handle to an applied optimistic update.
public struct OptimisticUpdate: Sendable, Hashable {
    let id: Int
}

/// Invalidations carried by a publish.
public struct Invalidations: Sendable, Hashable {
    public var store: Bool
    public var records: Set<DataID>

    public init(store: Bool = false, records: Set<DataID> = []) {
        self.store = store
        self.records = records
    }
}

/// A watcher's registration; cancel it to stop being notified.
public final class StoreSubscription: Sendable {
    private weak let store: Store?
    private let id: Int
    private let cancelled = OnceFlag()

    init(store: Store, id: Int) {
        self.store = store
        self.id = id
    }

    public func cancel() {
        if cancelled.setFirstTime() { store?.removeWatcher(id) }
    }

    deinit { cancel() }
}
