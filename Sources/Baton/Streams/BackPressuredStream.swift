/// An `AsyncThrowingStream` whose producer waits for its consumer: the producer task hands its
/// elements over through a buffer of `capacity`, and ``Handoff/send(_:)`` suspends while the
/// buffer is full, so a producer never runs further ahead of the consumer than that, however
/// the two are scheduled (on a two-thread pool a reader task that never waits starves its
/// consumer). Reading the stream's source only as fast as the consumer takes elements passes the
/// back-pressure on: to the HTTP client's chunk stream, and from there to the socket.
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
        let handoff = Handoff<Element>(capacity: capacity)
        let producer = Task {
            do {
                try await produce { await handoff.send($0) }
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
    private var buffer: [Element] = []
    private var head = 0
    /// How the producer ended: `.some(nil)` normally, `.some(error)` with an error.
    private var end: (any Error)??
    private var endDelivered = false
    private var closed = false
    private var receiver: CheckedContinuation<Element?, any Error>?
    private var sender: CheckedContinuation<Bool, Never>?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    private var count: Int { buffer.count - head }

    /// Hands `element` over; waits while `capacity` elements are waiting. False when the
    /// consumer has gone.
    func send(_ element: Element) async -> Bool {
        if closed { return false }
        if let receiver {
            self.receiver = nil
            receiver.resume(returning: element)
            return true
        }
        buffer.append(element)
        guard count >= capacity else { return true }
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
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            if let sender, count < capacity {
                self.sender = nil
                sender.resume(returning: true)
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
        sender?.resume(returning: false)
        sender = nil
        receiver?.resume(throwing: CancellationError())
        receiver = nil
    }
}
