import Baton
import BatonAPI
import BatonStore
import BatonTesting
import Testing

/// `fragment ProfileName on User @throwOnFieldError { name }` with `name` `@semanticNonNull`.
struct ProfileName: GraphQLFragment {
    static let fragmentName = "ProfileName"
    static let fragmentDefinition = "fragment ProfileName on User { __typename name }"
    static let __parentType = TypeCondition("User")
    static let __selections: [Selection] = [
        .field("__typename", type: .nonNull(.scalar("String"))),
        .field("name", type: .scalar("String"), errorHandling: FieldErrorHandling(throwsOnFieldError: true, semanticNonNullLevels: [0])),
    ]
    let __data: DataDict
    init(_dataDict: DataDict) { __data = _dataDict }
    var name: String { __data["name"] }
}

/// `query CaughtProfile @catch(to: RESULT) { me { id name @required(action: THROW) } }`
struct CaughtProfileQuery: GraphQLQuery {
    static let operationName = "CaughtProfile"
    static let operationDocument = "query CaughtProfile { me { __typename id name } }"
    static let operationIdentifier = "caught-profile"

    struct Data: RootSelectionSet {
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        static let __parentType = TypeCondition("Query")
        static let __catchTarget: FieldErrorHandling.CatchTarget? = .result
        static let __selections: [Selection] = [
            .field(
                "me", type: .object("User"),
                selections: [
                    .field("__typename", type: .nonNull(.scalar("String"))),
                    .field("id", type: .nonNull(.scalar("ID"))),
                    .field("name", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw)),
                ])
        ]
    }
}

/// A read of the store that `@required(action: THROW)` or `@throwOnFieldError` fails is an
/// answer (its typed error), not a cache miss: the store's typed reads, the partial-data read,
/// watches and observers say so instead of refetching or showing nothing (relay-runtime throws
/// such reads to the component, Apollo Kotlin's `@catch` does likewise).
@Suite("Scenario: reads that the field-error directives fail")
struct FieldErrorReadFailureScenario {
    static let nameError: JSONValue = ["message": "no name", "path": ["me", "name"]]

    /// A store holding Ann's profile whose name the server could not give.
    func failingStore(_ scenario: Scenario) async throws {
        scenario.transport.enqueue(body: FieldErrorsScenario.response(name: nil, errors: [Self.nameError]), for: ProfileQuery.self)
        await #expect(throws: BatonError.self) {
            _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        }
    }

    @Test func storeReadThrowsTheFieldErrorNotACacheMiss() async throws {
        let scenario = Scenario()
        try await failingStore(scenario)
        do {
            _ = try scenario.client.store.read(query: ProfileQuery())
            Issue.record("the read did not fail")
        } catch let error as SelectionSetDecodingError {
            #expect(error.path == ["me", "name"])
            #expect(error.fieldErrors.map(\.message) == ["no name"])
        }
        do {
            _ = try scenario.client.store.read(fragment: ProfileName.self, id: "User:1")
            Issue.record("the fragment read did not fail")
        } catch let error as SelectionSetDecodingError {
            #expect(error.path == ["name"])
        }
    }

    @Test func readFromCacheGivesTheFailureNotPartialData() async throws {
        let scenario = Scenario()
        try await failingStore(scenario)
        let read = scenario.client.readFromCache(query: ProfileQuery())
        guard case .failed(let error) = read else {
            Issue.record("read as \(read)")
            return
        }
        #expect(error.path == ["me", "name"])
        #expect(read.missingPaths.isEmpty)
        #expect(scenario.client.readFromCache(fragment: ProfileName.self, id: "User:1").error?.path == ["name"])
    }

    /// The watch emits the failure (no data, the field's error and one saying the read failed)
    /// and does not refetch: the server's answer would be the same.
    @Test func aWatchSurfacesTheFailureInsteadOfRefetching() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: FieldErrorsScenario.response(), for: ProfileQuery.self)
        var updates = scenario.client.watch(query: ProfileQuery()).makeAsyncIterator()
        let first = try await updates.next()
        #expect(first?.data?.me?.name == "Ann")
        try await failingStore(scenario)
        let failed = try #require(try await updates.next())
        #expect(failed.data == nil)
        #expect(failed.errors?.first?.message == "no name")
        #expect(failed.errors?.last?.extensions?["code"] == .string(fieldErrorThrownErrorCode))
        #expect(failed.errors?.last?.path == ["me", "name"])
        for _ in 0..<100 { await Task.yield() }
        #expect(scenario.transport.requests(of: ProfileQuery.self).count == 2)
    }

    @Test func anObjectWatchEndsWithTheFailureAndSnapshotsCarryIt() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: FieldErrorsScenario.response(), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery())
        var snapshots = scenario.client.snapshots(of: ProfileName.self, id: "User:1").makeAsyncIterator()
        var names = scenario.client.watch(object: ProfileName.self, id: "User:1").makeAsyncIterator()
        #expect(await snapshots.next()?.data?.name == "Ann")
        #expect(try await names.next()?.name == "Ann")
        try await failingStore(scenario)
        let failed = await snapshots.next()
        #expect(failed?.data == nil)
        #expect(failed?.isMissing == false)
        #expect(failed?.error?.path == ["name"])
        do {
            _ = try await names.next()
            Issue.record("the watch did not end with the failure")
        } catch BatonError.fieldErrorThrown(let name, let error) {
            #expect(name == "ProfileName")
            #expect(error.fieldErrors.map(\.message) == ["no name"])
        }
    }

    @Test @MainActor func aFragmentObserverShowsTheFailureAndClearsItWhenTheDataReads() async throws {
        let scenario = Scenario()
        scenario.transport.enqueue(body: FieldErrorsScenario.response(), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery())
        let observer = FragmentObserver<ProfileName>()
        observer.load(id: "User:1", client: scenario.client)
        #expect(observer.data?.name == "Ann")
        #expect(observer.error == nil)
        try await failingStore(scenario)
        try await waitUntil { observer.error != nil }
        guard case BatonError.fieldErrorThrown(_, let failure)? = observer.error else {
            Issue.record("observer error \(String(describing: observer.error))")
            return
        }
        #expect(failure.path == ["name"])
        #expect(observer.data == nil)
        scenario.transport.enqueue(body: FieldErrorsScenario.response(name: "Ann B."), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        try await waitUntil { observer.data?.name == "Ann B." }
        #expect(observer.error == nil)
    }

    @Test @MainActor func aQueryObserverShowsTheFailureAndGoesOnFollowingTheStore() async throws {
        let scenario = Scenario()
        try await failingStore(scenario)
        let observer = QueryObserver(client: scenario.client, query: ProfileQuery(), cachePolicy: .returnCacheDataDontFetch)
        guard case .failure(BatonError.fieldErrorThrown(let name, let failure)) = observer.state else {
            Issue.record("state \(observer.state)")
            return
        }
        #expect(name == "Profile")
        #expect(failure.path == ["me", "name"])
        // A later response mends the data: the observer shows it.
        scenario.transport.enqueue(body: FieldErrorsScenario.response(), for: ProfileQuery.self)
        _ = try await scenario.client.fetch(query: ProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        try await waitUntil { observer.data?.me?.name == "Ann" }
        // And breaks it again: shown as the failure, from the watch.
        try await failingStore(scenario)
        try await waitUntil {
            if case .failure = observer.state { return true }
            return false
        }
    }

    /// relay-runtime's `CatchMissingInQueryToResultError`, through the client: the operation's
    /// `@catch(to: RESULT)` gives no data and the failure as `catchResult`, from the server and
    /// from the store.
    @Test func catchOnTheOperationGivesTheFailureAsItsResult() async throws {
        let scenario = Scenario()
        let response: JSONObject = ["data": ["me": ["__typename": "User", "id": "1", "name": nil]], "errors": [Self.nameError]]
        scenario.transport.enqueue(body: response, for: CaughtProfileQuery.self)
        let fetched = try await scenario.client.fetch(query: CaughtProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(fetched.data == nil)
        guard case .failure(let caught)? = fetched.catchResult else {
            Issue.record("catchResult \(String(describing: fetched.catchResult))")
            return
        }
        #expect(caught.errors.map(\.message) == ["no name"])
        let cached = try await scenario.client.fetch(query: CaughtProfileQuery(), cachePolicy: .returnCacheDataDontFetch)
        #expect(cached.source == .cache)
        #expect(cached.catchResult.map { if case .failure = $0 { true } else { false } } == true)

        scenario.transport.enqueue(body: ["data": ["me": ["__typename": "User", "id": "1", "name": "Ann"]]], for: CaughtProfileQuery.self)
        let good = try await scenario.client.fetch(query: CaughtProfileQuery(), cachePolicy: .fetchIgnoringCacheData)
        #expect(good.data != nil)
        #expect(good.catchResult.map { if case .success = $0 { true } else { false } } == true)
    }
}
