import BatonAPI
import BatonExampleAPI
import BatonStore
import Testing

// Cases of Apollo iOS's own cache tests (apollographql/apollo-ios-dev), as facts about Baton:
//   Tests/ApolloTests/CacheKeyResolutionTests.swift
//   Tests/ApolloTests/GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift
//   Tests/ApolloTests/Cache/LoadQueryFromStoreTests.swift
//   Tests/ApolloTests/Cache/ReadWriteFromStoreTests.swift
// Apollo's typed mock selection sets become hand-built selections. Where Apollo names a record
// by its path (`QUERY_ROOT.hero`), Baton uses relay-runtime's client IDs (`client:root:hero`);
// the facts are the same: objects without a cache key are stored under their place.

/// The hero queries of Apollo's tests, as selections.
private enum HeroSelections {
    static let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))

    /// `hero { __typename name }` (`hero(episode: $episode)` with `arguments`).
    static func name(arguments: [String: InputValue] = [:]) -> [Selection] {
        [.field("hero", type: .object("Character"), arguments: arguments, selections: [typename, .field("name", type: .nonNull(.scalar("String")))])]
    }

    /// `hero { __typename name friends { __typename name } }`, `friends` of `friendsType`.
    static func friends(_ friendsType: FieldType = .nonNull(.list(.nonNull(.object("Character"))))) -> [Selection] {
        [
            .field(
                "hero", type: .object("Character"),
                selections: [
                    typename, .field("name", type: .nonNull(.scalar("String"))),
                    .field("friends", type: friendsType, selections: [typename, .field("name", type: .nonNull(.scalar("String")))]),
                ])
        ]
    }

    /// `hero { __typename id name friends { __typename id name } }`
    static let friendsWithIDs: [Selection] = [
        .field(
            "hero", type: .object("Character"),
            selections: [
                typename, .field("id", type: .nonNull(.scalar("ID"))), .field("name", type: .nonNull(.scalar("String"))),
                .field(
                    "friends", type: .list(.object("Character")),
                    selections: [typename, .field("id", type: .nonNull(.scalar("ID"))), .field("name", type: .nonNull(.scalar("String")))]),
            ])
    ]

    static func query(_ selections: [Selection], variables: JSONObject = [:]) -> OperationDescriptor {
        OperationDescriptor(name: "HeroQuery", selections: selections, variables: variables, rootType: "Query")
    }

    static func root(_ fields: RecordFields) -> Record { Record(id: .rootID, typename: "Query", fields: fields) }

    static func store(_ records: [Record]) -> Store {
        let store = Store()
        store.publish(RecordSource(records: records))
        return store
    }

    static func friendNames(_ read: ReadResult) -> [JSONValue]? {
        read.data?["hero"]?["friends"]?.listValue?.map { $0["name"] ?? .null }
    }
}

// MARK: - CacheKeyResolutionTests

@Suite("Anchors: Apollo iOS CacheKeyResolutionTests")
struct ApolloCacheKeyResolutionCases {
    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_whenCacheKeyInfoIsNil_shouldReturnNil"
    @Test("CacheKeyResolutionTests: givenData whenCacheKeyInfoIsNil shouldReturnNil")
    func noKeyRuleGivesNoKey() {
        let noKeys = CacheKeyConfiguration(defaultKeyField: nil)
        #expect(noKeys.cacheKey(typename: "Alpha", object: ["__typename": "Alpha", "id": "α"]) == nil)
        // Without a typename the safe rule cannot qualify the id: no key either.
        #expect(CacheKeyConfiguration.default.cacheKey(typename: nil, object: ["id": "α"]) == nil)
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_whenUnknownType_withCacheKeyInfoForUnknownType_shouldReturnInfoWithTypeName"
    @Test("CacheKeyResolutionTests: givenData whenUnknownType withCacheKeyInfoForUnknownType shouldReturnInfoWithTypeName")
    func unknownTypeIsQualifiedByItsTypename() {
        #expect(CacheKeyConfiguration.default.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": "ω"]) == "Omega:ω")
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_whenKnownType_givenCacheKeyInfo_shouldReturnCacheReference"
    @Test("CacheKeyResolutionTests: givenData whenKnownType givenCacheKeyInfo shouldReturnCacheReference")
    func knownTypeGetsTypenameAndID() {
        let schema = CacheKeyConfiguration(schema: SchemaMetadata(objectTypes: ["MockSchemaObject"]))
        #expect(schema.cacheKey(typename: "MockSchemaObject", object: ["__typename": "MockSchemaObject", "id": "β"]) == "MockSchemaObject:β")
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_asInt_equalToBoolFalse_shouldNotConvertToBool"
    @Test("CacheKeyResolutionTests: givenData asInt equalToBoolFalse shouldNotConvertToBool")
    func integerZeroIsAKey() {
        #expect(CacheKeyConfiguration.default.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": 0]) == "Omega:0")
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_asInt_equalToBoolTrue_shouldNotConvertToBool"
    @Test("CacheKeyResolutionTests: givenData asInt equalToBoolTrue shouldNotConvertToBool")
    func integerOneIsAKey() {
        #expect(CacheKeyConfiguration.default.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": 1]) == "Omega:1")
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_asInt_outsideBoolRange_shouldReturnCacheReference"
    @Test("CacheKeyResolutionTests: givenData asInt outsideBoolRange shouldReturnCacheReference")
    func otherIntegersAreKeys() {
        #expect(CacheKeyConfiguration.default.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": 2]) == "Omega:2")
        #expect(CacheKeyConfiguration.globalIDs.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": 2]) == "2")
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_asBool_true_shouldNotConvertToInt"
    @Test("CacheKeyResolutionTests: givenData asBool true shouldNotConvertToInt")
    func booleanTrueIsNoKey() {
        #expect(CacheKeyConfiguration.default.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": true]) == nil)
        #expect(CacheKeyConfiguration.globalIDs.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": true]) == nil)
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenData_asBool_false_shouldNotConvertToInt"
    @Test("CacheKeyResolutionTests: givenData asBool false shouldNotConvertToInt")
    func booleanFalseIsNoKey() {
        #expect(CacheKeyConfiguration.default.cacheKey(typename: "Omega", object: ["__typename": "Omega", "id": false]) == nil)
        // An object without a key is stored under its place instead.
        let records = ResponseNormalizer.normalize(
            ["omega": ["__typename": "Omega", "id": false]],
            selections: [.field("omega", type: .object("Omega"), selections: [HeroSelections.typename, .field("id", type: .scalar("Boolean"))])],
            rootType: "Query")
        #expect(records[.rootID]?["omega"] == .link("client:root:omega"))
        #expect(records["client:root:omega"]?["id"] == .scalar(false))
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenSingleKeyField_shouldReturnKeyFieldValue"
    @Test("CacheKeyResolutionTests: givenSingleKeyField shouldReturnKeyFieldValue")
    func singleKeyField() {
        let keys = CacheKeyConfiguration(keyFields: ["Dog": ["id"]])
        #expect(keys.cacheKey(typename: "Dog", object: ["__typename": "Dog", "id": "10", "name": "Beagle"]) == "Dog:10")
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenMultipleKeyFields_shouldReturnKeyFieldValues"
    @Test("CacheKeyResolutionTests: givenMultipleKeyFields shouldReturnKeyFieldValues")
    func multipleKeyFieldsAreJoinedAndEscaped() {
        let keys = CacheKeyConfiguration(keyFields: ["Dog": ["id", "name"]])
        #expect(keys.cacheKey(typename: "Dog", object: ["__typename": "Dog", "id": "10", "name": "Beagle", "height": 20]) == "Dog:10+Beagle")
        // ANCHOR-EXPECTATION: Apollo escapes `\` and `+` inside key values, so that `10` + `Be\ag+le`
        // cannot collide with another split of the same text: `Dog:10+Be\\ag\+le`.
        #expect(
            keys.cacheKey(typename: "Dog", object: ["__typename": "Dog", "id": "10", "name": #"Be\ag+le"#, "height": 20])
                == DataID(#"Dog:10+Be\\ag\+le"#))
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenMissingKeyFields_shouldReturnNil"
    @Test("CacheKeyResolutionTests: givenMissingKeyFields shouldReturnNil")
    func missingKeyFieldGivesNoKey() {
        let keys = CacheKeyConfiguration(keyFields: ["Dog": ["id", "name"]])
        #expect(keys.cacheKey(typename: "Dog", object: ["__typename": "Dog", "id": "10"]) == nil)
    }

    // Apollo iOS CacheKeyResolutionTests.swift: "test__schemaConfiguration__givenInterfaceWithKeyField_shouldReturnKeyFieldValue"
    @Test("CacheKeyResolutionTests: givenInterfaceWithKeyField shouldReturnKeyFieldValue")
    func interfaceKeyFieldsApplyToImplementers() {
        let schema = SchemaMetadata(objectTypes: ["Cat"], interfaces: ["Animal": ["Cat"]], keyFields: ["Animal": ["id"]])
        #expect(schema.keyFields(for: "Cat") == ["id"])
        #expect(CacheKeyConfiguration(schema: schema).cacheKey(typename: "Cat", object: ["__typename": "Cat", "id": "10"]) == "Cat:10")
    }
}

// MARK: - GraphQLExecutor_ResultNormalizer_FromResponse_Tests

@Suite("Anchors: Apollo iOS result normalizer")
struct ApolloNormalizationCases {
    // Apollo iOS GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift: "test__execute__givenObjectWithNoCacheKey_normalizesRecordToPathFromQueryRoot"
    @Test("ResultNormalizer_FromResponse: givenObjectWithNoCacheKey normalizesRecordToPathFromQueryRoot")
    func objectWithoutKeyIsStoredUnderItsPath() {
        let records = ResponseNormalizer.normalize(
            ["hero": ["__typename": "Droid", "name": "R2-D2"]], selections: HeroSelections.name(), rootType: "Query")
        #expect(records[.rootID]?["hero"] == .link("client:root:hero"))
        #expect(records["client:root:hero"]?["name"] == .scalar("R2-D2"))
        #expect(records["client:root:hero"]?.typename == "Droid")
    }

    // Apollo iOS GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift: "test__execute__givenObjectWithNoCacheKey_forFieldWithStringArgument_normalizesRecordToPathFromQueryRootIncludingArgument"
    @Test("ResultNormalizer_FromResponse: givenObjectWithNoCacheKey forFieldWithStringArgument normalizesRecordToPathFromQueryRootIncludingArgument")
    func pathIncludesTheArgument() {
        let records = ResponseNormalizer.normalize(
            ["hero": ["__typename": "Droid", "name": "R2-D2"]], selections: HeroSelections.name(arguments: ["episode": .variable("episode")]),
            rootType: "Query", variables: ["episode": "JEDI"])
        // Apollo: `hero(episode:JEDI)` → `QUERY_ROOT.hero(episode:JEDI)`; Baton writes argument values as JSON.
        #expect(records[.rootID]?[#"hero(episode:"JEDI")"#] == .link(#"client:root:hero(episode:"JEDI")"#))
        #expect(records[#"client:root:hero(episode:"JEDI")"#]?["name"] == .scalar("R2-D2"))
    }

    // Apollo iOS GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift: "test__execute__givenObjectWithCacheKey_andNestedArrayOfObjectsWithCacheKey_normalizesRecordsToIndividualReferences"
    @Test("ResultNormalizer_FromResponse: givenObjectWithCacheKey andNestedArrayOfObjectsWithCacheKey normalizesRecordsToIndividualReferences")
    func keyedObjectsAreReferenced() {
        let data: JSONObject = [
            "hero": [
                "__typename": "Droid", "id": "2001", "name": "R2-D2",
                "friends": [
                    ["__typename": "Human", "id": "1000", "name": "Luke Skywalker"],
                    ["__typename": "Human", "id": "1002", "name": "Han Solo"],
                    ["__typename": "Human", "id": "1003", "name": "Leia Organa"],
                ],
            ]
        ]
        let records = ResponseNormalizer.normalize(data, selections: HeroSelections.friendsWithIDs, rootType: "Query", cacheKeys: .default)
        #expect(records[.rootID]?["hero"] == .link("Droid:2001"))
        #expect(records["Droid:2001"]?["name"] == .scalar("R2-D2"))
        #expect(records["Droid:2001"]?["friends"] == .list([.link("Human:1000"), .link("Human:1002"), .link("Human:1003")]))
        #expect(records["Human:1000"]?["name"] == .scalar("Luke Skywalker"))
        #expect(records["Human:1002"]?["name"] == .scalar("Han Solo"))
        #expect(records["Human:1003"]?["name"] == .scalar("Leia Organa"))
        #expect(records.count == 5)
    }

    // Apollo iOS GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift: "test__execute__givenFieldForObjectWithNoCacheKey_andAliasedFieldForSameFieldName_normalizesRecordsForBothFieldsIntoOneRecord"
    @Test("ResultNormalizer_FromResponse: givenFieldForObjectWithNoCacheKey andAliasedFieldForSameFieldName normalizesRecordsForBothFieldsIntoOneRecord")
    func aliasAndFieldShareOneRecord() throws {
        let selections: [Selection] = [
            .field("hero", type: .object("Character"), selections: [HeroSelections.typename, .field("name", type: .scalar("String"))]),
            .field("hero", alias: "r2", type: .object("Character"), selections: [.field("catchphrase", type: .scalar("String"))]),
        ]
        let records = ResponseNormalizer.normalize(
            ["hero": ["__typename": "Droid", "name": "R2-D2"], "r2": ["__typename": "Droid", "catchphrase": "Beeeeeeeeeeeeeep"]],
            selections: selections, rootType: "Query")
        let hero = try #require(records["client:root:hero"])
        #expect(hero.typename == "Droid")
        #expect(hero["name"] == .scalar("R2-D2"))
        #expect(hero["catchphrase"] == .scalar("Beeeeeeeeeeeeeep"))
        #expect(records[.rootID]?["hero"] == .link("client:root:hero"))
        #expect(records[.rootID]?["r2"] == nil)
    }

    // Apollo iOS GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift: "test__execute__givenDifferentAliasedFieldsOnTwoTypeCasesWithSameAlias_givenIsFirstType_hasRecordWithFieldValueUsingNonaliasedFieldName"
    @Test("ResultNormalizer_FromResponse: givenDifferentAliasedFieldsOnTwoTypeCasesWithSameAlias givenIsFirstType hasRecordWithFieldValueUsingNonaliasedFieldName")
    func aliasOnATypeCaseIsStoredUnderTheFieldName() throws {
        let selections: [Selection] = [
            .field(
                "hero", type: .object("Character"),
                selections: [
                    HeroSelections.typename,
                    .inlineFragment(on: TypeCondition("Human"), selections: [.field("name", alias: "property", type: .scalar("String"))]),
                    .inlineFragment(on: TypeCondition("Droid"), selections: [.field("primaryFunction", alias: "property", type: .scalar("String"))]),
                ])
        ]
        let records = ResponseNormalizer.normalize(
            ["hero": ["__typename": "Human", "property": "Han Solo"]], selections: selections, rootType: "Query")
        let hero = try #require(records["client:root:hero"])
        #expect(hero["name"] == .scalar("Han Solo"))
        #expect(hero["property"] == nil)
        #expect(hero["primaryFunction"] == nil)
    }

    // Apollo iOS GraphQLExecutor_ResultNormalizer_FromResponse_Tests.swift: "test__execute__givenObjectOfTypeWithKeyFields_normalizesRecordsToReference"
    @Test("ResultNormalizer_FromResponse: givenObjectOfTypeWithKeyFields normalizesRecordsToReference")
    func keyFieldsMakeTheReference() {
        let selections: [Selection] = [
            .field(
                "hero", type: .object("Hero"),
                selections: [.field("id", type: .scalar("ID")), .field("name", type: .scalar("String"))])
        ]
        let records = ResponseNormalizer.normalize(
            ["hero": ["__typename": "Hero", "id": "2001", "name": "R2-D2"]], selections: selections, rootType: "Query",
            cacheKeys: CacheKeyConfiguration(keyFields: ["Hero": ["name"]]))
        #expect(records[.rootID]?["hero"] == .link("Hero:R2-D2"))
        #expect(records["Hero:R2-D2"]?["id"] == .scalar("2001"))
    }
}

// MARK: - LoadQueryFromStoreTests

@Suite("Anchors: Apollo iOS LoadQueryFromStoreTests")
struct ApolloLoadQueryFromStoreCases {
    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroNameQuery"
    @Test("LoadQueryFromStoreTests: testLoadingHeroNameQuery")
    func loadingHeroName() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(id: "client:root:hero", typename: "Droid", fields: ["name": .scalar("R2-D2")]),
        ])
        let query = HeroSelections.query(HeroSelections.name())
        let read = store.read(query)
        #expect(!read.isMissing)
        #expect(read.data == ["hero": ["__typename": "Droid", "name": "R2-D2"]])
        #expect(store.check(query) == .available)
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroNameQueryWithVariable"
    @Test("LoadQueryFromStoreTests: testLoadingHeroNameQueryWithVariable")
    func loadingHeroNameWithAVariable() {
        let store = HeroSelections.store([
            HeroSelections.root([#"hero(episode:"JEDI")"#: .link(#"client:root:hero(episode:"JEDI")"#)]),
            Record(id: #"client:root:hero(episode:"JEDI")"#, typename: "Droid", fields: ["name": .scalar("R2-D2")]),
        ])
        let read = store.read(
            HeroSelections.query(HeroSelections.name(arguments: ["episode": .variable("episode")]), variables: ["episode": "JEDI"]))
        #expect(!read.isMissing)
        #expect(read.data?["hero"]?["name"] == "R2-D2")
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroNameQueryWithMissingName_returnsNil"
    @Test("LoadQueryFromStoreTests: testLoadingHeroNameQueryWithMissingName_returnsNil")
    func loadingWithAMissingNameMisses() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]), Record(id: "client:root:hero", typename: "Droid"),
        ])
        let query = HeroSelections.query(HeroSelections.name())
        #expect(store.read(query).isMissing)
        #expect(store.check(query) == .missing)
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroNameQueryWithNullName_throwsNullValueError"
    @Test("LoadQueryFromStoreTests: testLoadingHeroNameQueryWithNullName_throwsNullValueError")
    func loadingANullNonNullFieldFails() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(id: "client:root:hero", typename: "Droid", fields: ["name": .null]),
        ])
        // The store holds the null: the raw read is complete...
        let read = store.read(OperationDescriptor(operation: HeroNameQuery()))
        #expect(!read.isMissing)
        #expect(read.data?["hero"]?["name"] == .null)
        // ...but the typed read of the non-null `name` fails. Apollo throws a
        // GraphQLExecutionError at ["hero", "name"] (nullValue); Baton's typed read throws CacheMissError.
        #expect(throws: CacheMissError.self) { try store.read(query: HeroNameQuery()) }
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroAndFriendsNamesQueryWithoutIDs"
    @Test("LoadQueryFromStoreTests: testLoadingHeroAndFriendsNamesQueryWithoutIDs")
    func loadingFriendsStoredByPath() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(
                id: "client:root:hero", typename: "Droid",
                fields: [
                    "name": .scalar("R2-D2"),
                    "friends": .list([.link("client:root:hero:friends:0"), .link("client:root:hero:friends:1"), .link("client:root:hero:friends:2")]),
                ]),
            Record(id: "client:root:hero:friends:0", typename: "Human", fields: ["name": .scalar("Luke Skywalker")]),
            Record(id: "client:root:hero:friends:1", typename: "Human", fields: ["name": .scalar("Han Solo")]),
            Record(id: "client:root:hero:friends:2", typename: "Human", fields: ["name": .scalar("Leia Organa")]),
        ])
        let read = store.read(HeroSelections.query(HeroSelections.friends()))
        #expect(!read.isMissing)
        #expect(read.data?["hero"]?["name"] == "R2-D2")
        #expect(HeroSelections.friendNames(read) == ["Luke Skywalker", "Han Solo", "Leia Organa"])
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroAndFriendsNamesQueryWithIDs"
    @Test("LoadQueryFromStoreTests: testLoadingHeroAndFriendsNamesQueryWithIDs")
    func loadingFriendsStoredByKey() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("Droid:2001")]),
            Record(
                id: "Droid:2001", typename: "Droid",
                fields: ["name": .scalar("R2-D2"), "friends": .list([.link("Human:1000"), .link("Human:1002"), .link("Human:1003")])]),
            Record(id: "Human:1000", typename: "Human", fields: ["name": .scalar("Luke Skywalker")]),
            Record(id: "Human:1002", typename: "Human", fields: ["name": .scalar("Han Solo")]),
            Record(id: "Human:1003", typename: "Human", fields: ["name": .scalar("Leia Organa")]),
        ])
        let read = store.read(HeroSelections.query(HeroSelections.friends()))
        #expect(!read.isMissing)
        #expect(HeroSelections.friendNames(read) == ["Luke Skywalker", "Han Solo", "Leia Organa"])
        #expect(read.seenIDs == [.rootID, "Droid:2001", "Human:1000", "Human:1002", "Human:1003"])
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroAndFriendsNamesQuery_withOptionalFriendsSelection_withNullFriends"
    @Test("LoadQueryFromStoreTests: testLoadingHeroAndFriendsNamesQuery_withOptionalFriendsSelection_withNullFriends")
    func loadingNullFriends() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(id: "client:root:hero", typename: "Droid", fields: ["name": .scalar("R2-D2"), "friends": .null]),
        ])
        let read = store.read(HeroSelections.query(HeroSelections.friends(.list(.nonNull(.object("Character"))))))
        #expect(!read.isMissing)
        #expect(read.data?["hero"]?["name"] == "R2-D2")
        #expect(read.data?["hero"]?["friends"] == .null)
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroAndFriendsNamesQuery_withOptionalFriendsSelection_withNullFriendListItem"
    @Test("LoadQueryFromStoreTests: testLoadingHeroAndFriendsNamesQuery_withOptionalFriendsSelection_withNullFriendListItem")
    func loadingANullFriendListItem() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(
                id: "client:root:hero", typename: "Droid",
                fields: ["name": .scalar("R2-D2"), "friends": .list([.link("client:root:hero:friends:0"), .null])]),
            Record(id: "client:root:hero:friends:0", typename: "Human", fields: ["name": .scalar("Luke Skywalker")]),
        ])
        let read = store.read(HeroSelections.query(HeroSelections.friends(.list(.object("Character")))))
        #expect(!read.isMissing)
        let friends = read.data?["hero"]?["friends"]?.listValue
        #expect(friends?.count == 2)
        #expect(friends?.first?["name"] == "Luke Skywalker")
        #expect(friends?.last == .null)
    }

    // Apollo iOS LoadQueryFromStoreTests.swift: "testLoadingHeroAndFriendsNamesQuery_withOptionalFriendsSelection_withFriendsNotInCache_returnsNil"
    @Test("LoadQueryFromStoreTests: testLoadingHeroAndFriendsNamesQuery_withOptionalFriendsSelection_withFriendsNotInCache_returnsNil")
    func loadingFriendsNotInCacheMisses() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(id: "client:root:hero", typename: "Droid", fields: ["name": .scalar("R2-D2")]),
        ])
        let query = HeroSelections.query(HeroSelections.friends(.list(.nonNull(.object("Character")))))
        #expect(store.read(query).isMissing)
        #expect(store.check(query) == .missing)
    }
}

// MARK: - ReadWriteFromStoreTests

@Suite("Anchors: Apollo iOS ReadWriteFromStoreTests")
struct ApolloReadWriteFromStoreCases {
    static let heroWithFriends: JSONObject = [
        "hero": [
            "__typename": "Droid", "id": "2001", "name": "R2-D2",
            "friends": [
                ["__typename": "Human", "id": "1000", "name": "Luke Skywalker"],
                ["__typename": "Human", "id": "1002", "name": "Han Solo"],
                ["__typename": "Human", "id": "1003", "name": "Leia Organa"],
            ],
        ]
    ]

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_readQuery_givenQueryDataDoesNotExist_throwsMissingValueError"
    @Test("ReadWriteFromStoreTests: test_readQuery_givenQueryDataDoesNotExist_throwsMissingValueError")
    func readingAbsentDataMisses() {
        let store = Store()
        #expect(store.read(HeroSelections.query(HeroSelections.name())).isMissing)
        #expect(throws: CacheMissError.self) { try store.read(query: HeroNameQuery()) }
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_readQuery_givenQueryDataWithVariableInCache_readsQuery"
    @Test("ReadWriteFromStoreTests: test_readQuery_givenQueryDataWithVariableInCache_readsQuery")
    func readingWithTheWrittenVariable() {
        let store = Store()
        let jedi = HeroSelections.query(HeroSelections.name(arguments: ["episode": .variable("episode")]), variables: ["episode": "JEDI"])
        store.publish(data: ["hero": ["__typename": "Droid", "name": "R2-D2"]], for: jedi)
        #expect(store.read(jedi).data == ["hero": ["__typename": "Droid", "name": "R2-D2"]])
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_readQuery_givenQueryDataWithOtherVariableValueInCache_throwsMissingValueError"
    @Test("ReadWriteFromStoreTests: test_readQuery_givenQueryDataWithOtherVariableValueInCache_throwsMissingValueError")
    func readingWithAnotherVariableMisses() {
        let store = Store()
        let selections = HeroSelections.name(arguments: ["episode": .variable("episode")])
        store.publish(data: ["hero": ["__typename": "Droid", "name": "R2-D2"]], for: HeroSelections.query(selections, variables: ["episode": "JEDI"]))
        let empire = HeroSelections.query(selections, variables: ["episode": "EMPIRE"])
        #expect(store.read(empire).isMissing)
        #expect(store.check(empire) == .missing)
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_readQuery_withCacheReferencesByCustomKey_resolvesReferences"
    @Test("ReadWriteFromStoreTests: test_readQuery_withCacheReferencesByCustomKey_resolvesReferences")
    func readingFollowsKeyedReferences() {
        let store = Store()
        let query = HeroSelections.query(HeroSelections.friendsWithIDs)
        store.publish(data: Self.heroWithFriends, for: query)
        let records = store.snapshot()
        #expect(records[.rootID]?["hero"] == .link("Droid:2001"))
        #expect(records["Droid:2001"]?["friends"] == .list([.link("Human:1000"), .link("Human:1002"), .link("Human:1003")]))
        let read = store.read(query)
        #expect(read.data == Self.heroWithFriends)
        #expect(HeroSelections.friendNames(read) == ["Luke Skywalker", "Han Solo", "Leia Organa"])
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_updateCacheMutation_updateNestedField_updatesObjects"
    @Test("ReadWriteFromStoreTests: test_updateCacheMutation_updateNestedField_updatesObjects")
    func updatingANestedField() {
        let store = HeroSelections.store([
            HeroSelections.root(["hero": .link("client:root:hero")]),
            Record(id: "client:root:hero", typename: "Droid", fields: ["name": .scalar("R2-D2")]),
        ])
        store.update { proxy in
            _ = proxy.root.getLinkedRecord("hero")?.setValue("Artoo", "name")
        }
        let query = HeroSelections.query(HeroSelections.name())
        #expect(store.read(query).data?["hero"]?["name"] == "Artoo")
        #expect(store.snapshot()["client:root:hero"]?["name"] == .scalar("Artoo"))
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_updateCacheMutation_givenAddNewReferencedEntity_entityIsIncludedOnRead"
    @Test("ReadWriteFromStoreTests: test_updateCacheMutation_givenAddNewReferencedEntity_entityIsIncludedOnRead")
    func addingANewReferencedEntity() throws {
        let store = Store()
        let query = HeroSelections.query(HeroSelections.friendsWithIDs)
        store.publish(data: Self.heroWithFriends, for: query)
        // Read, add C-3PO to the friends, write back.
        var data = try #require(store.read(query).data)
        var hero = try #require(data["hero"]?.objectValue)
        var friends = try #require(hero["friends"]?.listValue)
        friends.append(["__typename": "Droid", "id": "1004", "name": "C-3PO"])
        hero["friends"] = .list(friends)
        data["hero"] = .object(hero)
        store.publish(data: data, for: query)

        let read = store.read(query)
        #expect(!read.isMissing)
        #expect(read.data?["hero"]?["name"] == "R2-D2")
        #expect(HeroSelections.friendNames(read) == ["Luke Skywalker", "Han Solo", "Leia Organa", "C-3PO"])
        #expect(store.snapshot()["Droid:1004"] == Record(id: "Droid:1004", typename: "Droid", fields: ["id": .scalar("1004"), "name": .scalar("C-3PO")]))
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_removeObject_givenReferencedByOtherRecord_thenReadQueryReferencingRemovedRecord_throwsError"
    @Test("ReadWriteFromStoreTests: test_removeObject_givenReferencedByOtherRecord_thenReadQueryReferencingRemovedRecord_throwsError")
    func readingThroughARemovedRecordMisses() {
        var records = ResponseNormalizer.normalize(Self.heroWithFriends, selections: HeroSelections.friendsWithIDs, rootType: "Query")
        // Apollo's removeObject forgets the record: missing, not deleted.
        records.remove("Human:1003")
        #expect(records.state(of: "Human:1003") == nil)
        let read = Reader.read(selections: HeroSelections.friendsWithIDs, rootType: "Query", source: records)
        #expect(read.isMissing)
        #expect(read.seenIDs.contains("Human:1003"))
    }

    // Apollo iOS ReadWriteFromStoreTests.swift: "test_writeDataForCacheMutation_givenNilValueForOptionalField_writesFieldWithNullValue"
    @Test("ReadWriteFromStoreTests: test_writeDataForCacheMutation_givenNilValueForOptionalField_writesFieldWithNullValue")
    func writingNullForAnOptionalFieldStoresNull() {
        let store = Store()
        let selections: [Selection] = [
            .field(
                "hero", type: .object("Character"),
                selections: [HeroSelections.typename, .field("name", type: .scalar("String")), .field("nickname", type: .scalar("String"))])
        ]
        let query = HeroSelections.query(selections)
        store.publish(data: ["hero": ["__typename": "Droid", "name": "R2-D2", "nickname": nil]], for: query)
        #expect(store.snapshot()["client:root:hero"]?["nickname"] == .null)
        let read = store.read(query)
        #expect(!read.isMissing)
        #expect(read.data?["hero"]?["nickname"] == .null)
    }
}
