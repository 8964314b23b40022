import BatonAPI
@_spi(BatonStorage) import BatonStore
import Testing

/// relay-runtime's reader tests for `@catch` (RelayReader-CatchFields-test), `@required`
/// (RelayReader-RequiredFields-test) and `@throwOnFieldError` with `@semanticNonNull`
/// (RelayReader-ThrowOnFieldError-test), as Baton reads them: the store's reader gives the data
/// with kept field errors, and the selection plan's field-error pass applies the directives.
@Suite("@catch, @required, @throwOnFieldError")
struct FieldErrorDirectiveTests {
    /// The read of `selections` from `source`, with the directives applied, and the paths that
    /// `@required(action: LOG)` logged.
    func read(
        _ selections: [Selection], from source: RecordSource
    ) throws(SelectionSetDecodingError) -> (data: JSONObject?, logged: [ResponsePath], errors: [GraphQLError]) {
        let read = Reader.read(selections: selections, rootType: "Query", source: source)
        var logged: [ResponsePath] = []
        var path: [ResponsePath.Component] = []
        do {
            let data = try SelectionPlan(selections, parentType: "Query", variables: [:])
                .resolveFieldErrors(read.data ?? [:], path: &path) { logged.append($0) }
            return (data, logged, read.fieldErrors)
        } catch {
            throw error.decodingError
        }
    }

    func source(user fields: RecordFields) -> RecordSource {
        var source = RecordSource()
        source.set(Record(id: .rootID, typename: "__Root", fields: ["me": .link("1")]))
        source.set(Record(id: "1", typename: "User", fields: fields))
        return source
    }

    func me(_ selections: [Selection], handling: FieldErrorHandling? = nil, alias: String? = nil) -> Selection {
        .field("me", alias: alias, type: .object("User"), errorHandling: handling, selections: selections)
    }

    static let lastNameError = GraphQLError(message: "There was an error!", path: [])
    static let lastNameErrorAtMe = GraphQLError(message: "There was an error!", path: ["me", "lastName"])

    // MARK: @catch (RelayReader-CatchFields-test)

    @Test func ifScalarHasCatchToNullScalarValueShouldBeNullAndNothingShouldThrowOrCatch() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(catchTarget: .null))])],
            from: source(user: ["lastName": .null]))
        #expect(result.data == ["me": ["lastName": nil]])
        #expect(result.errors.isEmpty)
    }

    @Test func ifScalarHasCatchToResultScalarValueShouldProvideTheError() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(catchTarget: .result))])],
            from: source(user: ["lastName": .fieldErrors([Self.lastNameError])]))
        let lastName = try #require(result.data?["me"]?["lastName"])
        #expect(Result<String?, GraphQLFieldError>._fromJSON(lastName) == .failure(GraphQLFieldError(errors: [Self.lastNameErrorAtMe])))
        #expect(result.errors == [Self.lastNameErrorAtMe])
    }

    @Test func ifScalarHasCatchToResultButNoErrorResponseShouldReflect() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(catchTarget: .result))])],
            from: source(user: ["lastName": .scalar("Big Bird")]))
        let lastName = try #require(result.data?["me"]?["lastName"])
        #expect(Result<String?, GraphQLFieldError>._fromJSON(lastName) == .success("Big Bird"))
    }

    @Test func ifPrecedingScalarSiblingHasErrorCatchToResultShouldNotCatchThatError() throws {
        let result = try read(
            [
                me([
                    .field("lastName", type: .scalar("String")),
                    .field("firstName", type: .scalar("String"), errorHandling: FieldErrorHandling(catchTarget: .result)),
                ])
            ], from: source(user: ["lastName": .fieldErrors([Self.lastNameError]), "firstName": .scalar("Elizabeth")]))
        let me = try #require(result.data?["me"]?.objectValue)
        #expect(Result<String?, GraphQLFieldError>._fromJSON(me["firstName"]!) == .success("Elizabeth"))
        // The sibling's error is not caught: it reads as null and is reported.
        #expect(String?._fromJSON(me["lastName"]!) == .some(nil))
        #expect(result.errors == [Self.lastNameErrorAtMe])
    }

    @Test func ifPrecedingSiblingHasALoggedMissingRequiredFieldAThrowRequiredFieldInsideASubsequentCatchShouldNotDeleteThatLog() throws {
        let result = try read(
            [
                me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .log))], alias: "alsoMe"),
                me(
                    [.field("firstName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw))],
                    handling: FieldErrorHandling(catchTarget: .result)),
            ], from: source(user: ["lastName": .null, "firstName": .null]))
        #expect(result.data?["alsoMe"] == .null)
        #expect(result.logged == [["alsoMe", "lastName"]])
        let failure = try #require(FieldErrorMarker.errors(in: result.data?["me"] ?? .null))
        #expect(failure.map(\.path) == [["me", "firstName"]])
    }

    @Test func catchToNullCatchingARequiredThrowReturnsNull() throws {
        let result = try read(
            [
                me(
                    [.field("firstName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw))],
                    handling: FieldErrorHandling(catchTarget: .null))
            ], from: source(user: ["firstName": .null]))
        #expect(result.data == ["me": nil])
    }

    @Test func catchOnAnObjectCatchesAFieldErrorBelowIt() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"))], handling: FieldErrorHandling(catchTarget: .result))],
            from: source(user: ["lastName": .fieldErrors([Self.lastNameError])]))
        #expect(FieldErrorMarker.errors(in: result.data?["me"] ?? .null) == [Self.lastNameErrorAtMe])
    }

    // MARK: @required (RelayReader-RequiredFields-test)

    @Test func bubblesNullUpToTheFirstNullableParentNone() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .silent))])],
            from: source(user: ["lastName": .null]))
        #expect(result.data == ["me": nil])
        #expect(result.logged.isEmpty)
    }

    @Test func bubblesNullUpToTheRootWhenEveryParentIsRequired() throws {
        let result = try read(
            [
                me(
                    [.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .silent))],
                    handling: FieldErrorHandling(required: .silent))
            ], from: source(user: ["lastName": .null]))
        #expect(result.data == nil)
    }

    @Test func logsAMissingRequiredFieldAndBubblesItsNull() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .log))])],
            from: source(user: ["lastName": .null]))
        #expect(result.data == ["me": nil])
        #expect(result.logged == [["me", "lastName"]])
    }

    @Test func throwsIfARequiredThrowFieldIsNullNamingThePath() throws {
        let error = #expect(throws: SelectionSetDecodingError.self) {
            _ = try read(
                [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw))])],
                from: source(user: ["lastName": .null]))
        }
        #expect(error?.path == ["me", "lastName"])
    }

    @Test func aFieldErrorAtARequiredFieldCountsAsNull() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .silent))])],
            from: source(user: ["lastName": .fieldErrors([Self.lastNameError])]))
        #expect(result.data == ["me": nil])
    }

    @Test func aRequiredFieldWithAValueReadsAsItIs() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw))])],
            from: source(user: ["lastName": .scalar("Bird")]))
        #expect(result.data == ["me": ["lastName": "Bird"]])
    }

    @Test func aRequiredNullInAListItemNullsTheItem() throws {
        var source = RecordSource()
        source.set(Record(id: .rootID, typename: "__Root", fields: ["friends": .list([.link("1"), .link("2")])]))
        source.set(Record(id: "1", typename: "User", fields: ["name": .scalar("Ann")]))
        source.set(Record(id: "2", typename: "User", fields: ["name": .null]))
        let result = try read(
            [
                .field(
                    "friends", type: .list(.object("User")),
                    selections: [.field("name", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .silent))])
            ], from: source)
        #expect(result.data == ["friends": [["name": "Ann"], nil]])
    }

    // MARK: @throwOnFieldError and @semanticNonNull (RelayReader-ThrowOnFieldError-test)

    @Test func throwOnFieldErrorThrowsOnAFieldErrorNamingThePathAndTheErrors() throws {
        let error = #expect(throws: SelectionSetDecodingError.self) {
            _ = try read(
                [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(throwsOnFieldError: true))])],
                from: source(user: ["lastName": .fieldErrors([Self.lastNameError])]))
        }
        #expect(error?.path == ["me", "lastName"])
        #expect(error?.fieldErrors == [Self.lastNameErrorAtMe])
    }

    @Test func throwOnFieldErrorDoesNotThrowForANullWithoutSemanticNonNull() throws {
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(throwsOnFieldError: true))])],
            from: source(user: ["lastName": .null]))
        #expect(result.data == ["me": ["lastName": nil]])
    }

    @Test func semanticNonNullUnderThrowOnFieldErrorThrowsOnANull() throws {
        let error = #expect(throws: SelectionSetDecodingError.self) {
            _ = try read(
                [
                    me([
                        .field(
                            "lastName", type: .scalar("String"),
                            errorHandling: FieldErrorHandling(throwsOnFieldError: true, semanticNonNullLevels: [0]))
                    ])
                ], from: source(user: ["lastName": .null]))
        }
        #expect(error?.path == ["me", "lastName"])
    }

    @Test func semanticNonNullAtTheItemLevelThrowsOnANullItemOnly() throws {
        let handling = FieldErrorHandling(throwsOnFieldError: true, semanticNonNullLevels: [1])
        let list: [Selection] = [me([.field("nicknames", type: .list(.scalar("String")), errorHandling: handling)])]
        let empty = try read(list, from: source(user: ["nicknames": .null]))
        #expect(empty.data == ["me": ["nicknames": nil]])
        let error = #expect(throws: SelectionSetDecodingError.self) {
            _ = try read(list, from: source(user: ["nicknames": .scalar(["a", nil])]))
        }
        #expect(error?.path == ["me", "nicknames", 1])
    }

    @Test func catchAroundThrowOnFieldErrorCatchesTheError() throws {
        let handling = FieldErrorHandling(catchTarget: .result, throwsOnFieldError: true, semanticNonNullLevels: [0])
        let result = try read(
            [me([.field("lastName", type: .scalar("String"), errorHandling: handling)])],
            from: source(user: ["lastName": .fieldErrors([Self.lastNameError])]))
        #expect(FieldErrorMarker.errors(in: result.data?["me"]?["lastName"] ?? .null) == [Self.lastNameErrorAtMe])
    }

    // MARK: Typed data

    struct MeData: RootSelectionSet {
        static let __parentType = TypeCondition("Query")
        static let __selections: [Selection] = [
            .field(
                "me", type: .object("User"),
                selections: [
                    .field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(catchTarget: .result)),
                    .field("firstName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw)),
                ])
        ]
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        var lastName: Result<String?, GraphQLFieldError>? { __data.object["me"]?["lastName"].flatMap(Result<String?, GraphQLFieldError>._fromJSON) }
    }

    @Test func initFromJSONAppliesTheDirectivesToTheStoresData() throws {
        let read = Reader.read(
            selections: MeData.__selections, rootType: "Query",
            source: source(user: ["lastName": .fieldErrors([Self.lastNameError]), "firstName": .scalar("Ann")]))
        let data = try MeData(jsonObject: try #require(read.data))
        #expect(data.lastName == .failure(GraphQLFieldError(errors: [Self.lastNameErrorAtMe])))
        let failing = Reader.read(selections: MeData.__selections, rootType: "Query", source: source(user: ["lastName": .scalar("B"), "firstName": .null]))
        #expect(throws: SelectionSetDecodingError.self) { try MeData(jsonObject: try #require(failing.data)) }
    }
}
