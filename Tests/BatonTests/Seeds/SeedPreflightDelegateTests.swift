import Baton
import BatonExampleAPI
import Foundation
import Testing

// Seed 002's preflight delegate ("Adding authentication handling"): `Network` conforms to
// `HTTPNetworkTransportPreflightDelegate` with the page's two methods, as written, and passes
// itself to `HTTPNetworkTransport(url:delegate:)`. The page's `lazy var apollo` (with the
// tutorial server's URL) is type-checked as written by SeedTypeCheckTests; here the client is
// made the same way against the example server.

/// The tutorial's keychain, as the snippet calls it.
@MainActor
private final class KeychainSwift {
    static var stored: [String: String] = [:]
    func get(_ key: String) -> String? { Self.stored[key] }
}

@MainActor
private enum LoginViewController {
    static let loginKeychainKey = "login"
}

@MainActor
private final class Network {
    let url: URL
    var shouldSendCalls = 0

    init(url: URL) { self.url = url }

    private(set) lazy var apollo: BatonClient = {
        let httpNetworkTransport = HTTPNetworkTransport(url: url, delegate: self)
        return BatonClient(networkTransport: httpNetworkTransport)
    }()
}

extension Network: HTTPNetworkTransportPreflightDelegate {
func networkTransport(_ networkTransport: HTTPNetworkTransport, 
                      shouldSend request: URLRequest) -> Bool {
	shouldSendCalls += 1
	return true
}

func networkTransport(_ networkTransport: HTTPNetworkTransport, 
                      willSend request: inout URLRequest) {
  let keychain = KeychainSwift()
  if let token = keychain.get(LoginViewController.loginKeychainKey) {
    request.addValue(token, forHTTPHeaderField: "Authorization")
  } // else do nothing
}
}

/// A delegate that stops every request, as `shouldSend` returning `false` does.
@MainActor
private final class LoggedOut: HTTPNetworkTransportPreflightDelegate {
    func networkTransport(_ networkTransport: HTTPNetworkTransport, shouldSend request: URLRequest) -> Bool { false }
    func networkTransport(_ networkTransport: HTTPNetworkTransport, willSend request: inout URLRequest) {}
}

/// A delegate that edits what Apollo's `willSend` may edit: the method, the timeout and the body.
@MainActor
private final class Editing: HTTPNetworkTransportPreflightDelegate {
    let edit: @MainActor (inout URLRequest) -> Void
    var seen: [URLRequest] = []
    init(_ edit: @escaping @MainActor (inout URLRequest) -> Void) { self.edit = edit }
    func networkTransport(_ networkTransport: HTTPNetworkTransport, shouldSend request: URLRequest) -> Bool { true }
    func networkTransport(_ networkTransport: HTTPNetworkTransport, willSend request: inout URLRequest) {
        seen.append(request)
        edit(&request)
    }
}

@Suite("Seed 002: the preflight delegate", .serialized)
@MainActor
struct SeedPreflightDelegateTests {
    @Test("002 HTTPNetworkTransportPreflightDelegate: willSend's Authorization header reaches the server")
    func willSendAddsTheToken() async throws {
        try await withExampleServer { server in
            let login = try await BatonClient(url: server.url).perform(mutation: LoginMutation(email: "delegate@example.com"))
            KeychainSwift.stored[LoginViewController.loginKeychainKey] = try #require(login.data?.login)
            let network = Network(url: server.url)
            let booked = try await network.apollo.perform(mutation: BookTripMutation(tripID: "launch-25"))
            #expect(booked.data?.bookTrips.success == true, "\(booked.errors ?? [])")
            #expect(network.shouldSendCalls == 1)

            KeychainSwift.stored = [:]
            let anonymous = try await network.apollo.perform(mutation: BookTripMutation(tripID: "launch-26"))
            #expect(anonymous.data?.bookTrips.success != true)
        }
    }

    @Test("002 HTTPNetworkTransportPreflightDelegate: shouldSend returning false vetoes the request")
    func shouldSendFalseVetoes() async throws {
        try await withExampleServer { server in
            let delegate = LoggedOut()
            let client = BatonClient(networkTransport: HTTPNetworkTransport(url: server.url, delegate: delegate))
            await #expect {
                _ = try await client.perform(mutation: BookTripMutation(tripID: "launch-25"))
            } throws: { error in
                guard case BatonError.vetoed = error else { return false }
                return true
            }
            _ = delegate
        }
    }

    @Test("willSend's edits of the method, timeout and JSON body are what is sent, never silently dropped")
    func willSendEditsMethodTimeoutAndBody() async throws {
        try await withExampleServer { server in
            // The delegate sees the request as it would go: POST, the JSON body, a timeout.
            let editing = Editing { request in
                request.httpMethod = "GET"
                request.timeoutInterval = 9
                var body = try! JSONValue(parsing: request.httpBody!).objectValue!
                body["variables"] = .object(["episode": "JEDI"])
                request.httpBody = JSONValue.object(body).serializedData()
            }
            let client = BatonClient(networkTransport: HTTPNetworkTransport(url: server.url, delegate: editing))
            let result = try await client.fetch(query: HeroNameQuery(episode: .empire), cachePolicy: .fetchIgnoringCacheData)
            // The edited variables were sent: JEDI's hero, not EMPIRE's.
            #expect(result.data?.hero?.name == "R2-D2")
            let seen = try #require(editing.seen.first)
            #expect(seen.httpMethod == "POST")
            #expect(seen.timeoutInterval == 60)
            #expect(seen.httpBody.flatMap { try? JSONValue(parsing: $0).objectValue?["operationName"] } == "HeroName")
        }
    }

    @Test("an edit Baton cannot send (a PUT, GET for a mutation, another document) fails the operation saying which")
    func willSendEditsThatCannotBeSentAreRefused() async throws {
        try await withExampleServer { server in
            let cases: [(String, @MainActor (inout URLRequest) -> Void)] = [
                ("the method PUT", { $0.httpMethod = "PUT" }),
                ("GET for a mutation", { $0.httpMethod = "GET" }),
                ("another document", { request in
                    var body = try! JSONValue(parsing: request.httpBody!).objectValue!
                    body["query"] = "mutation Other { other }"
                    request.httpBody = JSONValue.object(body).serializedData()
                }),
                ("a body that is not a JSON object", { $0.httpBody = Data("[1]".utf8) }),
            ]
            for (expected, edit) in cases {
                let editing = Editing(edit)
                let client = BatonClient(networkTransport: HTTPNetworkTransport(url: server.url, delegate: editing))
                await #expect {
                    _ = try await client.perform(mutation: BookTripMutation(tripID: "launch-25"))
                } throws: { error in
                    guard case BatonError.vetoed(_, let reason) = error else { return false }
                    return reason.contains(expected)
                }
                _ = editing
            }
        }
    }
}
