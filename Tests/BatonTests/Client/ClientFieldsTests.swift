import Baton
import BatonExampleAPI
import Foundation
import Testing

/// The example API's client schema extension against the real example server (which knows
/// nothing of `Todo.isSelected` or `Query.deviceSettings`, and would reject a document naming
/// them): the stripped document is what goes on the wire, the client field survives the
/// server's answers, and a query of client fields only sends nothing.
@Suite("Client schema extension fields against the example server")
struct ClientFieldsTests {
    @Test func theServerSeesOnlyItsFieldsAndTheClientKeepsItsOwn() async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(.urlSession)
            let client = BatonClient(url: server.url, httpClient: recorder)
            let list = try await client.fetch(query: TodoListQuery(first: 10))
            let viewer = try #require(list.data?.viewer)
            let added = try await client.perform(
                mutation: AddTodoEdgeMutation(input: AddTodoInput(text: "Pick me", userId: viewer.id, clientMutationId: "c1")))
            let id = try #require(added.data?.addTodo?.todoEdge.node?.id)

            let first = try await client.fetch(query: TodoSelectionQuery(id: id), cachePolicy: .networkOnly)
            #expect(first.errors == nil)
            #expect(first.data?.node?.asTodo?.text == "Pick me")
            #expect(first.data?.node?.asTodo?.isSelected == nil)
            let body = try #require(recorder.requests.last?.body.flatMap { String(data: $0, encoding: .utf8) })
            #expect(body.contains("TodoSelection") && !body.contains("isSelected"))

            client.store.update { proxy in _ = proxy.get(DataID(id))?.setValue(true, "isSelected") }
            let second = try await client.fetch(query: TodoSelectionQuery(id: id), cachePolicy: .networkOnly)
            #expect(second.errors == nil)
            #expect(second.source == .server)
            #expect(second.data?.node?.asTodo?.isSelected == true)

            let sentBefore = recorder.requests.count
            let settings = try await client.fetch(query: DeviceSettingsQuery(), cachePolicy: .networkOnly)
            #expect(settings.data != nil && settings.data?.deviceSettings == nil)
            #expect(recorder.requests.count == sentBefore)
        }
    }
}
