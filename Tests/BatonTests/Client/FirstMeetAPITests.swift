import Baton
import BatonExampleAPI
import Dispatch
import Foundation
import Testing

/// The API a user meets first (issue 27, item 3): Apollo's callback forms, `GraphQLID`,
/// `BatonError`'s message, `__typename`, connection IDs, and no parameter silently ignored.
@Suite("The API a user meets first")
struct FirstMeetAPITests {
    @Test("BatonClient(url:store:sensitiveData:) uses the given sensitiveData; without it, the store's")
    func sensitiveDataIsNeverIgnored() {
        let url = URL(string: "http://127.0.0.1:9/graphql")!
        let secret = SensitiveData(variableNames: ["password"])
        let store = Store(sensitiveData: SensitiveData(variableNames: ["pin"]))
        #expect(BatonClient(url: url, store: store, sensitiveData: secret).sensitiveData == secret)
        #expect(BatonClient(url: url, store: store).sensitiveData == store.sensitiveData)
        let made = BatonClient(url: url, sensitiveData: secret)
        #expect(made.sensitiveData == secret && made.store.sensitiveData == secret)
    }

    @Test("BatonError is a LocalizedError whose message names the operation and what happened")
    func batonErrorLocalizedDescription() {
        let error: any Error = BatonError.cacheMiss(operationName: "HeroName")
        #expect(error.localizedDescription.hasPrefix("HeroName: "))
        #expect(error.localizedDescription == "\(error)")
    }

    @Test("__typename is not optional: the response's, or the selection set's own type")
    func typenameIsNotOptional() throws {
        let data = try HeroNameQuery.Data(jsonObject: ["hero": ["__typename": "Droid", "name": "R2-D2"]])
        let typename: String = try #require(data.hero).__typename
        #expect(typename == "Droid")
        #expect(data.__typename == "Query")
    }

    @Test("ConnectionHandler.default.getConnectionID gives the String a connections variable takes")
    func connectionIDAsString() {
        let id: String = ConnectionHandler.default.getConnectionID(parentID: DataID("User:1"), key: "ToDoList_todos")
        #expect(id == ConnectionHandler.getConnectionID(parentID: DataID("User:1"), key: "ToDoList_todos").rawValue)
        let mutation = AddTodoMutation(input: AddTodoInput(text: "x", userId: "User:1"), connections: [id])
        #expect(mutation.connections == [id])
    }

    @Test("fetch(query:queue:) delivers on the given queue; perform(mutation:queue:) too")
    func callbackFormsOnAQueue() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let queue = DispatchQueue(label: "baton.test.delivery")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let onQueue: Bool = await withCheckedContinuation { continuation in
                client.fetch(query: HeroNameQuery(episode: .empire), queue: queue) { result in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true && (try? result.get()) != nil)
                }
            }
            #expect(onQueue)
            let performed: Bool = await withCheckedContinuation { continuation in
                client.perform(mutation: UpvotePostMutation(postId: 1), queue: queue) { result in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true && (try? result.get().data?.upvotePost) != nil)
                }
            }
            #expect(performed)
        }
    }

    @Test("A main-actor handler may use the main actor's state")
    @MainActor
    func mainActorHandler() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            @MainActor final class Screen {
                var names: [String] = []
            }
            let screen = Screen()
            let cancellable = client.fetch(query: HeroNameQuery(episode: .empire)) { result in
                MainActor.assertIsolated()
                screen.names.append((try? result.get().data?.hero?.name) ?? "none")
            }
            let deadline = Date().addingTimeInterval(20)
            while screen.names.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(screen.names == ["Luke Skywalker"])
            cancellable.cancel()
        }
    }
}
