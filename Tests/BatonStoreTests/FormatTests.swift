import BatonAPI
import BatonStore
import Testing

/// The exact formats of DESIGN.md, with relay-runtime's own examples.
@Suite("Storage keys and record IDs")
struct FormatTests {
    @Test func storageKeysFollowRelay() {
        #expect(StorageKey.make(fieldName: "todos", arguments: ["first": 10]) == "todos(first:10)")
        #expect(StorageKey.make(fieldName: "node", arguments: ["id": "1"]) == #"node(id:"1")"#)
        #expect(
            StorageKey.make(fieldName: "friends", arguments: ["orderby": ["name"], "first": 1])
                == #"friends(first:1,orderby:["name"])"#)
        #expect(StorageKey.make(fieldName: "profilePicture", arguments: ["size": 32]) == "profilePicture(size:32)")
        // Null and absent arguments are dropped; none left gives the bare name.
        #expect(StorageKey.make(fieldName: "hero", arguments: ["episode": nil]) == "hero")
        #expect(StorageKey.make(fieldName: "hero", arguments: [:]) == "hero")
        // Object values are written with sorted keys.
        #expect(
            StorageKey.make(fieldName: "search", arguments: ["filter": ["z": 1, "a": ["y": true, "b": nil]]])
                == #"search(filter:{"a":{"b":null,"y":true},"z":1})"#)
    }

    @Test func storageKeysResolveVariables() {
        let field = Field(
            name: "todos", type: .object("TodoConnection"),
            arguments: ["first": .variable("count"), "after": .variable("cursor"), "status": "any"])
        #expect(StorageKey.make(field: field, variables: ["count": 10]) == #"todos(first:10,status:"any")"#)
        #expect(StorageKey.make(field: field, variables: ["count": 10, "cursor": "abc"]) == #"todos(after:"abc",first:10,status:"any")"#)
    }

    @Test func clientIDsFollowRelay() {
        #expect(ClientID.make(parentID: "1", storageKey: "profilePicture(size:32)") == "client:1:profilePicture(size:32)")
        #expect(ClientID.make(parentID: .rootID, storageKey: "viewer") == DataID.viewerID)
        #expect(ClientID.make(parentID: "client:root", storageKey: "reviews", index: 2) == "client:root:reviews:2")
        #expect(DataID.rootID == "client:root")
        #expect(DataID.viewerID == "client:root:viewer")
    }

    @Test func cacheKeysUseIDOrKeyFields() {
        let config = CacheKeyConfiguration(keyFields: ["Dog": ["name", "owner"]])
        // The default is Apollo's safe form, Typename:id; relay-runtime's bare id is opt-in.
        #expect(config.cacheKey(typename: "Human", object: ["id": "1000"]) == "Human:1000")
        #expect(config.cacheKey(typename: "Post", object: ["id": 7]) == "Post:7")
        #expect(CacheKeyConfiguration.globalIDs.cacheKey(typename: "Human", object: ["id": "1000"]) == "1000")
        #expect(config.cacheKey(typename: "Dog", object: ["name": "Rex", "owner": "Ann", "id": "x"]) == "Dog:Rex+Ann")
        #expect(config.cacheKey(typename: "Dog", object: ["name": "Rex"]) == nil)
        #expect(config.cacheKey(typename: "Review", object: ["stars": 5]) == nil)
    }

    @Test func recordsRoundTripThroughTheirStoredForm() throws {
        let record = Record(
            id: "1000", typename: "Human",
            fields: [
                "name": .scalar("Luke"), "friends": .list([.link("1002"), .null, .link("2001")]), "home": .link("x"),
                "matrix": .list([.list([.link("a")]), .null]),
            ])
        #expect(try RecordCoding.decode(RecordCoding.encode(record)) == record)
        #expect(throws: RecordCoding.DecodingError.self) { try RecordCoding.decode(Array("{}".utf8)) }
        #expect(throws: RecordCoding.DecodingError.self) { try RecordCoding.decode(Array("not json".utf8)) }
    }

    /// The one-pass decoder of stored records reads what the general JSON parser reads, for every
    /// kind of value: escapes, non-ASCII text, custom scalars' objects and lists, integers at and
    /// past the limits of its fast path, doubles and `-0`.
    @Test func storedRecordsDecodeAsTheGeneralParserReadsThem() throws {
        let scalars: [JSONValue] = [
            "plain", "", #"quote " and backslash \ and\nnewline"#, "tab\t and \u{e9} escaped", "Grüße, 日本, 🎉", "\u{1}",
            0, 7, -7, 123_456_789_012_345_678, .int(Int.max), .int(Int.min), 1.5, -0.25, 1e300,
            true, false, .null, ["a", 1, ["nested": [true]]], ["key": "va\"lue", "list": [1, 2.5, .null]],
        ]
        var record = Record(id: "Issue:1 \"quoted\"", typename: "Issue")
        for (index, scalar) in scalars.enumerated() { record.fields["f\(index)"] = .scalar(scalar) }
        record.fields["link"] = .link("User:ü")
        record.fields["items"] = .list([.link("a"), .null, .list([.scalar("x")]), .scalar(.list([]))])
        let bytes = RecordCoding.encode(record)
        let decoded = try RecordCoding.decode(bytes)
        #expect(decoded == record)
        // Each value kept its kind (an integer stays an integer), as the general parser keeps it.
        let general = try JSONValue(parsing: bytes)["fields"]?.objectValue
        for (index, scalar) in scalars.enumerated() {
            #expect(decoded.fields["f\(index)"] == .scalar(scalar), "f\(index)")
            #expect(general?["f\(index)"]?["v"] == scalar, "f\(index)")
        }
        // "-0" reads as the general parser reads it.
        let negativeZero = try RecordCoding.decode(Array(#"{"__id":"x","fields":{"a":{"v":-0}}}"#.utf8))
        #expect(negativeZero.fields["a"] == .scalar(try JSONValue(parsing: "-0")))
        // Other forms still read (through the general parser): whitespace, keys out of order.
        let spaced = #"{ "__id": "x", "fields": { "b": {"v": 1}, "a": {"__ref": "y"} } }"#
        #expect(try RecordCoding.decode(Array(spaced.utf8)) == Record(id: "x", fields: ["b": .scalar(1), "a": .link("y")]))
        // Bytes that are not UTF-8 are an error, not a repaired string.
        let invalid = Array(#"{"__id":"x","fields":{"a":{"v":""#.utf8) + [0xFF] + Array(#""}}}"#.utf8)
        #expect(throws: RecordCoding.DecodingError.self) { try RecordCoding.decode(invalid) }
    }
}
