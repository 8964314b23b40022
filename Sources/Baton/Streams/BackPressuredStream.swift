import BatonStore

/// An `AsyncThrowingStream` whose producer waits for its consumer: the producer task hands its
/// elements over through a buffer of `capacity`, and ``Handoff/send(_:bytes:)`` suspends while the
/// buffer is full, so a producer never runs further ahead of the consumer than that, however
/// the two are scheduled (on a two-thread pool a reader task that never waits starves its
/// consumer). A stream may also bound the bytes waiting: each element is handed over with its
/// size, and `send` waits until it fits. Reading the stream's source only as fast as the consumer
/// takes elements passes the back-pressure on: to the HTTP client's chunk stream, and from there
/// to the socket.
///
/// When the consumer stops (its task is cancelled, or it drops the stream), the producer task is
/// cancelled and any element it is handing over is dropped.
///
/// `package`: the AsyncHTTPClient adapter hands its body over through it too.
package enum BackPressuredStream {
    /// A stream whose elements `produce` hands over with `send`; `send` returns false once the
    /// consumer has gone (the producer should stop). Ends when `produce` returns, with its error
    /// when it throws.
    package static func make<Element: Sendable>(
        of _: Element.Type = Element.self, capacity: Int,
        produce: @escaping @Sendable (_ send: @escaping @Sendable (Element) async -> Bool) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        make(of: Element.self, capacity: capacity, maxBytes: .max) { send in
            try await produce { await send($0, 0) }
        }
    }

    /// A stream whose elements `produce` hands over with `send`, each with its size in bytes: at
    /// most `capacity` elements wait, and their sizes add up to at most `maxBytes` (one element
    /// larger than that still goes through, alone), so `send` also waits while the next element
    /// would not fit. `meter`, when given, records the most that ever waited.
    package static func make<Element: Sendable>(
        of _: Element.Type = Element.self, capacity: Int, maxBytes: Int, meter: BufferMeter? = nil,
        produce: @escaping @Sendable (_ send: @escaping @Sendable (Element, _ bytes: Int) async -> Bool) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let handoff = Handoff<Element>(capacity: capacity, maxBytes: maxBytes, meter: meter)
        let producer = Task {
            do {
                try await produce { await handoff.send($0, bytes: $1) }
                await handoff.finish(throwing: nil)
            } catch {
                await handoff.finish(throwing: error)
            }
        }
        let guardian = ConsumerGuard(producer: producer, handoff: handoff)
        return AsyncThrowingStream(unfolding: {
            try await withTaskCancellationHandler {
                try await guardian.handoff.receive()
            } onCancel: {
                guardian.consumerLeft()
            }
        })
    }
}

/// The most elements, and bytes, that ever waited in a back-pressured stream's buffer (for tests
/// that check a bound holds).
package final class BufferMeter: Sendable {
    private let peaks = Locked((elements: 0, bytes: 0, bytesOfSeveral: 0))

    package init() {}

    /// The most elements that waited at once.
    package var peakElements: Int { peaks.withLock { $0.elements } }
    /// The most bytes that waited at once.
    package var peakBytes: Int { peaks.withLock { $0.bytes } }
    /// The most bytes that waited at once in more than one element (one element larger than the
    /// bound may wait alone).
    package var peakBytesOfSeveral: Int { peaks.withLock { $0.bytesOfSeveral } }

    func record(elements: Int, bytes: Int) {
        peaks.withLock { peaks in
            peaks.elements = max(peaks.elements, elements)
            peaks.bytes = max(peaks.bytes, bytes)
            if elements > 1 { peaks.bytesOfSeveral = max(peaks.bytesOfSeveral, bytes) }
        }
    }
}

/// Held by the consumer's side of the stream: when the stream goes, so does the producer.
private final class ConsumerGuard<Element: Sendable>: Sendable {
    let producer: Task<Void, Never>
    let handoff: Handoff<Element>

    init(producer: Task<Void, Never>, handoff: Handoff<Element>) {
        self.producer = producer
        self.handoff = handoff
    }

    func consumerLeft() {
        producer.cancel()
        let handoff = handoff
        Task { await handoff.close() }
    }

    deinit {
        consumerLeft()
    }
}

/// The buffer between one producer and one consumer.
actor Handoff<Element: Sendable> {
    private let capacity: Int
    private let maxBytes: Int
    private let meter: BufferMeter?
    private var buffer: [(element: Element, bytes: Int)] = []
    private var head = 0
    /// The bytes of the elements waiting.
    private var bytes = 0
    /// How the producer ended: `.some(nil)` normally, `.some(error)` with an error.
    private var end: (any Error)??
    private var endDelivered = false
    private var closed = false
    private var receiver: CheckedContinuation<Element?, any Error>?
    private var sender: CheckedContinuation<Bool, Never>?
    /// While the producer waits for room: the bytes of the element it holds.
    private var senderNeeds: Int?

    init(capacity: Int, maxBytes: Int = .max, meter: BufferMeter? = nil) {
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
        self.meter = meter
    }

    private var count: Int { buffer.count - head }

    /// Whether an element of `size` bytes fits now: nothing waits, or it stays within `maxBytes`.
    private func fits(_ size: Int) -> Bool {
        count == 0 || size <= maxBytes - bytes
    }

    /// Hands `element` over; waits until an element of its size fits, and while `capacity`
    /// elements are waiting. False when the consumer has gone.
    func send(_ element: Element, bytes size: Int = 0) async -> Bool {
        let size = max(0, size)
        while true {
            if closed { return false }
            if let receiver {
                self.receiver = nil
                receiver.resume(returning: element)
                return true
            }
            if fits(size) { break }
            senderNeeds = size
            guard await withCheckedContinuation({ sender = $0 }) else { return false }
        }
        buffer.append((element, size))
        bytes += size
        meter?.record(elements: count, bytes: bytes)
        guard count >= capacity else { return true }
        senderNeeds = nil
        return await withCheckedContinuation { sender = $0 }
    }

    /// The producer ended (with `error`, if any).
    func finish(throwing error: (any Error)?) {
        guard end == nil else { return }
        end = .some(error)
        if let receiver, count == 0 {
            self.receiver = nil
            endDelivered = true
            if let error { receiver.resume(throwing: error) } else { receiver.resume(returning: nil) }
        }
    }

    /// The next element; nil at the end; the producer's error once.
    func receive() async throws -> Element? {
        if count > 0 {
            let (element, size) = buffer[head]
            head += 1
            bytes -= size
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            if let sender {
                // Waiting for room for its element, or (with it added) for fewer than `capacity`.
                let room = senderNeeds.map(fits) ?? (count < capacity)
                if room {
                    self.sender = nil
                    senderNeeds = nil
                    sender.resume(returning: true)
                }
            }
            return element
        }
        if let end {
            guard !endDelivered else { return nil }
            endDelivered = true
            if let error = end { throw error }
            return nil
        }
        if closed || Task.isCancelled { throw CancellationError() }
        return try await withCheckedThrowingContinuation { receiver = $0 }
    }

    /// The consumer has gone: the producer's waiting `send` returns false, a waiting receive
    /// ends with `CancellationError`, and nothing more is kept.
    func close() {
        guard !closed else { return }
        closed = true
        buffer = []
        head = 0
        bytes = 0
        sender?.resume(returning: false)
        sender = nil
        senderNeeds = nil
        receiver?.resume(throwing: CancellationError())
        receiver = nil
    }
}
