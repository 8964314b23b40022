import BatonTestSupport
import BatonAPI
import BatonStore
import Foundation
import Testing

// Client schema extension fields in the store, as relay-runtime's own cases state them:
//   packages/relay-runtime/store/__tests__/RelayResponseNormalizer-test.js ("Client Extensions")
//   packages/relay-runtime/store/__tests__/RelayReader-test.js ("should not have missing data if
//   missing fields are client fields")
// The server's response never has a client field: its absence is not a malformed response and
// does not erase what the client stored; a read of a client field the client never set is null,
// not missing. Stores use relay-runtime's cache-key rule (bare `id`), so relay's record IDs carry over.

/// relay's `RelayResponseNormalizerTestStrippedQuery`, with its client schema extension
/// `extend type User { nickname: String foo: Foo }`, `type Foo { bar: Bar }`, `type Bar { content: String }`:
///
///     query ($id: ID) { node(id: $id) { id __typename ... on User { firstName nickname foo { bar { content } } } } }
private enum StrippedQuery {
    static let selections: [Selection] = [
        .field(
            "node", type: .object("Node"), arguments: ["id": .variable("id")],
            selections: [
                .field("id", type: .nonNull(.scalar("ID"))),
                .field("__typename", type: .nonNull(.scalar("String"))),
                .inlineFragment(
                    on: TypeCondition("User"),
                    selections: [
                        .field("firstName", type: .scalar("String")),
                        .field("nickname", type: .scalar("String"), isClientOnly: true),
                        .field(
                            "foo", type: .object("Foo"), isClientOnly: true,
                            selections: [.field("bar", type: .object("Bar"), selections: [.field("content", type: .scalar("String"))])]),
                    ]),
            ])
    ]

    static let operation = OperationDescriptor(
        name: "RelayResponseNormalizerTestStrippedQuery", selections: selections, variables: ["id": "1"], rootType: "Query")

    /// The server's answer: no client field in it.
    static let payload: JSONObject = ["node": ["id": "1", "__typename": "User", "firstName": "Bob"]]

    static let root = Record(id: .rootID, fields: [#"node(id:"1")"#: .link("1")])

    static func store(_ records: [Record]) -> Store {
        let store = Store(cacheKeys: .globalIDs)
        store.publish(RecordSource(records: records + [root]))
        return store
    }

    /// The payload as the client receives a server's response: checked against the selections
    /// (the executor's `.response` checks), then published.
    static func receive(in store: Store) throws {
        store.publish(try store.prepare(data: payload, for: operation), fetched: true)
    }
}

@Suite("Client extension fields in the store")
struct ClientExtensionStoreTests {
    /// relay: Client Extensions › skips client fields not present in the payload but present in the store
    @Test func skipsClientFieldsNotPresentInThePayloadButPresentInTheStore() throws {
        let store = StrippedQuery.store([
            Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "firstName": .scalar("Alice"), "nickname": .scalar("ecilA")])
        ])
        for _ in 0..<2 {
            try StrippedQuery.receive(in: store)
            let user = try #require(store.snapshot()["1"])
            #expect(user["firstName"] == .scalar("Bob"))
            #expect(user["nickname"] == .scalar("ecilA"))
        }
    }

    /// relay: Client Extensions › skips client fields not present in the payload or store
    @Test func skipsClientFieldsNotPresentInThePayloadOrStore() throws {
        let store = StrippedQuery.store([
            Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "firstName": .scalar("Alice")])
        ])
        for _ in 0..<2 {
            try StrippedQuery.receive(in: store)
            let user = try #require(store.snapshot()["1"])
            #expect(user["firstName"] == .scalar("Bob"))
            #expect(user["nickname"] == nil)
            #expect(user["foo"] == nil)
        }
    }

    /// relay: Client Extensions › ignores linked client fields not present in the payload
    @Test func ignoresLinkedClientFieldsNotPresentInThePayload() throws {
        let store = StrippedQuery.store([
            Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "firstName": .scalar("Alice"), "foo": .link("2")]),
            Record(id: "2", typename: "Foo", fields: ["bar": .link("3")]),
            Record(id: "3", typename: "Bar", fields: ["content": .scalar("bar")]),
        ])
        for _ in 0..<2 {
            try StrippedQuery.receive(in: store)
            let snapshot = store.snapshot()
            #expect(snapshot["1"]?["firstName"] == .scalar("Bob"))
            #expect(snapshot["1"]?["foo"] == .link("2"))
            #expect(snapshot["2"]?["bar"] == .link("3"))
            #expect(snapshot["3"]?["content"] == .scalar("bar"))
        }
    }

    /// relay: Client Extensions › ignores linked client fields not present in the payload or store
    @Test func ignoresLinkedClientFieldsNotPresentInThePayloadOrStore() throws {
        let store = StrippedQuery.store([
            Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "firstName": .scalar("Alice"), "foo": .link("2")]),
            Record(id: "2", typename: "Foo"),
        ])
        for _ in 0..<2 {
            try StrippedQuery.receive(in: store)
            let snapshot = store.snapshot()
            #expect(snapshot["1"]?["firstName"] == .scalar("Bob"))
            #expect(snapshot["1"]?["foo"] == .link("2"))
            #expect(snapshot["2"]?["bar"] == nil)
        }
    }

    /// relay: RelayReader › should not have missing data if missing fields are client fields.
    /// The client fields the store has no value for read as null (relay reads `undefined`).
    @Test func shouldNotHaveMissingDataIfMissingFieldsAreClientFields() throws {
        let store = StrippedQuery.store([
            Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "firstName": .scalar("Alice"), "foo": .link("2")]),
            Record(id: "2", typename: "Foo"),
        ])
        let read = store.read(StrippedQuery.operation)
        #expect(!read.isMissing)
        let node = try #require(read.data?["node"]?.objectValue)
        #expect(node["firstName"] == "Alice")
        #expect(node["nickname"] == .null)
        #expect(node["foo"]?.objectValue?["bar"] == .null)
    }

    /// A server field missing is still missing beside client fields.
    @Test func aMissingServerFieldIsStillMissing() {
        let store = StrippedQuery.store([Record(id: "1", typename: "User", fields: ["id": .scalar("1"), "nickname": .scalar("ecilA")])])
        #expect(store.read(StrippedQuery.operation).isMissing)
    }

    /// A non-null client field the client never set has no value to read: the read is incomplete
    /// (a null would break the field's type; relay's reader gives `undefined` there).
    @Test func aNonNullClientFieldNeverSetIsMissing() {
        let selections: [Selection] = [.field("selectedCount", type: .nonNull(.scalar("Int")), isClientOnly: true)]
        let operation = OperationDescriptor(name: "Count", selections: selections, variables: [:], rootType: "Query")
        let store = Store(cacheKeys: .globalIDs)
        #expect(store.read(operation).isMissing)
        store.update { proxy in _ = proxy.get(.rootID)?.setValue(.int(2), "selectedCount") }
        let read = store.read(operation)
        #expect(!read.isMissing)
        #expect(read.data?["selectedCount"] == .int(2))
    }

    /// A query of client fields only reads from an empty store: the root always exists
    /// (relay-runtime's store creates it), and the fields read as null.
    @Test func aClientOnlyQueryReadsNullsFromAnEmptyStore() throws {
        let selections: [Selection] = [
            .field("localSettings", type: .object("LocalSettings"), isClientOnly: true, selections: [.field("theme", type: .scalar("String"))]),
            .field("selectedCount", type: .scalar("Int"), isClientOnly: true),
        ]
        let operation = OperationDescriptor(name: "Settings", selections: selections, variables: [:], rootType: "Query")
        let read = Store(cacheKeys: .globalIDs).read(operation)
        #expect(!read.isMissing)
        #expect(read.data == ["localSettings": .null, "selectedCount": .null])
    }

    /// Updaters, local writes and optimistic updates set client fields; the reads give them back,
    /// and a server write keeps them.
    @Test func clientFieldsAreWrittenByUpdatersLocalWritesAndOptimisticUpdates() throws {
        let store = StrippedQuery.store([])
        try StrippedQuery.receive(in: store)
        // An updater (Relay's commitLocalUpdate).
        store.update { proxy in
            guard let user = proxy.get("1") else { return }
            user.setValue("Bobby", "nickname")
            let foo = proxy.create(id: "client:foo", typename: "Foo")
            let bar = proxy.create(id: "client:bar", typename: "Bar")
            bar.setValue("hello", "content")
            foo.setLinkedRecord(bar, "bar")
            user.setLinkedRecord(foo, "foo")
        }
        func read() throws -> JSONObject { try #require(store.read(StrippedQuery.operation).data?["node"]?.objectValue) }
        #expect(try read()["nickname"] == "Bobby")
        #expect(try read()["foo"]?.objectValue?["bar"]?.objectValue?["content"] == "hello")
        // The server's next answer keeps them.
        try StrippedQuery.receive(in: store)
        #expect(try read()["nickname"] == "Bobby")
        #expect(try read()["foo"]?.objectValue?["bar"]?.objectValue?["content"] == "hello")
        // A local write of data with the client field (Apollo's cache write).
        store.publish(data: ["node": ["id": "1", "__typename": "User", "firstName": "Bob", "nickname": "B."]], for: StrippedQuery.operation)
        #expect(try read()["nickname"] == "B.")
        // An optimistic response with only the client field: shown, then rolled back exactly.
        let optimistic = try store.applyOptimisticResponse(
            ["node": ["id": "1", "__typename": "User", "nickname": "Optimistic"]], for: StrippedQuery.operation)
        #expect(try read()["nickname"] == "Optimistic")
        #expect(try read()["firstName"] == "Bob")
        store.revertOptimisticUpdate(optimistic)
        #expect(try read()["nickname"] == "B.")
    }

    /// A seeded random sequence of server responses, client writes of the client field and
    /// optimistic updates of it, against a model: the client field is always the last value the
    /// client gave it (optimistic layers on top while applied), the server field the server's.
    @Test(.ownThread) func randomSequenceAgainstAModel() throws {
        var generator = SeededGenerator(seed: 28)
        let store = StrippedQuery.store([])
        var serverName: JSONValue = .null
        var nickname: JSONValue?  // nil: never set
        var layers: [(OptimisticUpdate, JSONValue)] = []
        for step in 0..<2_000 {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0, 1:
                let name = JSONValue.string("server-\(step)")
                store.publish(
                    try store.prepare(data: ["node": ["id": "1", "__typename": "User", "firstName": name]], for: StrippedQuery.operation))
                serverName = name
            case 2:
                let value: JSONValue = Bool.random(using: &generator) ? .string("client-\(step)") : .null
                store.update { proxy in
                    let user = proxy.get("1") ?? proxy.create(id: "1", typename: "User")
                    user.setValue(value, "nickname")
                }
                nickname = value
            case 3:
                let value = JSONValue.string("optimistic-\(step)")
                let layer = try store.applyOptimisticResponse(
                    ["node": ["id": "1", "__typename": "User", "nickname": value]], for: StrippedQuery.operation)
                layers.append((layer, value))
            default:
                guard !layers.isEmpty else { continue }
                let index = Int.random(in: 0..<layers.count, using: &generator)
                store.revertOptimisticUpdate(layers.remove(at: index).0)
            }
            guard serverName != .null else { continue }
            let node = try #require(store.read(StrippedQuery.operation).data?["node"]?.objectValue, "step \(step)")
            #expect(node["firstName"] == serverName, "step \(step)")
            let expected = layers.last?.1 ?? nickname ?? .null
            #expect(node["nickname"] == expected, "step \(step)")
        }
    }
}
