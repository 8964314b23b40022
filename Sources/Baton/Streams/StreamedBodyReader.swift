import BatonAPI
import Foundation

/// The synchronous core of a streamed response's reader: chunks of the body in, GraphQL results
/// out. The `multipart/mixed` incremental response, the multipart subscription and the
/// Server-Sent Events subscription each have one; ``StreamedBodyReader`` drives them all.
protocol StreamedBodyAssembler: Sendable {
    /// What the assembler completes: a result, or a response merged so far.
    associatedtype Event
    /// Adds a chunk of the body; calls `yield` with each event it completes, in order.
    mutating func append(_ chunk: Data, yield: (Event) -> Void) throws(BatonError)
    /// Whether nothing more is to be read (the body's end was announced).
    var isDone: Bool { get }
    /// At the end of the body: throws when it ended too soon.
    func finish() throws(BatonError)
}

/// Reads a streamed body through an assembler, only as fast as the consumer takes its results:
/// the back-pressure reaches the HTTP client's chunk stream. Each response counts the body bytes
/// it was decoded from (`receivedBytes`). What an assembler completed before a
/// failure is delivered first; a failure that is not a ``BatonError`` (the connection's) becomes
/// ``BatonError/network(operationName:underlying:)``.
enum StreamedBodyReader {
    /// The responses `makeResponse` makes of the events `assembler` completes from `chunks`.
    static func responses<Assembler: StreamedBodyAssembler>(
        of chunks: AsyncThrowingStream<Data, any Error>?, operationName: String, assembler: Assembler,
        makeResponse: @escaping @Sendable (Assembler.Event) -> GraphQLResponse
    ) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let chunks = chunks ?? AsyncThrowingStream { $0.finish() }
        return BackPressuredStream.make(capacity: 1) { send in
            var assembler = assembler
            // The body bytes read since the last event completed: they are what the next events
            // were decoded from (a heartbeat's or comment's bytes count toward the event after it).
            var unattributed = 0
            do {
                for try await chunk in chunks {
                    unattributed += chunk.count
                    var ready: [GraphQLResponse] = []
                    var failure: (any Error)?
                    do {
                        try assembler.append(chunk) { ready.append(makeResponse($0)) }
                    } catch {
                        failure = error
                    }
                    if !ready.isEmpty {
                        // Events completed by one chunk share its bytes (and those before it).
                        let share = unattributed / ready.count
                        for index in ready.indices { ready[index].receivedBytes = share }
                        ready[ready.count - 1].receivedBytes += unattributed - share * ready.count
                        unattributed = 0
                    }
                    for response in ready {
                        guard await send(response) else { return }
                    }
                    if let failure { throw failure }
                    if assembler.isDone { break }
                }
                try Task.checkCancellation()
                try assembler.finish()
            } catch let error as BatonError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw BatonError.network(operationName: operationName, underlying: error)
            }
        }
    }
}
