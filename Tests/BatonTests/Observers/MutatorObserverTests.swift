import BatonAPI
import BatonExampleAPI
import Foundation
import Observation
import Testing

@testable import Baton

@Suite("Mutator: one object, isInFlight and completions on the main actor", .timeLimit(.minutes(3)))
@MainActor
struct MutatorObserverTests {
    @Test func isInFlightAndTheCompletionChangeOnTheMainActorWhileTheMainActorStaysFree() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [1])
            let client = BatonClient(url: server.url, interceptors: [gate])
            let mutator = Mutator<UpvotePostMutation>(client: client)
            let probe = ChangeProbe { _ = mutator.isInFlight }
            let completedOnMain = Locked<Bool?>(nil)
            let commit = mutator.commit(variables: UpvotePostMutation(postId: 1), completion: { result in
                MainActor.assertIsolated()
                completedOnMain.withLock { $0 = MainActorCheck.isCurrent && (try? result.get()) != nil }
            })
            #expect(mutator.isInFlight)
            try await waitUntil { gate.arrivedCount == 1 }
            // The response is held: the main actor runs other work meanwhile.
            let ticks = Locked(0)
            for _ in 0..<3 { await Task { @MainActor in ticks.withLock { $0 += 1 } }.value }
            #expect(ticks.withLock { $0 } == 3)
            #expect(mutator.isInFlight)

            gate.open(1)
            await until { !mutator.isInFlight }
            await commit.finished()
            #expect(completedOnMain.withLock { $0 } == true)
            #expect(probe.changes.withLock { $0 } >= 2)  // true, then false
            #expect(probe.offMainActor.withLock { $0 } == 0)
        }
    }

    @Test func twoCommitsKeepItInFlightUntilBothAreDone() async throws {
        try await withExampleServer { server in
            let gate = ResponseGate(holding: [1, 2])
            let client = BatonClient(url: server.url, interceptors: [gate])
            let mutator = client.mutator(UpvotePostMutation.self)
            let first = mutator.commit(variables: UpvotePostMutation(postId: 1))
            let second = mutator.commit(variables: UpvotePostMutation(postId: 2))
            try await waitUntil { gate.arrivedCount == 2 }
            gate.open(1)
            gate.open(2)
            await first.finished()
            await second.finished()
            #expect(!mutator.isInFlight)
        }
    }

    @Test func withoutAClientACommitFailsWithNoClient() throws {
        let mutator = Mutator<UpvotePostMutation>()
        let outcome = Locked<(any Error)?>(nil)
        mutator.use(nil)
        mutator.commit(
            variables: UpvotePostMutation(postId: 1),
            completion: { result in
                if case .failure(let error) = result { outcome.withLock { $0 = error } }
            })
        let error = try #require(outcome.withLock { $0 })
        guard case BatonError.noClient = error else {
            Issue.record("expected noClient")
            return
        }
        #expect(!mutator.isInFlight)
    }
}
