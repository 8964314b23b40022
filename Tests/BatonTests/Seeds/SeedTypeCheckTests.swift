import BatonTestSupport
import Foundation
import Testing

/// Seed snippets that are compiled but not run here, type-checked as written against the built
/// modules: those that carry a warning as written (an unused `[weak self]`, an unused binding, an
/// unused result), fragments of a method, and one that does not compile as the seed prints it.
/// SeedSnippetTests runs the others against the example server.
@Suite("Seed snippets type-checked as written", .ownThread)
struct SeedTypeCheckTests {
    /// What seed 002's snippets assume of the app (the tutorial's `Network` and detail view
    /// controller) and the initializers its Swift calls that its documents do not give.
    static let tutorialApp = """
        import Baton
        import BatonExampleAPI
        import Foundation

        @MainActor final class Network {
            static let shared = Network()
            let apollo = BatonClient(url: URL(string: "http://127.0.0.1:4000/graphql")!)
        }

        @MainActor final class DetailViewController {
            var launchID: GraphQLID?
            var launch: LaunchDetailsQuery.Data.Launch?
            func showAlert(title: String, message: String) {}
            func showAlertForErrors(_ errors: [GraphQLError]) {}
        }

        // The tutorial's Swift calls `BookTripMutation(id:)` and `CancelTripMutation(id:)`; its
        // BookTrip document names the variable `$tripID`, and it shows no CancelTrip document.
        extension BookTripMutation { init(id: GraphQLID) { self.init(tripID: id) } }
        extension CancelTripMutation { init(id: GraphQLID) { self.init(launchId: id) } }

        """

    @Test("002 Working with Mutations: bookTrip(with:) as first written, its TODO in place")
    func seed002BookTripWithTODO() async throws {
        let result = try await BuiltModules.typecheck(
            Self.tutorialApp + """
                extension DetailViewController {
                private func bookTrip(with id: GraphQLID) {
                  Network.shared.apollo.perform(mutation: BookTripMutation(id: id)) { [weak self] result in
                    guard let self = self else {
                      return 
                    }
                    switch result {
                    case .success(let graphQLResult):
                      if let bookingResult = graphQLResult.data?.bookTrips {
                        // TODO
                      }

                      if let errors = graphQLResult.errors {
                        self.showAlertForErrors(errors)
                      }
                    case .failure(let error):
                      self.showAlert(title: "Network Error",
                                     message: error.localizedDescription)
                    }
                  }
                }
                }
                """)
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test("002 Working with Mutations: cancelTrip(with:), bookOrCancelTapped and the bookingResult.success branch")
    func seed002CancelAndBookOrCancel() async throws {
        let result = try await BuiltModules.typecheck(
            Self.tutorialApp + """
                extension DetailViewController {
                private func bookTrip(with id: GraphQLID) {}

                private func cancelTrip(with id: GraphQLID) {
                  print("Cancel trip \\(id)")
                }

                func bookOrCancelTapped(launch: LaunchDetailsQuery.Data.Launch) {
                if launch.isBooked {
                  self.cancelTrip(with: launch.id)
                } else {
                  self.bookTrip(with: launch.id)
                }
                }

                func booked(_ bookingResult: BookTripMutation.Data.BookTrip) {
                if bookingResult.success {
                  self.showAlert(title: "Success!",
                \t\t\t\t\t\t\t   message: bookingResult.message ?? "Trip booked successfully")
                } else {
                  self.showAlert(title: "Could not book trip", 
                \t\t\t\t\t\t\t   message: bookingResult.message ?? "Unknown failure.")
                }
                }

                func cancelled(_ cancelResult: CancelTripMutation.Data.CancelTrip) {
                if cancelResult.success {
                  self.showAlert(title: "Trip cancelled",  
                                 message: cancelResult.message ?? "Your trip has been officially cancelled.")
                } else {
                  self.showAlert(title: "Could not cancel trip", 
                                 message: cancelResult.message ?? "Unknown failure.")
                }
                }
                }
                """)
        #expect(result.status == 0, "\(result.errors)")
    }

    /// The seed's CancelTrip snippet closes one brace too few (its `if let cancelResult` block is
    /// never closed): it cannot compile in Apollo either. With that one brace, it does.
    @Test("002 Working with Mutations: Network.shared.apollo.perform(mutation: CancelTripMutation(id: id)) — missing a brace as printed")
    func seed002CancelTripMutation() async throws {
        func source(closingTheIf: Bool) -> String {
            Self.tutorialApp + """
                extension DetailViewController {
                func cancelTrip(id: GraphQLID) {
                Network.shared.apollo.perform(mutation: CancelTripMutation(id: id)) { [weak self] result in
                  guard let self = self else {
                    return
                  }
                  switch result {
                  case .success(let graphQLResult):
                    if let cancelResult = graphQLResult.data?.cancelTrip {
                      if cancelResult.success {
                        // TODO
                      }
                """ + (closingTheIf ? "\n    }\n" : "\n") + """

                    if let errors = graphQLResult.errors {
                      self.showAlertForErrors(errors)
                    }
                  case .failure(let error):
                    self.showAlert(title: "Network Error",
                                   message: error.localizedDescription)
                  }
                }
                }
                }
                """
        }
        let asPrinted = try await BuiltModules.typecheck(source(closingTheIf: false))
        #expect(asPrinted.status != 0)
        let closed = try await BuiltModules.typecheck(source(closingTheIf: true))
        #expect(closed.status == 0, "\(closed.errors)")
    }

    @Test("002 Working with Mutations: loadLaunchDetails(forceReload:) with .fetchIgnoringCacheCompletely")
    func seed002LoadLaunchDetails() async throws {
        let result = try await BuiltModules.typecheck(
            Self.tutorialApp + """
                extension DetailViewController {
                private func loadLaunchDetails(forceReload: Bool = false) {
                  guard
                    let launchID = self.launchID,
                    (forceReload || launchID != self.launch?.id) else {
                      // This is the launch we're alrady displaying, or the ID is nil.
                      return
                  }
                        
                  let cachePolicy: CachePolicy
                  if forceReload {
                    cachePolicy = .fetchIgnoringCacheCompletely
                  } else {
                    cachePolicy = .returnCacheDataElseFetch
                  } 
                        
                  Network.shared.apollo.fetch(query: LaunchDetailsQuery(id: launchID), cachePolicy: cachePolicy) { [weak self] result in
                    // Rest of this remains the same
                  }
                }
                }
                """)
        #expect(result.status == 0, "\(result.errors)")
    }

    /// Seed 003's `CustomJSON` as written: Apollo iOS 0.x's `JSONDecodable`, over `Any`. Baton's
    /// custom scalars are `CustomScalarType` over its own `JSONValue` (and `Sendable`, which an
    /// enum over `[String: Any]` cannot be), so this does not compile with Baton, by design. The
    /// documented one-line equivalent, `"customScalars": {"JSON": "JSONValue"}` and
    /// `payload.foundationValue as? [String: Any]`, is ApolloCustomJSONTests and
    /// CustomJSONEquivalentTests.
    @Test("003 Fetching queries: CustomJSON over [String: Any] as written does not compile; the compiler names JSONDecodable")
    func seed003CustomJSONAsWritten() async throws {
        let result = try await BuiltModules.typecheck(
            """
            import Baton

            enum CustomJSON {
              case dictionary([String: Any])
              case array([Any])
            }

            extension CustomJSON: JSONDecodable {
              init(jsonValue value: JSONValue) throws {
                if let dict = value as? [String: Any] {
                  self = .dictionary(dict)
                } else if let array = value as? [Any] {
                  self = .array(array)
                } else {
                  throw JSONDecodingError.couldNotConvert(value: value, to: CustomJSON.self)
                }
              }
            }
            """)
        #expect(result.status != 0)
        #expect(result.errors.contains("JSONDecodable"), "\(result.errors)")
    }

    /// Compiles; at run time `JSONSerialization` refuses `data.jsonObject` (Baton's `JSONObject`
    /// is not a Foundation object): see the "Coming from Apollo iOS" article.
    @Test("003 Fetching queries: JSON serialization with data.jsonObject (compiled, not run)")
    func seed003JSONSerialization() async throws {
        let result = try await BuiltModules.typecheck(
            """
            import Baton
            import BatonExampleAPI
            import Foundation

            let apollo = BatonClient(url: URL(string: "http://127.0.0.1:4000/graphql")!)
            apollo.fetch(query: HeroAndFriendsNamesQuery(episode: .empire)) { result in
              guard let data = try? result.get().data else { return }

              // Serialize the response as JSON
              let json = data.jsonObject
              let serialized = try! JSONSerialization.data(withJSONObject: json, options: [])
              
              // Deserialize the response
              let deserialized = try! JSONSerialization.jsonObject(with: serialized, options: []) as! JSONObject
              let heroAndFriendsNames = try! HeroAndFriendsNamesQuery.Data(jsonObject: deserialized)
            }
            """)
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test("002 Working with Mutations: the preflight delegate, HTTPNetworkTransport(url:delegate:) in Network's lazy var, as written")
    func seed002PreflightDelegate() async throws {
        let result = try await BuiltModules.typecheck(
            """
            import Baton
            import Foundation

            final class KeychainSwift { func get(_ key: String) -> String? { nil } }
            enum LoginViewController { static let loginKeychainKey = "login" }

            @MainActor final class Network {
            static let shared = Network()
            private(set) lazy var apollo: BatonClient = {
              let httpNetworkTransport = HTTPNetworkTransport(url: URL(string: "https://apollo-fullstack-tutorial.herokuapp.com/")!, 
                                                              delegate: self)
                    
              return BatonClient(networkTransport: httpNetworkTransport)
            }()
            }

            extension Network: HTTPNetworkTransportPreflightDelegate { 
            func networkTransport(_ networkTransport: HTTPNetworkTransport, 
                                  shouldSend request: URLRequest) -> Bool {
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
            """)
        #expect(result.status == 0, "\(result.errors)")
    }

}
