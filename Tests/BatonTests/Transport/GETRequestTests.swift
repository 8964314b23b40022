import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// GraphQL over HTTP: queries as GET when asked (mutations never), the Accept header, and both
/// response media types, against the example server.
@Suite("GET and content negotiation")
struct GETRequestTests {
    @Test(arguments: HTTPClientKind.allCases)
    func queriesGoAsGETWithTheRequestInTheURL(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: server.url, httpClient: recorder, useGETForQueries: true)
            let result = try await client.fetch(query: HeroNameQuery(episode: .some(.case(.empire))), cachePolicy: .networkOnly)
            #expect(result.data?.hero?.name == "Luke Skywalker")

            let sent = try #require(recorder.requests.first)
            #expect(recorder.requests.count == 1)
            #expect(sent.method == .get)
            #expect(sent.body == nil)
            #expect(sent.headerFields[.contentType] == nil)
            #expect(sent.headerFields[.accept] == "application/graphql-response+json, application/json;q=0.9")
            let parameters = sent.queryParameters
            #expect(parameters["query"] == HeroNameQuery.operationDocument)
            #expect(parameters["operationName"] == "HeroName")
            #expect(parameters["variables"] == #"{"episode":"EMPIRE"}"#)
            #expect(parameters["extensions"] == nil)
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func reservedCharactersInVariablesSurviveTheURL(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: server.url, httpClient: recorder, useGETForQueries: true)
            // `+`, `&`, `=`, `#`, `%` and a space: the server must get them back exactly.
            let text = "a+b&c=d#e%f g"
            let result = try await client.fetch(query: SearchQuery(text: .some(text)), cachePolicy: .networkOnly)
            #expect(result.errors == nil)
            #expect(result.data?.search?.isEmpty == true)
            let url = try #require(recorder.requests.first?.url.absoluteString)
            #expect(url.contains("%2B") && url.contains("%26") && url.contains("%3D"))
            #expect(recorder.requests.first?.queryParameters["variables"] == #"{"text":"a+b&c=d#e%f g"}"#)

            // Luke's name found by GET as it is by POST.
            let luke = try await client.fetch(query: SearchQuery(text: .some("luke")), cachePolicy: .networkOnly)
            #expect(luke.data?.search?.compactMap { $0?.asHuman?.name } == ["Luke Skywalker"])
        }
    }

    @Test(arguments: HTTPClientKind.allCases)
    func mutationsNeverUseGET(kind: HTTPClientKind) async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(kind)
            let client = BatonClient(url: server.url, httpClient: recorder, useGETForQueries: true)
            let result = try await client.perform(mutation: UpvotePostMutation(postId: 1))
            #expect(result.data?.upvotePost?.votes != nil)
            let sent = try #require(recorder.requests.first)
            #expect(sent.method == .post)
            #expect(sent.headerFields[.contentType] == "application/json")
            #expect(sent.bodyJSON?["query"] as? String == UpvotePostMutation.operationDocument)
        }
    }

    @Test func postIsTheDefault() async throws {
        try await withExampleServer { server in
            let recorder = RecordingHTTPClient(.urlSession)
            let client = BatonClient(url: server.url, httpClient: recorder)
            _ = try await client.fetch(query: HeroNameQuery(episode: .some(.case(.jedi))), cachePolicy: .networkOnly)
            #expect(recorder.requests.map(\.method) == [.post])
            #expect(recorder.requests.first?.bodyJSON?["variables"] as? [String: String] == ["episode": "JEDI"])
        }
    }

    /// A request error in `application/graphql-response+json` comes with 400; it is a result
    /// carrying the errors, not a transport failure.
    @Test func graphQLResponseJSONWith400IsAResultWithErrors() async throws {
        let response = CannedHTTPServer.response(
            status: "400 Bad Request", contentType: "application/graphql-response+json; charset=utf-8",
            body: #"{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\"."}]}"#)
        let server = try CannedHTTPServer(response: response)
        defer { server.stop() }
        let client = BatonClient(url: server.url, timeout: .seconds(10), useGETForQueries: true)
        let result = try await client.fetch(query: HeroNameQuery(episode: .none), cachePolicy: .networkOnly)
        #expect(result.data == nil)
        #expect(result.errors?.map(\.message) == [#"Cannot query field "nope" on type "Query"."#])
    }

    /// The legacy `application/json` type: any 2xx body is the response.
    @Test func applicationJSONIsRead() async throws {
        let response = CannedHTTPServer.response(
            status: "200 OK", contentType: "application/json",
            body: #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#)
        let server = try CannedHTTPServer(response: response)
        defer { server.stop() }
        let client = BatonClient(url: server.url, timeout: .seconds(10), useGETForQueries: true)
        let result = try await client.fetch(query: HeroNameQuery(episode: .none), cachePolicy: .networkOnly)
        #expect(result.data?.hero?.name == "R2-D2")
    }

    @Test func getURLEncoding() {
        var request = GraphQLRequest(
            url: URL(string: "http://example.com/graphql?token=x")!, operationName: "Q", operationType: .query,
            document: "query Q { a }", operationIdentifier: "abc", variables: ["v": "1+1=2"],
            extensions: ["persistedQuery": ["version": 1, "sha256Hash": "abc"]])
        request.sendsDocument = false
        let url = RequestChainNetworkTransport.getURL(for: request).absoluteString
        #expect(
            url == "http://example.com/graphql?token=x&operationName=Q&variables=%7B%22v%22%3A%221%2B1%3D2%22%7D"
                + "&extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22abc%22%7D%7D")
    }
}
