import BatonAPI

/// Keeps a query root's records from garbage collection until released.
public final class RetainToken: Sendable {
    private weak let store: Store?
    private let key: String
    private let released = OnceFlag()

    init(store: Store, key: String) {
        self.store = store
        self.key = key
    }

    /// Releases the root: it moves to the release buffer, and its records become collectable
    /// once it leaves the buffer. Releasing twice does nothing.
    public func release() {
        if released.setFirstTime() { store?.release(key) }
    }
}

extension Store {
    /// Retains the records `descriptor` reads, like Relay's `retain`: they survive garbage
    /// collection until the token is released and the release buffer lets go of them.
    public func retain(_ descriptor: OperationDescriptor) -> RetainToken {
        let descriptor = storageDescriptor(descriptor)
        let key = descriptor.rootKey
        state.withLock { state in
            state.roots[key, default: RootState(descriptor: descriptor)].retainCount += 1
            state.releaseBuffer.removeAll { $0 == key }
        }
        return RetainToken(store: self, key: key)
    }

    func release(_ key: String) {
        let now = ContinuousClock.now
        let collect = state.withLock { state -> Bool in
            guard var root = state.roots[key] else { return false }
            root.retainCount = max(0, root.retainCount - 1)
            state.roots[key] = root
            guard root.retainCount == 0 else { return false }
            state.releaseBuffer.removeAll { $0 == key }
            // Data that has already expired is not worth keeping: dropped at once, as Relay does.
            if let expiration = queryCacheExpirationTime, let fetched = state.fetches[key]?.time, now - fetched > expiration {
                state.dropRoot(key)
                return true
            }
            state.releaseBuffer.append(key)
            if state.releaseBuffer.count > releaseBufferSize {
                let evicted = state.releaseBuffer.removeFirst()
                if state.roots[evicted]?.retainCount == 0 { state.dropRoot(evicted) }
                return true
            }
            return false
        }
        if collect { collectGarbage() }
    }

    /// Removes every record that no retained or buffered root reaches (through the fields its
    /// selections read over the base records) and no watcher saw, through the one commit path:
    /// from memory, and, with an in-memory cache, for good. A persistent cache keeps them (its
    /// eviction policy decides what leaves it), and they are loaded again when read. The root record always stays. While optimistic updates are
    /// applied nothing is collected (Relay holds collection then): the collection runs when the
    /// last one is committed or reverted. Returns the removed IDs.
    @discardableResult
    public func collectGarbage() -> Set<DataID> {
        var removed = Set<DataID>()
        commit { state in
            guard state.optimistic.isEmpty else {
                state.garbageCollectionPending = true
                return StoreChanges(records: RecordSource())
            }
            state.garbageCollectionPending = false
            var reachable: Set<DataID> = [.rootID]
            for root in state.roots.values where root.retainCount > 0 || state.releaseBuffer.contains(root.descriptor.rootKey) {
                reachable.formUnion(state.readBase(root.descriptor).seenIDs)
            }
            reachable.formUnion(state.watchedIDs())
            for id in state.source.ids where !reachable.contains(id) { removed.insert(id) }
            return StoreChanges(records: RecordSource(), evictions: removed)
        }
        return removed
    }

    /// How many query roots are retained or in the release buffer.
    public var retainedRootCount: Int {
        state.withLock { state in state.roots.values.filter { $0.retainCount > 0 }.count + state.releaseBuffer.count }
    }
}

extension StoreState {
    /// Forgets a root that is neither retained nor buffered, and when it was fetched (here and,
    /// with the next commit, in the cache), as Relay forgets a disposed root's fetch time.
    mutating func dropRoot(_ key: String) {
        roots[key] = nil
        if fetches.removeValue(forKey: key) != nil {
            droppedFetches.insert(key)
            droppedFetchEpochs[key] = epoch
        }
    }
}
