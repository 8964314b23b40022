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
}
