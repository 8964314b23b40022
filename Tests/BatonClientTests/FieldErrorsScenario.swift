import Baton
import BatonAPI
import BatonStore
import BatonTesting
import Testing

/// An operation as the generator renders `query Profile @throwOnFieldError { me { id name
/// email @catch(to: RESULT) age @required(action: LOG) } }` over a schema where `name` is
/// `@semanticNonNull`.
struct ProfileQuery: GraphQLQuery {
    static let operationName = "Profile"
    static let operationDocument = "query Profile { me { __typename id name email age } }"
    static let operationIdentifier = "profile"

    struct Data: RootSelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        static let __parentType = TypeCondition("Query")
        static let __selections: [Selection] = [.field("me", type: .object("User"), selections: Me.__selections)]
        var me: Me? { __data["me"] }

        struct Me: SelectionSet {
            let __data: DataDict
            init(_dataDict: DataDict) { __data = _dataDict }
            static let __parentType = TypeCondition("User")
            static let __selections: [Selection] = [
                .field("__typename", type: .nonNull(.scalar("String"))),
                .field("id", type: .nonNull(.scalar("ID"))),
                .field(
                    "name", type: .scalar("String"),
                    errorHandling: FieldErrorHandling(throwsOnFieldError: true, semanticNonNullLevels: [0])),
                .field("email", type: .scalar("String"), errorHandling: FieldErrorHandling(catchTarget: .result, throwsOnFieldError: true)),
                .field("age", type: .scalar("Int"), errorHandling: FieldErrorHandling(required: .log, throwsOnFieldError: true)),
            ]
            var id: String { __data["id"] }
            var name: String { __data["name"] }
            var email: Result<String?, GraphQLFieldError> { __data["email"] }
            var age: Int { __data["age"] }
        }
    }
}

/// The client with field errors (Apollo Kotlin's normalized cache error tests, relay-runtime's
/// environment tests of `@catch` and `@throwOnFieldError`): a response's errors reach the typed
/// result as the directives say, are kept in the store, and come back from the cache.
@Suite("Scenario: field errors from the server and the cache")
struct FieldErrorsScenario {
    static func response(email: JSONValue = "ann@example.com", name: JSONValue = "Ann", age: JSONValue = 30, errors: [JSONValue] = [])
        -> JSONObject
    {
        var body: JSONObject = ["data": ["me": ["__typename": "User", "id": "1", "name": name, "email": email, "age": age]]]
        if !errors.isEmpty { body["errors"] = .list(errors) }
        return body
    }

    static let emailError: JSONValue = ["message": "email service down", "path": ["me", "email"], "extensions": ["code": "DOWN"]]

    @Test func aCaughtErrorIsAFailureFromTheServerAndAgainFromTheCache() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.response(email: nil, errors: [Self.emailError]), for: ProfileQuery.self)
        let fetched = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        let expected = GraphQLError(message: "email service down", path: ["me", "email"], extensions: ["code": "DOWN"])
        #expect(fetched.data?.me?.email == .failure(GraphQLFieldError(errors: [expected])))
        #expect(fetched.data?.me?.name == "Ann")
        #expect(fetched.errors == [expected])

        // The store kept the error: a cache read gives it, not a miss and not a null.
        let cached = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .returnCacheDataDontFetch)
        #expect(cached.source == .cache)
        #expect(cached.data?.me?.email == .failure(GraphQLFieldError(errors: [expected])))
        #expect(cached.errors == [expected])
    }

    @Test func aLaterResponseOverwritesTheKeptError() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.response(email: nil, errors: [Self.emailError]), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        scenario.transport.enqueue(body: Self.response(), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        let cached = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .returnCacheDataDontFetch)
        #expect(cached.data?.me?.email == .success("ann@example.com"))
        #expect(cached.errors == nil)
    }

    @Test func aSemanticNonNullFieldErrorUnderThrowOnFieldErrorFailsTheFetchNamingThePathButIsCached() async throws {
        let scenario = Scenario()
        let nameError: JSONValue = ["message": "no name", "path": ["me", "name"]]
        scenario.transport.enqueue(body: Self.response(name: nil, errors: [nameError]), for: ProfileQuery.self)
        do {
            _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
            Issue.record("a field error under @throwOnFieldError did not throw")
        } catch BatonError.fieldErrorThrown(let name, let error) {
            #expect(name == "Profile")
            #expect(error.path == ["me", "name"])
            #expect(error.fieldErrors.map(\.message) == ["no name"])
        }
        // The response was written, error included: a store-only read fails the same way.
        do {
            _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .returnCacheDataDontFetch)
            Issue.record("the cached field error did not throw")
        } catch BatonError.fieldErrorThrown(_, let error) {
            #expect(error.path == ["me", "name"])
        }
        // A policy that may fetch fetches instead of answering with a read that fails.
        scenario.transport.enqueue(body: Self.response(), for: ProfileQuery.self)
        let refetched = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .returnCacheDataElseFetch)
        #expect(refetched.source == .server)
        #expect(refetched.data?.me?.name == "Ann")
    }

    @Test func aWatcherHearsAFieldErrorKeptByAnotherFetch() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.response(), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        var updates = scenario.client.watch(query: ProfileQuery(), cachePolicy: .returnCacheDataDontFetch).makeAsyncIterator()
        let first = try await updates.next()
        #expect(first?.data?.me?.email == .success("ann@example.com"))
        scenario.transport.enqueue(body: Self.response(email: nil, errors: [Self.emailError]), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        let second = try await updates.next()
        let expected = GraphQLError(message: "email service down", path: ["me", "email"], extensions: ["code": "DOWN"])
        #expect(second?.data?.me?.email == .failure(GraphQLFieldError(errors: [expected])))
        #expect(second?.errors == [expected])
    }

    @Test func aRequiredLogNullMakesTheParentNil() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: Self.response(age: nil), for: ProfileQuery.self)
        let fetched = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(fetched.data != nil)
        #expect(fetched.data?.me == nil)
    }

    @Test func partialDataFromTheCacheSaysWhatIsMissing() async throws {
        let scenario = Scenario()
        #expect(scenario.client.readFromCache(query: ProfileQuery()).missingPaths == [ResponsePath()])
        if case .missing = scenario.client.readFromCache(query: ProfileQuery()) {} else { Issue.record("an empty store is not missing") }
        scenario.transport.enqueue(body: Self.response(), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        guard case .complete(let data, let errors) = scenario.client.readFromCache(query: ProfileQuery()) else {
            Issue.record("a full store is not complete")
            return
        }
        #expect(data.me?.name == "Ann")
        #expect(errors.isEmpty)
        // Another store holding the user without `age` (not a null `age`: no value at all).
        let other = Scenario()
        var records = RecordSource()
        records.set(Record(id: .rootID, typename: "__Root", fields: ["me": .link("User:1")]))
        records.set(
            Record(id: "User:1", typename: "User", fields: ["id": .scalar("1"), "name": .scalar("Ann"), "email": .scalar("a@b.c")]))
        other.client.store.publish(records)
        guard case .partial(let partial) = other.client.readFromCache(query: ProfileQuery()) else {
            Issue.record("a store without `age` is not partial")
            return
        }
        #expect(partial.missingPaths == [["me", "age"]])
        #expect(partial.jsonObject["me"]?["name"] == "Ann")
        #expect(partial.jsonObject["me"]?["age"] == nil)
        // The single-result policy still calls it a miss.
        await #expect(throws: BatonError.self) {
            _ = try await other.client.fetch(query: ProfileQuery(), cachePolicy: .returnCacheDataDontFetch)
        }
    }
}
