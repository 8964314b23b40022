import BatonAPI
import BatonStore

/// The last response to each query request the client received whole over HTTP, kept with
/// what the client made of it, so that a refetch whose response repeats it byte for byte
/// skips what depends on the bytes alone: the parse, the executor's walk (check against the
/// selections, records, data in the store's shape) and the typed data.
///
/// Nothing that depends on the store is kept: the repeated response is still committed, with
/// the payload executed the first time, through the store's one commit path. So a refetch after
/// anything changed the records it wrote (a local write, another response, an optimistic
/// update, eviction, garbage collection, `clear()`, another process's commit) writes them back
/// and notifies as the first receive did; when nothing changed, the commit changes nothing and
/// notifies no one. Cache-Control (`no-store`, `max-age`), field ages, fetch times and
/// retention are the commit's, as for any response.
///
/// Bounded: the least recently used entries go when the kept bodies pass ``limit`` bytes (each
/// entry also holds the parsed tree and the executed payload, a few times its body's size);
/// a limit of 0 keeps nothing.
final class KeptResponses: Sendable {
    /// Which request a response answered: what, besides the bytes, the executor's output
    /// depends on (the operation's selections, through its type, and its variables; the
    /// store and its cache-key rule are the client's own).
    struct Key: Hashable, Sendable {
        let operation: ObjectIdentifier
        let variables: JSONObject
    }

    /// A response's body and what the receive made of it.
    struct Entry: Sendable {
        let body: ParsedResponseBody
        let outcome: any Sendable
    }

    private struct Slot {
        var entry: Entry
        var lastUse: UInt64
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
    }

    /// The most body bytes kept (0: none).
    let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The key of `operation`'s request, when its responses are kept (queries only: a
    /// mutation's or a subscription's response is not a refetch).
    func key<Operation: GraphQLOperation>(for operation: Operation) -> Key? {
        guard limit > 0, Operation.operationType == .query else { return nil }
        return Key(operation: ObjectIdentifier(Operation.self), variables: operation.variablesJSON)
    }

    /// The body kept for `key`, to hand the transport while the request is sent.
    func body(for key: Key) -> ParsedResponseBody? {
        state.withLock { $0.slots[key]?.entry.body }
    }

    /// What the receive made of `body` the last time, when `body` is the very body kept for
    /// `key` (the transport found the new response's bytes equal to it and handed it back).
    func outcome(for key: Key, body: ParsedResponseBody) -> (any Sendable)? {
        state.withLock { state in
            guard var slot = state.slots[key], slot.entry.body === body else { return nil }
            state.clock += 1
            slot.lastUse = state.clock
            state.slots[key] = slot
            state.hits += 1
            return slot.entry.outcome
        }
    }

    /// Keeps `body` and what the receive made of it as `key`'s last response, replacing the one
    /// before; the least recently used go when the bodies pass the limit.
    func keep(_ body: ParsedResponseBody, outcome: any Sendable, for key: Key) {
        let size = body.bytes.count
        guard size <= limit else {
            state.withLock { state in
                if let old = state.slots.removeValue(forKey: key) { state.bytes -= old.entry.body.bytes.count }
            }
            return
        }
        // Dropped entries are freed after the lock is released.
        var dropped: [Slot] = []
        state.withLock { state in
            state.clock += 1
            if let old = state.slots.updateValue(Slot(entry: Entry(body: body, outcome: outcome), lastUse: state.clock), forKey: key) {
                state.bytes -= old.entry.body.bytes.count
                dropped.append(old)
            }
            state.bytes += size
            guard state.bytes > limit else { return }
            // Down to three quarters of the limit at once, so that the sort is paid rarely.
            let target = limit - limit / 4
            for (oldKey, slot) in state.slots.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where state.bytes > target {
                guard oldKey != key else { continue }
                state.slots[oldKey] = nil
                state.bytes -= slot.entry.body.bytes.count
                dropped.append(slot)
            }
        }
        withExtendedLifetime(dropped) {}
    }

    /// How many responses were recognized as repeats (for tests and the benchmarks).
    var hits: Int { state.withLock { $0.hits } }

    /// How many responses are kept, and their bodies' bytes.
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.slots.count, $0.bytes) } }
}
