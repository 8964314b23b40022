import Baton
import BatonExampleAPI
import BatonStore
import BatonTesting
import Testing

/// The example API's client schema extension (`graphql/ClientSchema.graphql`: `Todo.isSelected`,
/// `Query.deviceSettings`): a query of client fields only never reaches the transport; a query
/// mixing server and client fields sends the stripped document and returns both, the client
/// field from the store, where the server's answers never erase it.
@Suite("Scenario: client schema extension fields")
struct ClientFieldsScenario {
    static let todo: JSONObject = ["data": ["node": ["__typename": "Todo", "id": "Todo:1", "text": "Write tests", "complete": false]]]

    /// The document a request carried.
    func document(_ request: MockRequest) -> String {
        type(of: request.operation).operationDocument
    }

    @Test func aClientOnlyQuerySendsNothing() async throws {
        let scenario = Scenario()
        // Whatever the policy asks, the store answers: the field is null until the client sets it.
        let first = try await scenario.client.fetch(query: DeviceSettingsQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(first.source == .cache)
        #expect(first.data != nil)
        #expect(first.data?.deviceSettings == nil)
        scenario.client.store.update { proxy in
            let settings = proxy.create(id: "client:deviceSettings", typename: "DeviceSettings")
            settings.setValue("dark", "theme")
            proxy.get(.rootID)?.setLinkedRecord(settings, "deviceSettings")
        }
        let second = try await scenario.client.fetch(query: DeviceSettingsQuery())
        #expect(second.data?.deviceSettings?.theme == "dark")
        var results: [String?] = []
        for try await result in scenario.client.fetchResults(query: DeviceSettingsQuery(), cachePolicy: .returnCacheDataAndFetch) {
            results.append(result.data?.deviceSettings?.theme)
        }
        #expect(results == ["dark"])
        #expect(scenario.transport.requests.isEmpty)
        // Never sent, it carries no client field in its document either.
        #expect(DeviceSettingsQuery.operationDocument == "query DeviceSettings { __typename }")
    }

    @Test func aMixedQuerySendsTheStrippedDocumentAndReturnsBoth() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.todo, for: TodoSelectionQuery.self)
        let first = try await scenario.client.fetch(query: TodoSelectionQuery(id: "Todo:1"), cachePolicy: .fetchIgnoringCacheData)
        #expect(first.data?.node?.asTodo?.text == "Write tests")
        #expect(first.data?.node?.asTodo?.isSelected == nil)
        let sent = try #require(scenario.transport.requests.first)
        #expect(!document(sent).contains("isSelected"))
        #expect(document(sent).contains("text complete"))

        // The client sets its field; the next server answer keeps it and the result has both.
        scenario.client.store.update { proxy in _ = proxy.get("Todo:1")?.setValue(true, "isSelected") }
        scenario.transport.enqueue(
            body: ["data": ["node": ["__typename": "Todo", "id": "Todo:1", "text": "Write more tests", "complete": true]]],
            for: TodoSelectionQuery.self)
        let second = try await scenario.client.fetch(query: TodoSelectionQuery(id: "Todo:1"), cachePolicy: .fetchIgnoringCacheData)
        #expect(second.source == .server)
        #expect(second.data?.node?.asTodo?.text == "Write more tests")
        #expect(second.data?.node?.asTodo?.isSelected == true)
        #expect(scenario.client.store.snapshot()["Todo:1"]?["isSelected"] == .scalar(true))

        // The store answers it whole: a missing client field is not a cache miss.
        let cached = try await scenario.client.fetch(query: TodoSelectionQuery(id: "Todo:1"), cachePolicy: .returnCacheDataDontFetch)
        #expect(cached.data?.node?.asTodo?.isSelected == true)
        #expect(scenario.transport.requests.count == 2)
    }

    @Test func aWatchOfAClientOnlyQueryFollowsTheStore() async throws {
        let scenario = Scenario()
        var iterator = scenario.client.watch(query: DeviceSettingsQuery()).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.data?.deviceSettings == nil)
        scenario.client.store.update { proxy in
            let settings = proxy.create(id: "client:deviceSettings", typename: "DeviceSettings")
            settings.setValue("light", "theme")
            proxy.get(.rootID)?.setLinkedRecord(settings, "deviceSettings")
        }
        let second = try await iterator.next()
        #expect(second?.data?.deviceSettings?.theme == "light")
        #expect(scenario.transport.requests.isEmpty)
    }

    /// An optimistic update sets a client field beside the server's, and is rolled back exactly.
    @Test func anOptimisticUpdateSetsAClientField() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.todo, for: TodoSelectionQuery.self)
        _ = try await scenario.client.fetch(query: TodoSelectionQuery(id: "Todo:1"), cachePolicy: .fetchIgnoringCacheData)
        let descriptor = OperationDescriptor(operation: TodoSelectionQuery(id: "Todo:1"))
        let layer = try scenario.client.store.applyOptimisticResponse(
            ["node": ["__typename": "Todo", "id": "Todo:1", "isSelected": true]], for: descriptor)
        let optimistic = try await scenario.client.fetch(query: TodoSelectionQuery(id: "Todo:1"), cachePolicy: .returnCacheDataDontFetch)
        #expect(optimistic.data?.node?.asTodo?.isSelected == true)
        scenario.client.store.revertOptimisticUpdate(layer)
        let reverted = try await scenario.client.fetch(query: TodoSelectionQuery(id: "Todo:1"), cachePolicy: .returnCacheDataDontFetch)
        #expect(reverted.data?.node?.asTodo?.isSelected == nil)
        #expect(reverted.data?.node?.asTodo?.text == "Write tests")
    }
}
