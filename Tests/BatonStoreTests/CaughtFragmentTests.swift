import BatonAPI
@_spi(BatonStorage) import BatonStore
import Testing

/// `@catch` on a fragment's definition, an aliased inline fragment and an operation
/// (relay-runtime's RelayReader-CatchFields-test: `CatchToResultFragment`,
/// `CatchMissingInInlineFragmentToResultError`, `CatchMissingInQueryToResultError`), as Baton
/// reads them: a failure in the fragment's fields fails the fragment's accessor alone, and one in
/// a caught operation gives no data with what was caught.
@Suite("@catch on fragments, inline fragments and operations")
struct CaughtFragmentTests {
    static let lastNameError = GraphQLError(message: "There was an error!", path: [])
    static let lastNameErrorAtMe = GraphQLError(message: "There was an error!", path: ["me", "lastName"])

    /// `fragment UserName on User @catch(to:) { lastName  firstName @required(action: THROW) }`
    struct UserName: GraphQLFragment {
        static let fragmentName = "UserName"
        static let fragmentDefinition = "fragment UserName on User @catch { lastName firstName @required(action: THROW) }"
        static let __parentType = TypeCondition("User")
        static let __catchTarget: FieldErrorHandling.CatchTarget? = .result
        static let __selections: [Selection] = [
            .field("__typename", type: .nonNull(.scalar("String"))),
            .field("lastName", type: .scalar("String")),
            .field("firstName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw)),
        ]
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        var lastName: String? { __data["lastName"] }
        var firstName: String { __data["firstName"] }
    }

    /// `query { me { id ...UserName } }`, the spread read through `fragments.userName`.
    struct MeData: RootSelectionSet {
        static let __parentType = TypeCondition("Query")
        static let __selections: [Selection] = [.field("me", type: .object("User"), selections: Me.__selections)]
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
        var me: Me? { __data["me"] }

        struct Me: SelectionSet {
            static let __parentType = TypeCondition("User")
            static let __selections: [Selection] = [
                .field("__typename", type: .nonNull(.scalar("String"))),
                .field("id", type: .nonNull(.scalar("ID"))),
                .fragment("UserName", on: UserName.__parentType, catching: .result, selections: UserName.__selections),
            ]
            let __data: DataDict
            init(_dataDict: DataDict) { __data = _dataDict }
            var id: String { __data["id"] }
            var userName: Result<UserName, GraphQLFieldError> { __data._catchingResult(FieldErrorMarker.caughtKey(fragment: "UserName")) { UserName(_dataDict: __data) } }
        }
    }

    /// `query { me { id ... on User @alias(as: "named") @catch(to:) { firstName @required(action: THROW) } } }`
    struct InlineData: RootSelectionSet {
        static let __parentType = TypeCondition("Query")
        static func selections(_ target: FieldErrorHandling.CatchTarget) -> [Selection] {
            [
                .field(
                    "me", type: .object("User"),
                    selections: [
                        .field("__typename", type: .nonNull(.scalar("String"))),
                        .field("id", type: .nonNull(.scalar("ID"))),
                        .inlineFragment(
                            on: TypeCondition("User"), catching: target, alias: "named",
                            selections: [.field("firstName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw))]),
                    ])
            ]
        }
        static let __selections: [Selection] = selections(.result)
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
    }

    /// `query @catch(to: RESULT) { me { lastName @required(action: THROW) } }`
    struct CaughtQueryData: RootSelectionSet {
        static let __parentType = TypeCondition("Query")
        static let __catchTarget: FieldErrorHandling.CatchTarget? = .result
        static let __selections: [Selection] = [
            .field(
                "me", type: .object("User"),
                selections: [.field("lastName", type: .scalar("String"), errorHandling: FieldErrorHandling(required: .throw))])
        ]
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
    }

    func source(user fields: RecordFields) -> RecordSource {
        var source = RecordSource()
        source.set(Record(id: .rootID, typename: "__Root", fields: ["me": .link("1")]))
        source.set(Record(id: "1", typename: "User", fields: fields))
        return source
    }

    func read<T: SelectionSet>(_: T.Type, _ fields: RecordFields) throws -> (data: T?, caught: GraphQLFieldError?) {
        let read = Reader.read(selections: T.__selections, rootType: "Query", source: source(user: fields))
        return try T._resolvingFieldErrorsCatching(checked: try #require(read.data))
    }

    @Test func catchToResultFragmentGivesTheFieldErrorToTheFragmentAlone() throws {
        let result = try read(
            MeData.self, ["__typename": .scalar("User"), "id": .scalar("1"), "lastName": .fieldErrors([Self.lastNameError]), "firstName": .scalar("Ann")])
        let me = try #require(result.data?.me)
        #expect(result.caught == nil)
        #expect(me.id == "1")  // the rest reads on
        #expect(me.userName.failure == GraphQLFieldError(errors: [Self.lastNameErrorAtMe]))
    }

    @Test func catchToResultFragmentCatchesARequiredThrowInside() throws {
        let result = try read(MeData.self, ["__typename": .scalar("User"), "id": .scalar("1"), "lastName": .scalar("B"), "firstName": .null])
        let me = try #require(result.data?.me)
        let failure = try #require(me.userName.failure)
        #expect(failure.path == ["me", "firstName"])
    }

    @Test func catchToResultFragmentWithoutErrorsReadsTheFragment() throws {
        let result = try read(MeData.self, ["__typename": .scalar("User"), "id": .scalar("1"), "lastName": .scalar("Bird"), "firstName": .scalar("Big")])
        let name = try #require(try result.data?.me?.userName.get())
        #expect(name.firstName == "Big")
        #expect(name.lastName == "Bird")
    }

    @Test func aFragmentReadOnItsOwnUnderCatchGivesNoDataAndWhatWasCaught() throws {
        let read = Reader.read(
            selections: UserName.__selections, rootID: "1", rootType: "User",
            source: source(user: ["__typename": .scalar("User"), "lastName": .scalar("B"), "firstName": .null]))
        let result = try UserName._resolvingFieldErrorsCatching(checked: try #require(read.data))
        #expect(result.data == nil)
        #expect(result.caught?.path == ["firstName"])
        #expect(throws: SelectionSetDecodingError.self) { try UserName(jsonObject: try #require(read.data)) }
    }

    @Test func catchMissingInInlineFragmentToResultError() throws {
        let fields: RecordFields = ["__typename": .scalar("User"), "id": .scalar("1"), "firstName": .null]
        let result = try read(InlineData.self, fields)
        let me = try #require(result.data?.__data.object["me"]?.objectValue)
        let caught = try #require(me[FieldErrorMarker.caughtKey(inlineFragment: "named")])
        #expect(FieldErrorMarker.errors(in: caught)?.first?.path == ["me", "firstName"])
        let asData = DataDict(me)
        let named: Result<InlineData.Named, GraphQLFieldError>? = asData._catchingConditionalResult(FieldErrorMarker.caughtKey(inlineFragment: "named")) {
            InlineData.Named(_dataDict: asData)
        }
        #expect(named?.failure?.path == ["me", "firstName"])
        #expect(me["id"] == "1")
    }

    @Test func catchToNullOnAnInlineFragmentReadsNil() throws {
        let selections = InlineData.selections(.null)
        let read = Reader.read(
            selections: selections, rootType: "Query", source: source(user: ["__typename": .scalar("User"), "id": .scalar("1"), "firstName": .null]))
        var path: [ResponsePath.Component] = []
        let object = try #require(read.data)
        let data = try #require(
            try SelectionPlan(selections, parentType: "Query", variables: [:], separatesCaughtFragments: true)
                .resolveFieldErrors(object, path: &path) { _ in })
        let me = DataDict(try #require(data["me"]?.objectValue))
        #expect(me._catchingNull(FieldErrorMarker.caughtKey(inlineFragment: "named")) { InlineData.Named(_dataDict: me) } == nil)
    }

    @Test func catchMissingInQueryToResultError() throws {
        let result = try read(CaughtQueryData.self, ["__typename": .scalar("User"), "lastName": .null])
        #expect(result.data == nil)
        #expect(result.caught?.path == ["me", "lastName"])
        let fine = try read(CaughtQueryData.self, ["__typename": .scalar("User"), "lastName": .scalar("Bird")])
        #expect(fine.data != nil)
        #expect(fine.caught == nil)
    }

    @Test func aStoreReadOfACaughtQueryThrowsTheCaughtErrorsNotAMiss() throws {
        let store = Store()
        store.publish(source(user: ["__typename": .scalar("User"), "lastName": .fieldErrors([Self.lastNameError])]))
        let descriptor = OperationDescriptor(name: "CaughtQuery", selections: CaughtQueryData.__selections, variables: [:], rootType: "Query")
        let read = store.read(descriptor)
        let object = try #require(read.data)
        let typed = try #require(Store.typedRead(CaughtQueryData.self, object, variables: [:]))
        guard case .failure(let failure) = typed else {
            Issue.record("a caught query reads as its failure")
            return
        }
        #expect(failure.fieldErrors == [Self.lastNameErrorAtMe])
    }
}

extension CaughtFragmentTests.InlineData {
    struct Named: InlineFragment {
        static let __parentType = TypeCondition("User")
        static let __selections: [Selection] = []
        let __data: DataDict
        init(_dataDict: DataDict) { __data = _dataDict }
    }
}

extension Result {
    /// The failure, if this is one.
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
