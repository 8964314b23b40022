import Baton
import BatonExampleAPI
import Foundation
import Logging
import Synchronization
import Testing

/// Issue 27 item 2's API half: optimistic responses as `[String: Any]` literals of Swift
/// variables, a failed commit that always reaches the caller (the returned handle, the logger at
/// error level when there is no completion), `commit()` for a mutation without variables.
@Suite("Mutator: [String: Any] optimistic responses, failures that reach the caller", .timeLimit(.minutes(3)))
@MainActor
struct MutatorCommitReportTests {
    @Test("A [String: Any] literal of Swift variables is converted, checked and applied")
    func anyLiteralOfSwiftVariables() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let list = try await client.fetch(query: ToDoListQuery())
            let todo = try #require(list.data?.viewer?.todos.edges?.first??.node?.fragments.toDoItem_todo)
            let id: String = todo.id
            let complete: Bool = !todo.complete
            let commit = client.mutator(ChangeTodoStatusMutation.self).commit(
                variables: .init(input: .init(complete: complete, id: id, userId: "me")),
                optimisticResponse: [
                    "changeTodoStatus": ["__typename": "ChangeTodoStatusPayload", "todo": ["__typename": "Todo", "id": id, "complete": complete]]
                ])
            #expect(commit.immediateFailure == nil)
            #expect(client.store.optimisticUpdateCount == 1)
            let optimistic = try await client.fetch(query: ToDoListQuery(), cachePolicy: .returnCacheDataDontFetch)
            #expect(optimistic.data?.viewer?.todos.edges?.first??.node?.fragments.toDoItem_todo.complete == complete)
            let failure = await commit.failure
            #expect(failure == nil)
            try await commit.get()
            #expect(client.store.optimisticUpdateCount == 0)
        }
    }

    @Test("A value with no JSON form fails the commit with a typed error naming its path, logged at error level without a completion")
    func unsupportedValueIsReportedAndLogged() async throws {
        let log = LevelLog()
        let client = BatonClient(
            url: URL(string: "http://127.0.0.1:9/graphql")!, logger: Logger(label: "test") { _ in log })
        let mutator = client.mutator(ChangeTodoStatusMutation.self)
        let id = "todo-1"
        let when = Date()
        let commit = mutator.commit(
            variables: .init(input: .init(complete: true, id: id, userId: "me")),
            optimisticResponse: ["changeTodoStatus": ["todo": ["id": id, "complete": when]]])
        guard case BatonError.invalidOptimisticResponse(let name, let path, _)? = commit.immediateFailure else {
            Issue.record("expected invalidOptimisticResponse, got \(String(describing: commit.immediateFailure))")
            return
        }
        #expect(name == "ChangeTodoStatusMutation")
        #expect(path == "changeTodoStatus.todo.complete")
        #expect(!mutator.isInFlight)
        #expect(client.store.optimisticUpdateCount == 0)
        #expect(await commit.failure is BatonError)
        await #expect(throws: BatonError.self) { try await commit.get() }
        #expect(log.entries.contains { $0.level == .error && $0.message.contains("changeTodoStatus.todo.complete") })
    }

    @Test("A failure of the request reaches the handle and, without a completion, the logger at error level")
    func sendFailureReachesTheHandleAndTheLog() async throws {
        let log = LevelLog()
        // Nothing listens on the discard port: the request fails.
        let client = BatonClient(
            url: URL(string: "http://127.0.0.1:9/graphql")!, retryPolicy: nil, logger: Logger(label: "test") { _ in log })
        let mutator = client.mutator(UpvotePostMutation.self)
        let commit = mutator.commit(variables: UpvotePostMutation(postId: 1))
        #expect(commit.immediateFailure == nil)
        let failure = await commit.failure
        #expect(failure is BatonError)
        #expect(log.entries.contains { $0.level == .error && $0.message.contains("UpvotePost") })
    }

    @Test("An optimistic payload of the wrong type without a completion: refused with its path, logged at error level, nothing sent")
    func wrongTypeWithoutCompletionIsLogged() async throws {
        let log = LevelLog()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:9/graphql")!, logger: Logger(label: "test") { _ in log })
        let mutator = client.mutator(ChangeTodoStatusMutation.self)
        let commit = mutator.commit(
            variables: .init(input: .init(complete: true, id: "1", userId: "me")),
            optimisticResponse: ["changeTodoStatus": ["todo": ["id": "1", "complete": "yes"]]])
        let failure = try #require(commit.immediateFailure)
        #expect("\(failure)".contains("changeTodoStatus.todo.complete"), "\(failure)")
        #expect(!mutator.isInFlight)
        #expect(log.entries.contains { $0.level == .error && $0.message.contains("ChangeTodoStatus") }, "\(log.entries.map(\.message))")
    }

    @Test("A completion gets the failure instead of the log")
    func completionGetsTheFailure() async throws {
        let log = LevelLog()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:9/graphql")!, logger: Logger(label: "test") { _ in log })
        let received = Mutex<(any Error)?>(nil)
        let commit = client.mutator(ChangeTodoStatusMutation.self).commit(
            variables: .init(input: .init(complete: true, id: "1", userId: "me")),
            optimisticResponse: ["changeTodoStatus": ["todo": ["id": "1", "complete": "yes"]]],
            completion: { result in
                if case .failure(let error) = result { received.withLock { $0 = error } }
            })
        #expect(commit.immediateFailure != nil)
        #expect(received.withLock { $0 } != nil)
        #expect(!log.entries.contains { $0.level == .error })
    }

    @Test("commit() for a mutation without variables")
    func commitWithoutVariables() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let before = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            let votes = try #require(before.data?.upvotePost?.fragments.postDetails.votes)
            let upvote = client.mutator(UpvoteFirstPostMutation.self)
            let commit = upvote.commit()
            #expect(upvote.isInFlight)
            try await commit.get()
            let after = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            #expect(after.data?.upvotePost?.fragments.postDetails.votes == votes + 2)
        }
    }
}

/// Keeps each logged message with its level.
final class LevelLog: LogHandler, Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
    }

    private let stored = Mutex<[Entry]>([])
    var entries: [Entry] { stored.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        stored.withLock { $0.append(Entry(level: event.level, message: event.message.description)) }
    }
}
