/// The Star Wars state of one server: the reviews written and the subscribers to new ones.
final class StarWarsStore: Sendable {
    typealias Subscriber = AsyncThrowingStream<any Sendable, any Error>.Continuation

    private struct State {
        var reviews: [Review] = []
        var subscribers: [Int: (episode: String?, continuation: Subscriber)] = [:]
        var nextSubscriberID = 0
    }

    private let state = Locked(State())

    /// Stores a review and sends it to the subscribers of its episode.
    func add(_ review: Review) {
        let subscribers = state.withLock { state in
            state.reviews.append(review)
            return state.subscribers.values.filter { $0.episode == nil || $0.episode == review.episode }
        }
        for subscriber in subscribers {
            subscriber.continuation.yield(review)
        }
    }

    /// The reviews of `episode`, oldest first.
    func reviews(episode: String) -> [Review] {
        state.withLock { $0.reviews.filter { $0.episode == episode } }
    }

    /// The reviews added from now on for `episode` (any episode when nil).
    func reviewsAdded(episode: String?) -> AsyncThrowingStream<any Sendable, any Error> {
        let (stream, continuation) = AsyncThrowingStream<any Sendable, any Error>.makeStream()
        let id = state.withLock { state in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.subscribers[id] = (episode, continuation)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
