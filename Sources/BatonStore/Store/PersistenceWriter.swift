import BatonAPI
import Dispatch
import Foundation

/// Writes the store's commits to its persistent cache behind the committing caller: one ordered
/// writer on a thread of its own, so a slow, full or failing disk never holds the store's lock,
/// a reader, a watcher or another publisher.
///
/// Commits reach the cache in commit order and whole: each is one atomic `write` of the cache,
/// or, when the writer has fallen behind, several consecutive commits in one atomic `write` (a
/// crash leaves every commit on disk whole or not at all; the queue never grows without bound
/// while the disk is slow). A commit that invalidates records ends such a group, so each
/// invalidation keeps its own epoch. A commit that changes nothing but fetch times (an unchanged
/// refetch) is not written on its own: it goes with the next write, or when the store waits for
/// its writes (``Store/waitUntilPersisted()``) or goes away; a crash in between only makes that
/// data look older, never newer. Until a record's write is done the store keeps it in memory
/// (see `WorkingSet`), so a read never finds the cache's older copy.
final class PersistenceWriter: Sendable {
    /// What the writer does, in order.
    private enum Step {
        case write(CacheBatch)
        case clear
    }

    /// What the store learns after each step, on the writer's thread.
    enum Outcome {
        /// These commits' records were written (or, when `error` is set, were not).
        case wrote(commits: [[DataID]], error: (any Error)?)
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
    }

    private let cache: any NormalizedCache
    private let queue = Locked(Queue())
    private let condition = NSCondition()
    private let dispatch = DispatchQueue(label: "baton.store.persistence")
    private let report: @Sendable (Outcome) -> Void

    init(cache: any NormalizedCache, report: @escaping @Sendable (Outcome) -> Void) {
        self.cache = cache
        self.report = report
    }

    /// Queues a commit's batch (call in commit order, under the store's lock).
    func enqueue(_ batch: CacheBatch) {
        let onlyFetches = batch.records.isEmpty && batch.invalidatedRecords.isEmpty && !batch.invalidatesStore
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
            queue.steps.append(.write(batch))
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

    /// Blocks until every step queued so far, deferred fetch times included, has been written
    /// (or has failed).
    func waitUntilIdle() {
        let target = queue.withLock { queue -> Int in
            if let deferred = queue.deferred {
                queue.deferred = nil
                queue.steps.append(.write(deferred))
                queue.enqueued += 1
                startIfIdle(&queue)
            }
            return queue.enqueued
        }
        condition.lock()
        while queue.withLock({ $0.finished }) < target { condition.wait() }
        condition.unlock()
    }

    private func startIfIdle(_ queue: inout Queue) {
        guard !queue.running, !queue.steps.isEmpty else { return }
        queue.running = true
        dispatch.async { self.run() }
    }

    /// Runs steps until none is left: a clear alone, consecutive writes as one.
    private func run() {
        while true {
            let next = queue.withLock { queue -> (Step, commits: [[DataID]], count: Int)? in
                guard !queue.steps.isEmpty else {
                    queue.running = false
                    return nil
                }
                guard case .write(var batch) = queue.steps[0] else {
                    queue.steps.removeFirst()
                    return (.clear, [], 1)
                }
                var commits = [Array(batch.records.keys)]
                var count = 1
                while count < queue.steps.count, !Self.endsGroup(batch), case .write(let later) = queue.steps[count] {
                    batch = Self.merge(batch, later)
                    commits.append(Array(later.records.keys))
                    count += 1
                }
                queue.steps.removeFirst(count)
                return (.write(batch), commits, count)
            }
            guard let (step, commits, count) = next else { return }
            switch step {
            case .clear:
                var failure: (any Error)?
                do { try cache.clear() } catch { failure = error }
                report(.cleared(error: failure))
            case .write(let batch):
                var failure: (any Error)?
                do { try cache.write(batch) } catch { failure = error }
                report(.wrote(commits: commits, error: failure))
            }
            queue.withLock { $0.finished += count }
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
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
        return merged
    }
}
