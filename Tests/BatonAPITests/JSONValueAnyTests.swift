import BatonAPI
import BatonExampleAPI
import Foundation
import Testing

/// `JSONValue(any:)`/`JSONObject(any:)` (a `[String: Any]` of Swift values, as Apollo iOS and
/// Relay.swift take one) and `foundationObject` (what `JSONSerialization` takes).
@Suite struct JSONValueAnyTests {
    @Test func swiftValuesConvert() throws {
        let id = "todo-1"
        let complete = true
        let count: Int32 = 3
        let missing: String? = nil
        let object = try JSONObject(any: [
            "todo": ["id": id, "complete": complete, "count": count, "ratio": 0.5, "note": missing as Any, "tags": ["a", 1]],
            "episode": GraphQLEnum<Episode>.empire,
        ])
        #expect(object["todo"]?["id"] == "todo-1")
        #expect(object["todo"]?["complete"] == .bool(true))
        #expect(object["todo"]?["count"] == .int(3))
        #expect(object["todo"]?["ratio"] == .double(0.5))
        #expect(object["todo"]?["note"] == .null)
        #expect(object["todo"]?["tags"] == [.string("a"), .int(1)])
        #expect(object["episode"] == "EMPIRE")
    }

    @Test func aValueWithoutJSONFormNamesItsPath() {
        #expect(throws: JSONConversionError(path: "todo.when[1]", type: "Date")) {
            _ = try JSONObject(any: ["todo": ["when": [1, Date(timeIntervalSince1970: 0)]]])
        }
    }

    @Test func foundationObjectRoundTripsThroughJSONSerialization() throws {
        let object: JSONObject = ["hero": ["name": "Luke", "height": 1.72, "friends": [["name": "Leia"]], "age": 19, "jedi": true, "ship": nil]]
        let foundation = object.foundationObject
        #expect(JSONSerialization.isValidJSONObject(foundation))
        let data = try JSONSerialization.data(withJSONObject: foundation)
        let back = try JSONObject(any: try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
        #expect(back == object)
    }
}
