import BatonAPI
import Foundation
import Testing
import BatonTestSupport

@Suite("JSONValue", .ownThread)
struct JSONValueTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #"{"n":null,"t":true,"f":false,"i":42,"neg":-7,"d":1.5,"e":2e3,"s":"hi","l":[1,"a",null],"o":{"x":1}}"#)
        #expect(value["n"] == .null)
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["i"] == .int(42))
        #expect(value["neg"] == .int(-7))
        #expect(value["d"] == .double(1.5))
        #expect(value["e"] == .double(2000))
        #expect(value["s"] == .string("hi"))
        #expect(value["l"] == .list([.int(1), .string("a"), .null]))
        #expect(value["o"] == .object(["x": .int(1)]))
    }

    @Test func keepsBooleansIntegersAndDoublesApart() throws {
        let value = try JSONValue(parsing: "[1, 1.0, true, 0, false, 10000000000000000000, -9223372036854775808]")
        #expect(value == .list([.int(1), .double(1), .bool(true), .int(0), .bool(false), .double(1e19), .int(Int.min)]))
        #expect(JSONValue.int(1) != JSONValue.double(1))
        #expect(JSONValue.bool(true) != JSONValue.int(1))
    }

    @Test func keepsObjectKeyOrder() throws {
        let value = try JSONValue(parsing: #"{"zebra":1,"apple":2,"mango":3}"#)
        #expect(value.objectValue?.keys == ["zebra", "apple", "mango"])
        #expect(value.serializedString() == #"{"zebra":1,"apple":2,"mango":3}"#)
        #expect(value.serializedString(sortedKeys: true) == #"{"apple":2,"mango":3,"zebra":1}"#)
    }

    @Test func largeObjectsLookUpEveryKey() throws {
        let members = (0..<100).map { ("key\($0)", JSONValue.int($0)) }
        let text = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        let object = try #require(try JSONValue(parsing: text).objectValue)
        for (key, value) in members { #expect(object[key] == value) }
        #expect(object["missing"] == nil)
        #expect(object.keys == members.map(\.0))
    }

    @Test func repeatedKeyKeepsFirstPositionAndLastValue() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == .int(3))
    }

    @Test func objectEqualityIgnoresOrder() {
        let one: JSONObject = ["a": 1, "b": 2]
        let two: JSONObject = ["b": 2, "a": 1]
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
    }

    @Test func decodesEscapes() throws {
        let value = try JSONValue(parsing: #""q\"b\\s\/n\nr\rt\tb\bf\fu\u00e9 pair\ud83d\ude00 lone\ud800x""#)
        #expect(value == .string("q\"b\\s/n\nr\rt\tb\u{8}f\u{c}u\u{e9} pair😀 lone\u{FFFD}x"))
    }

    @Test func serializesAndParsesBack() throws {
        let original: JSONValue = [
            "text": "line\nbreak \"quoted\" \\ tab\t control\u{1} é 😀",
            "numbers": [0, -1, 1.25, 1e-7, 3.0, 123456789012],
            "flags": [true, false, nil],
            "nested": ["empty": [], "obj": [:]],
        ]
        let bytes = original.serialized()
        #expect(try JSONValue(parsing: bytes) == original)
        #expect(JSONValue.double(3).serializedString() == "3.0")
        #expect(JSONValue.double(.nan).serializedString() == "null")
    }

    @Test func matchesFoundationOnTheGitHubResponse() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/fixtures/github/IssuesAndCommentsForRepository.response.json")
        try #require(FileManager.default.fileExists(atPath: url.path), "needs ../shared/fixtures beside the package (\(url.path))")
        let data = try Data(contentsOf: url)
        let ours = try JSONValue(parsing: data)
        let reparsed = try JSONValue(parsing: ours.serialized())
        #expect(ours == reparsed)
        let foundation = try JSONSerialization.jsonObject(with: data)
        let roundTrip = try JSONSerialization.jsonObject(with: ours.serializedData())
        #expect(NSDictionary(dictionary: foundation as! [String: Any]) == NSDictionary(dictionary: roundTrip as! [String: Any]))
    }

    @Test(arguments: [
        ("", 0, "a value"),
        ("{", 1, "a string key"),
        (#"{"a" 1}"#, 5, "':'"),
        (#"{"a":1,}"#, 7, "a string key"),
        ("[1 2]", 3, "',' or ']'"),
        ("[1,]", 3, "a value"),
        ("tru", 3, "'true'"),
        ("nul", 3, "'null'"),
        ("01", 1, "'.', 'e' or the end of the number (no leading zeros)"),
        ("1.", 2, "a digit after '.'"),
        ("1e", 2, "a digit in the exponent"),
        ("-", 1, "a digit"),
        (#""abc"#, 4, "'\"' closing the string opened at byte 0"),
        (#""a\x""#, 3, "an escape character (one of \"\\/bfnrtu)"),
        (#""\u12G4""#, 5, "a hexadecimal digit"),
        ("\"a\u{1}\"", 2, "a string character (control characters must be escaped)"),
        ("1 2", 2, "end of input"),
        ("{}x", 2, "end of input"),
    ])
    func reportsWhereAndWhatWasExpected(input: String, offset: Int, expected: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: input) }
        do {
            _ = try JSONValue(parsing: input)
        } catch {
            #expect(error.offset == offset)
            #expect(error.expected == expected)
            #expect(error.description.contains("at byte \(offset)"))
        }
    }

    @Test func everyTruncationOfAValidDocumentIsAnError() throws {
        let document = Array(#"{"data":{"hero":{"__typename":"Droid","name":"R2-D2","ids":[1,2.5e3,-3],"ok":true,"no":false,"x":null,"s":"é\u00e9\n"}}}"#.utf8)
        #expect(throws: Never.self) { try JSONValue(parsing: document) }
        for length in 0..<document.count {
            let prefix = Array(document[0..<length])
            #expect(throws: JSONParseError.self, "prefix of \(length) bytes") { try JSONValue(parsing: prefix) }
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0x22]
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try JSONValue(parsing: fine) }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]:,"\-0123456789.eEtrufalsn \u"#.utf8) + [0x00, 0xFF, 0xC3]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? JSONValue(parsing: bytes)
        }
    }

    @Test func dataIDsAreEqualWhenTheirBytesAre() {
        let long = String(repeating: "client:root:repository.issues(last:100).nodes:", count: 3)
        #expect(DataID(long + "1") == DataID(long + "1"))
        #expect(DataID(long + "1") != DataID(long + "2"))
        #expect(DataID(long + "1").hashValue == DataID(long + "1").hashValue)
        #expect(DataID("") == DataID(""))
        #expect(DataID("a") != DataID(""))
        // Canonically equivalent but not the same bytes: distinct IDs (IDs are opaque).
        #expect(DataID("caf\u{E9}") != DataID("cafe\u{301}"))
        var ids = Set<DataID>()
        for index in 0..<1_000 { ids.insert(DataID(long + String(index))) }
        for index in 0..<1_000 { ids.insert(DataID(long + String(index))) }
        #expect(ids.count == 1_000)
    }

    @Test func aListItemsIDHashedOnFromItsListsIsTheIDMadeFromItsText() {
        // Every length of list ID around the hash's eight-byte words, indices of each digit count.
        for length in 0..<40 {
            let list = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) }) + (length % 7 == 3 ? "é" : "")
            let prefix = DataID.HashPrefix(list)
            for index in [0, 1, 9, 10, 57, 99, 100, 1_234, 99_999, 1_000_000_007, Int.max, -1, -42, Int.min] {
                let text = list + ":" + String(index)
                let carried = DataID(item: index, of: prefix, text: text)
                #expect(carried == DataID(text), "\(text)")
                #expect(carried.hashValue == DataID(text).hashValue, "\(text)")
            }
        }
    }
}
