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
        let overflowed = state.withLock { state -> Bool in
            guard var root = state.roots[key] else { return false }
            root.retainCount = max(0, root.retainCount - 1)
            state.roots[key] = root
            guard root.retainCount == 0 else { return false }
            state.releaseBuffer.removeAll { $0 == key }
            state.releaseBuffer.append(key)
            if state.releaseBuffer.count > releaseBufferSize {
                let evicted = state.releaseBuffer.removeFirst()
                if state.roots[evicted]?.retainCount == 0 { state.roots[evicted] = nil }
                return true
            }
            return false
        }
        if overflowed { collectGarbage() }
    }

    /// Removes every record that no retained or buffered root reaches (through the fields its
    /// selections read), in memory and in the cache. The root record always stays, and while
    /// watchers are registered their records stay too. Returns the removed IDs.
    @discardableResult
    public func collectGarbage() -> Set<DataID> {
        let removed: Set<DataID> = state.withLock { state in
            var reachable: Set<DataID> = [.rootID]
            for root in state.roots.values where root.retainCount > 0 || state.releaseBuffer.contains(root.descriptor.rootKey) {
                reachable.formUnion(state.read(root.descriptor).seenIDs)
            }
            for watcher in state.watchers.values { reachable.formUnion(watcher.last.seenIDs) }
            var removed = Set<DataID>()
            for id in Array(state.source.ids) where !reachable.contains(id) {
                state.source.remove(id)
                state.invalidatedAt[id] = nil
                removed.insert(id)
            }
            return removed
        }
        persist(Dictionary(uniqueKeysWithValues: removed.map { ($0, RecordState?.none) }))
        return removed
    }

    /// How many query roots are retained or in the release buffer.
    public var retainedRootCount: Int {
        state.withLock { state in state.roots.values.filter { $0.retainCount > 0 }.count + state.releaseBuffer.count }
    }
}
