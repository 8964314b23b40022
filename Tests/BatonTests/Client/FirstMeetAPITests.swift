@testable import Baton
import BatonExampleAPI
import Dispatch
import Foundation
import Logging
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

    /// A view controller's state, touched only on the main actor.
    @MainActor final class Screen {
        var shown: [String] = []
        func show(_ text: String) { shown.append(text) }
    }

    @Test("queue: .main written out takes a main-actor handler too: fetch, perform and upload call the screen's methods")
    @MainActor
    func queueMainTakesAMainActorHandler() async throws {
        try await withExampleServer { server in
            let client = BatonClient(url: server.url)
            let screen = Screen()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-queue-main-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let fileURL = folder.appendingPathComponent("a.txt")
            try Data("hello".utf8).write(to: fileURL)
            let file = try #require(GraphQLFile(fieldName: "file", originalName: "a.txt", mimeType: "text/plain", fileURL: fileURL))
            client.fetch(query: HeroNameQuery(episode: .empire), queue: .main) { result in
                MainActor.assertIsolated()
                screen.show("fetch \((try? result.get().data?.hero?.name) ?? "none")")
            }
            client.perform(mutation: UpvotePostMutation(postId: 1), queue: .main) { result in
                MainActor.assertIsolated()
                screen.show("perform \((try? result.get().data?.upvotePost) != nil)")
            }
            client.upload(operation: UploadFileMutation(file: "a"), files: [file], queue: .main) { result in
                MainActor.assertIsolated()
                screen.show("upload \((try? result.get().data?.singleUpload.id) != nil)")
            }
            let deadline = Date().addingTimeInterval(30)
            while screen.shown.count < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(Set(screen.shown) == ["fetch Luke Skywalker", "perform true", "upload true"])
        }
    }

    @Test("BatonClient(transport:store:) is the short form over any transport and store")
    func transportAndStore() async throws {
        try await withExampleServer { server in
            let store = Store()
            let client = BatonClient(transport: RequestChainNetworkTransport(url: server.url), store: store)
            #expect(client.store === store)
            let result = try await client.fetch(query: HeroNameQuery(episode: .empire))
            #expect(result.data?.hero?.name == "Luke Skywalker")
        }
    }

    @Test("BatonClient.Configuration: every field reaches the transport or the client")
    func everyConfigurationFieldIsUsed() throws {
        struct Marker: GraphQLInterceptor {
            let name: String
            func intercept(_ request: GraphQLRequest, next: @Sendable (GraphQLRequest) async throws -> HTTPResult) async throws -> HTTPResult {
                try await next(request)
            }
        }
        let sensitive = SensitiveData(variableNames: ["password"])
        let configuration = BatonClient.Configuration(
            headerFields: [.authorization: "Bearer t"], interceptors: [Marker(name: "first")], timeout: .seconds(7),
            useGETForQueries: true, autoPersistQueries: true, useGETForPersistedQueryRetry: true, persistedQueriesOnly: false,
            wireInterceptors: [Marker(name: "wire")], retryPolicy: RetryPolicy(maxAttempts: 3), sensitiveData: sensitive,
            limits: ResponseLimits(maxResponseBytes: 1234), logger: Logger(label: "configured"),
            subscriptionProtocol: .serverSentEvents, preflight: { _ in .send }, keptResponseBytes: 0)
        let client = BatonClient(url: URL(string: "http://127.0.0.1:1/graphql")!, configuration: configuration)
        let transport = try #require(client.networkTransport as? RequestChainNetworkTransport)
        #expect(transport.headerFields[.authorization] == "Bearer t")
        #expect(transport.timeout == .seconds(7))
        #expect(transport.useGETForQueries)
        #expect(transport.limits.maxResponseBytes == 1234)
        #expect(transport.subscriptionProtocol == .serverSentEvents)
        #expect(transport.sensitiveData == sensitive)
        #expect(client.sensitiveData == sensitive)
        #expect(client.store.sensitiveData == sensitive)
        #expect(client.logger.label == "configured")
        #expect(client.keptResponses.limit == 0)
        // The chain, in order: the retry step, the interceptors, the preflight step, automatic
        // persisted queries, the wire interceptors.
        let steps = transport.interceptors.map { step -> String in
            switch step {
            case let marker as Marker: return marker.name
            case is PreflightInterceptor: return "preflight"
            case let persisted as PersistedQueryInterceptor: return "\(persisted.mode)"
            case is RetryInterceptor: return "retry"
            default: return "\(type(of: step))"
            }
        }
        #expect(steps == ["retry", "first", "preflight", "automatic(useGETForRetry: true)", "wire"], "\(steps)")
    }
}
