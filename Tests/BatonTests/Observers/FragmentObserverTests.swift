import BatonAPI
import BatonExampleAPI
import Foundation
import Observation
import Testing

@testable import Baton

@Suite("FragmentObserver, RefetchObserver, PaginationObserver: live fragments on the main actor", .timeLimit(.minutes(3)))
@MainActor
struct FragmentObserverTests {
    func texts(_ fragment: TodoListPagination_user?) -> [String] {
        fragment?.todos.edges?.compactMap { $0?.node?.fragments.todoDetails.text } ?? []
    }

    @Test func aFragmentObserverFollowsItsRecordAndStopsWhenReleased() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let watchers = client.store.watcherCount
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let todo = try #require(list.data?.viewer?.todos.edges?[1]?.node?.fragments.todoDetails)
            let released = WeakReference<FragmentObserver<TodoDetails>>()
            do {
                let observer = FragmentObserver<TodoDetails>(client: client, reference: todo)
                released.object = observer
                #expect(observer.data?.text == "Buy a unicorn")  // read from the store at once
                #expect(observer.recordID == "Todo:2")
                _ = try await client.perform(
                    mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: !todo.complete, id: todo.id, userId: "User:1")))
                await until { observer.data?.complete == !todo.complete }
                #expect(client.store.watcherCount == watchers + 1)
            }
            #expect(released.object == nil)
            try await waitUntil { client.store.watcherCount == watchers }

            // Every change a view reads happens on the main actor.
            let observer = FragmentObserver<TodoDetails>(client: client, reference: todo)
            let probe = ChangeProbe { _ = observer.data }
            _ = try await client.perform(
                mutation: ChangeTodoStatusWithCountsMutation(input: ChangeTodoStatusInput(complete: todo.complete, id: todo.id, userId: "User:1")))
            await until { observer.data?.complete == todo.complete }
            #expect(probe.changes.withLock { $0 } >= 1)
            #expect(probe.offMainActor.withLock { $0 } == 0)
        }
    }

    @Test func aReferenceWithoutARecordIDIsAnError() throws {
        let client = BatonClient(url: URL(string: "http://127.0.0.1:1/graphql")!)
        let data = try CharacterName(jsonObject: ["__typename": "Human", "name": "Luke Skywalker"])
        let observer = FragmentObserver<CharacterName>(client: client, reference: data)
        #expect(observer.data == nil)
        #expect(observer.error is BatonError)
    }

    @Test func aRefetchObserverRefetchesWithTypedVariables() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let viewer = try #require(try await client.fetch(query: PaginatedTodosQuery(first: 2)).data?.viewer)
            let user = RefetchObserver<TodoListPagination_user>(client: client, reference: viewer, variables: .init(count: 2))
            #expect(texts(user.data) == ["Taste JavaScript", "Buy a unicorn"])
            let probe = ChangeProbe { _ = user.isRefetching }
            try await user.refetch(.init(count: 1))
            #expect(texts(user.data) == ["Taste JavaScript"])
            #expect(user.variables?.count == .some(1))
            #expect(!user.isRefetching)
            #expect(probe.changes.withLock { $0 } >= 1)
            #expect(probe.offMainActor.withLock { $0 } == 0)
        }
    }

    @Test func aPaginationObserverLoadsPagesOnTheMainActor() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let viewer = try #require(try await client.fetch(query: PaginatedTodosQuery(first: 2)).data?.viewer)
            let pages = PaginationObserver<TodoListPagination_user>(client: client, reference: viewer, variables: .init(count: 2))
            #expect(pages.hasNext)
            let probe = ChangeProbe {
                _ = pages.isLoadingNext
                _ = pages.data
            }
            try await pages.loadNext(2)
            #expect(texts(pages.data) == ["Taste JavaScript", "Buy a unicorn", "Learn Relay"])
            #expect(!pages.hasNext && !pages.isLoadingNext)
            #expect(probe.changes.withLock { $0 } >= 1)
            #expect(probe.offMainActor.withLock { $0 } == 0)
        }
    }

    @Test func typedVariablesCarryTheFragmentsDefaults() {
        #expect(TodoListPagination_user.Variables().variablesJSON == ["count": 2])
        #expect(TodoListPagination_user.Variables(count: 5, cursor: "c").variablesJSON == ["count": 5, "cursor": "c"])
        #expect(TodoListBackward_user.Variables(count: nil).variablesJSON == [:])
    }
}
