import BatonAPI
import Dispatch
import Foundation

/// Writes the store's commits to its persistent cache behind the committing caller: one ordered
/// writer on a thread of its own, so a slow, full or failing disk never holds the store's lock,
/// a reader, a watcher or another publisher.
///
/// Commits reach the cache in commit order and whole: each is one batch of the cache's
/// `write(_:)`, and the commits that waited while the last write ran go together in one call
/// (SQLite writes them in one transaction, each with its own batch number). Only when more than
/// ``maxQueuedWrites`` commits wait (a disk stalled for long) are the oldest merged into one, so
/// the queue stays bounded; a commit that invalidates records is never merged with a later one,
/// so its marks keep its epoch. A commit that changes nothing but fetch times (an unchanged
/// refetch) is not written on its own: it goes with the next write, or when the store waits for
/// its writes (``Store/waitUntilPersisted()``) or goes away; a crash in between only makes that
/// data look older, never newer. Until a record's write is done the store keeps it in memory
/// (see `WorkingSet`), so a read never finds the cache's older copy.
final class PersistenceWriter: Sendable {
    /// What the writer does, in order.
    private enum Step {
        /// A write's batch, and the batch of each commit in it (several once merged): the
        /// records those write are what the store learns was written, read from the batches
        /// only then, on the writer's thread (not listed by the committing caller).
        case write(CacheBatch, commits: [CacheBatch])
        case clear
        /// The cache's eviction policy, asked for when the store opens.
        case evict
    }

    /// What the store learns after each step, on the writer's thread.
    enum Outcome {
        /// These commits' records were written (or, when `error` is set, were not).
        case wrote(commits: [CacheBatch], error: (any Error)?)
        /// The cache was cleared (or not, when `error` is set).
        case cleared(error: (any Error)?)
    }

    private struct Queue {
        var steps: [Step] = []
        /// Fetch-time-only commits waiting for the next write.
        var deferred: CacheBatch?
        var running = false
        /// Steps enqueued and steps finished, to wait for.
        var enqueued = 0
        var finished = 0
        /// Set when the store goes: the cache is let go once the last step is done.
        var cache: (any NormalizedCache)?
    }

    /// The most commits that wait before the oldest are merged.
    static let maxQueuedWrites = 1_024

    private let queue: Locked<Queue>
    private let condition = NSCondition()
    private let dispatch = DispatchQueue(label: "baton.store.persistence")
    private let report: @Sendable (Outcome) -> Void
    /// The records eviction must leave (what retained queries and watchers read), computed by
    /// the store when the cache's policy has work to do.
    private let keep: @Sendable () -> Set<DataID>

    init(
        cache: any NormalizedCache, keep: @escaping @Sendable () -> Set<DataID> = { [] },
        report: @escaping @Sendable (Outcome) -> Void
    ) {
        queue = Locked(Queue(cache: cache))
        self.keep = keep
        self.report = report
    }

    /// Queues a write of reading times alone (many records were read and no commit came to
    /// carry them): least-recently-used eviction learns of reads in batches, behind the readers.
    func enqueueReads(_ batch: CacheBatch) {
        queue.withLock { queue in
            queue.steps.append(.write(batch, commits: [batch]))
            queue.enqueued += 1
            startIfIdle(&queue)
        }
    }

    /// Queues a run of the cache's eviction policy (when the store opens: a file over its
    /// bound is trimmed on the writer's thread, not the caller's).
    func enqueueEviction() {
        queue.withLock { queue in
            queue.steps.append(.evict)
            queue.enqueued += 1
            startIfIdle(&queue)
        }
    }
    /// Queues a commit's batch (call in commit order, under the store's lock).
    func enqueue(_ batch: CacheBatch) {
        let onlyFetches = batch.recordCount == 0 && batch.invalidatedRecords.isEmpty && !batch.invalidatesStore
        queue.withLock { queue in
            if onlyFetches {
                queue.deferred = queue.deferred.map { Self.merge($0, batch) } ?? batch
                return
            }
            var batch = batch
            if let deferred = queue.deferred {
                batch = Self.merge(deferred, batch)
                queue.deferred = nil
            }
            if queue.steps.count >= Self.maxQueuedWrites, case .write(let oldest, let oldestCommits)? = queue.steps.first,
                case .write(let next, let nextCommits) = queue.steps[1], !Self.endsGroup(oldest)
            {
                // The disk has stalled: the two oldest commits become one write.
                queue.steps[0] = .write(Self.merge(oldest, next), commits: oldestCommits + nextCommits)
                queue.steps.remove(at: 1)
                // Two steps are now one: the one merged away counts as done.
                queue.finished += 1
            }
            queue.steps.append(.write(batch, commits: [batch]))
            queue.enqueued += 1
            startIfIdle(&queue)
        }
    }

    /// Queues emptying the cache (`clear()`); fetch times deferred before it are dropped with it.
    func enqueueClear() {
        queue.withLock { queue in
            queue.deferred = nil
            queue.steps.append(.clear)
            queue.enqueued += 1
            startIfIdle(&queue)
        }
    }

    /// Blocks until every step queued so far, deferred fetch times included unless
    /// `flushingDeferred` is false, has been written (or has failed).
    func waitUntilIdle(flushingDeferred: Bool = true) {
        let target = queue.withLock { queue -> Int in
            if flushingDeferred, let deferred = queue.deferred {
                queue.deferred = nil
                queue.steps.append(.write(deferred, commits: [deferred]))
                queue.enqueued += 1
                startIfIdle(&queue)
            }
            return queue.enqueued
        }
        condition.lock()
        while queue.withLock({ $0.finished }) < target { condition.wait() }
        condition.unlock()
    }

    /// Waits for every step, then lets the cache go (the store is going away), so the cache
    /// closes when the store does.
    func close() {
        waitUntilIdle()
        queue.withLock { $0.cache = nil }
    }

    private func startIfIdle(_ queue: inout Queue) {
        guard !queue.running, !queue.steps.isEmpty else { return }
        queue.running = true
        dispatch.async { self.run() }
    }

    /// Runs steps until none is left: a clear alone, the writes waiting together.
    private func run() {
        while let count = runNext() {
            queue.withLock { $0.finished += count }
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Runs the next step (all the writes queued in a row, as one call) and returns how many
    /// steps it took, or `nil` when none is left.
    private func runNext() -> Int? {
        let next = queue.withLock { queue -> (clear: Bool, batches: [CacheBatch], commits: [CacheBatch], cache: (any NormalizedCache)?)? in
            guard !queue.steps.isEmpty else {
                queue.running = false
                return nil
            }
            if case .evict = queue.steps[0] {
                queue.steps.removeFirst()
                return (false, [], [], queue.cache)
            }
            guard case .write = queue.steps[0] else {
                queue.steps.removeFirst()
                return (true, [], [], queue.cache)
            }
            var batches: [CacheBatch] = []
            var commits: [CacheBatch] = []
            while case .write(let batch, let ids)? = queue.steps.first {
                batches.append(batch)
                commits += ids
                queue.steps.removeFirst()
            }
            return (false, batches, commits, queue.cache)
        }
        guard let next else { return nil }
        var failure: (any Error)?
        if next.clear {
            do { try next.cache?.clear() } catch { failure = error }
            report(.cleared(error: failure))
            return 1
        }
        if next.batches.isEmpty {
            evictIfNeeded(next.cache)
            return 1
        }
        do { try next.cache?.write(next.batches) } catch { failure = error }
        report(.wrote(commits: next.commits, error: failure))
        evictIfNeeded(next.cache)
        return next.batches.count
    }

    /// Runs the cache's eviction policy when it has work to do, keeping what the store needs.
    /// A failure is reported as a write's would be (memory is not affected).
    private func evictIfNeeded(_ cache: (any NormalizedCache)?) {
        guard let cache, cache.needsEviction else { return }
        // Records used from now on are newer than the set the store computes: never evicted.
        let started = Date()
        let keeping = keep()
        do { try cache.evict(keeping: keeping, usedBefore: started) } catch { report(.wrote(commits: [], error: error)) }
    }

    /// Whether nothing may be merged after `batch`: its invalidations are dated by its epoch.
    private static func endsGroup(_ batch: CacheBatch) -> Bool {
        batch.invalidatesStore || !batch.invalidatedRecords.isEmpty
    }

    /// `later` written over `earlier`, as one commit.
    private static func merge(_ earlier: CacheBatch, _ later: CacheBatch) -> CacheBatch {
        var merged = earlier
        merged.records.merge(later.records) { _, new in new }
        merged.fetches.merge(later.fetches) { _, new in new }
        merged.invalidatedRecords.formUnion(later.invalidatedRecords)
        merged.invalidatesStore = merged.invalidatesStore || later.invalidatesStore
        merged.epoch = max(merged.epoch, later.epoch)
        merged.readIDs.formUnion(later.readIDs)
        if var edits = earlier.allEdits(), let laterEdits = later.allEdits() {
            edits.apply(laterEdits)
            merged.changes = edits
        } else {
            // One side's edits are unknown: its records count as edits, whole.
            merged.changes = nil
        }
        merged.recordsNotEdited = nil
        return merged
    }
}
