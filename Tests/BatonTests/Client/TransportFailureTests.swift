import BatonAPI
import BatonExampleAPI
import BatonDigest
import Foundation
import HTTPTypes
import Testing

@testable import Baton

/// Each way a request can fail gives its documented outcome: a typed ``BatonError``, or a result
/// carrying GraphQL errors, never a crash.
@Suite("Transport failures")
struct TransportFailureTests {
    let query = HeroNameQuery(episode: .some(.case(.jedi)))

    private func fetch(answering response: String) async throws -> GraphQLResult<HeroNameQuery.Data> {
        let server = try CannedHTTPServer(response: response)
        defer { server.stop() }
        return try await BatonClient(url: server.url, timeout: .seconds(10)).fetch(query: query)
    }

    @Test func http500WithAnHTMLPageIsAnHTTPStatusError() async throws {
        let html = CannedHTTPServer.response(
            status: "500 Internal Server Error", contentType: "text/html", body: "<html><body>Oops</body></html>")
        await #expect {
            try await fetch(answering: html)
        } throws: { error in
            guard case .httpStatus(let name, 500, let contentType?, let excerpt, let errors)? = error as? BatonError else { return false }
            return name == "HeroName" && contentType == "text/html" && excerpt.contains("Oops") && errors.isEmpty
        }
    }

    @Test func http502WithJSONErrorsKeepsThem() async throws {
        let response = CannedHTTPServer.response(
            status: "502 Bad Gateway", contentType: "application/json", body: #"{"errors":[{"message":"upstream down"}]}"#)
        await #expect {
            try await fetch(answering: response)
        } throws: { error in
            guard case .httpStatus(_, 502, _, _, let errors)? = error as? BatonError else { return false }
            return errors.map(\.message) == ["upstream down"]
        }
    }

    @Test func malformedJSONIsAMalformedResponseError() async throws {
        let response = CannedHTTPServer.response(status: "200 OK", contentType: "application/json", body: #"{"data": {"hero": }"#)
        await #expect {
            try await fetch(answering: response)
        } throws: { error in
            guard case .malformedResponse(_, let parseError)? = error as? BatonError else { return false }
            return parseError.offset == 18 && parseError.expected == "a value"
        }
    }

    @Test func truncatedBodyIsAnError() async throws {
        let body = #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#
        let truncated = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            + body.prefix(20)
        await #expect {
            try await fetch(answering: truncated)
        } throws: { error in
            switch error as? BatonError {
            case .network?, .malformedResponse?: return true
            default: return false
            }
        }
    }

    @Test func connectionRefusedIsANetworkError() async throws {
        let port = try closedLoopbackPort()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:\(port)/graphql")!, timeout: .seconds(10))
        await #expect {
            try await client.fetch(query: query)
        } throws: { error in
            guard case .network(let name, _)? = error as? BatonError else { return false }
            return name == "HeroName"
        }
    }

    @Test func aGraphQLResponseWithA400StatusIsAResultWithErrors() async throws {
        let response = CannedHTTPServer.response(
            status: "400 Bad Request", contentType: "application/graphql-response+json",
            body: #"{"errors":[{"message":"Cannot query field \"nme\" on type \"Character\".","locations":[{"line":1,"column":40}]}]}"#)
        let result = try await fetch(answering: response)
        #expect(result.data == nil)
        #expect(result.errors?.first?.locations == [.init(line: 1, column: 40)])
    }

    @Test func aBodyThatIsNotAGraphQLResponseIsInvalid() async throws {
        let response = CannedHTTPServer.response(status: "200 OK", contentType: "application/json", body: #"{"hello":"world"}"#)
        await #expect {
            try await fetch(answering: response)
        } throws: { error in
            guard case .invalidResponse? = error as? BatonError else { return false }
            return true
        }
        let list = CannedHTTPServer.response(status: "200 OK", contentType: "application/json", body: "[1,2]")
        await #expect {
            try await fetch(answering: list)
        } throws: { error in
            guard case .invalidResponse? = error as? BatonError else { return false }
            return true
        }
    }

    @Test func dataThatDoesNotMatchTheOperationNamesThePath() async throws {
        let response = CannedHTTPServer.response(
            status: "200 OK", contentType: "application/json", body: #"{"data":{"hero":{"__typename":"Droid","name":7}}}"#)
        await #expect {
            try await fetch(answering: response)
        } throws: { error in
            guard case .dataMismatch(_, let mismatch)? = error as? BatonError else { return false }
            return mismatch.description == "hero.name: expected String, found Int 7"
        }
    }

    @Test func aVetoedRequestNeverLeaves() async throws {
        // Nothing listens on this port: a request that left would fail with a network error.
        let port = try closedLoopbackPort()
        let client = BatonClient(url: URL(string: "http://127.0.0.1:\(port)/graphql")!) { request in
            request.operationName == "HeroName" ? .veto(reason: "offline mode") : .send
        }
        await #expect {
            try await client.fetch(query: query)
        } throws: { error in
            guard case .vetoed("HeroName", "offline mode")? = error as? BatonError else { return false }
            return true
        }
    }

    @Test func interceptorsRunInOrderAndSeeTheResponse() async throws {
        try await withExampleServer { server in
            let log = InterceptionLog()
            let client = BatonClient(
                url: server.url, headerFields: [.userAgent: "baton-tests"],
                interceptors: [RecordingInterceptor(name: "first", log: log), RecordingInterceptor(name: "second", log: log)])
            let result = try await client.fetch(query: query)
            #expect(result.data?.hero?.name == "R2-D2")
            #expect(log.entries == ["first → HeroName", "second → HeroName", "second ← 200", "first ← 200"])
        }
    }

    @Test func operationIdentifiersAreTheSHA256OfTheDocuments() {
        func sha256(_ text: String) -> String {
            SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        let operations: [any GraphQLOperation.Type] = [
            HeroNameQuery.self, HeroAndFriendsQuery.self, HumanQuery.self, SearchQuery.self, ReviewsQuery.self,
            CreateReviewForEpisodeMutation.self, UpvotePostMutation.self, LaunchListQuery.self, LaunchDetailsQuery.self,
            LoginMutation.self, MeQuery.self, BookTripsMutation.self, CancelTripMutation.self, TodoListQuery.self,
            AddTodoEdgeMutation.self, ChangeTodoStatusWithCountsMutation.self, RemoveTodoWithCountMutation.self, NodeQuery.self,
            UpvoteTwoPostsMutation.self,
        ]
        for operation in operations {
            #expect(operation.operationIdentifier == sha256(operation.operationDocument), "\(operation.operationName)")
        }
    }
}

final class InterceptionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var entries: [String] { lock.withLock { stored } }

    func append(_ entry: String) { lock.withLock { stored.append(entry) } }
}

struct RecordingInterceptor: GraphQLInterceptor {
    let name: String
    let log: InterceptionLog

    func intercept(
        _ request: GraphQLRequest, next: @Sendable (GraphQLRequest) async throws -> HTTPResult
    ) async throws -> HTTPResult {
        #expect(request.headerFields[.userAgent] == "baton-tests")
        log.append("\(name) → \(request.operationName)")
        let result = try await next(request)
        log.append("\(name) ← \(result.response.status.code)")
        return result
    }
}
