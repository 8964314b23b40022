import BatonAPI
import Testing

/// The build plugin as a user's target meets it (issue 16, items 4 and 5): its `graphql/` holds
/// a `baton.json` with no `"documents"` and a `customScalars` mapping, a schema named
/// `schema.graphql`, a `.gql` document and a `.graphql` one. That this target builds at all is
/// most of the test; these check what was generated.
@Suite struct PluginTests {
    @Test func aGQLDocumentIsGenerated() throws {
        #expect(TodayQuery.operationName == "Today")
        let data = try TodayQuery.Data(jsonObject: ["today": "2026-11-23"])
        #expect(data.today == PluginDate(year: 2026, month: 11, day: 23))
    }

    @Test func aSchemaNamedGraphQLIsNotADocument() {
        // It would have failed the build ("only operations and fragments may appear in documents").
        #expect(ShapesQuery(kind: .circle).variablesJSON == ["kind": "CIRCLE"])
    }

    @Test func aMappedCustomScalarIsTheMappedType() {
        let date: PluginAPI.Date = PluginDate(year: 2000, month: 1, day: 2)
        #expect(date.jsonValue == "2000-01-02")
    }
}

/// The schema's `Date`, mapped in `graphql/baton.json` (`"customScalars": {"Date": "PluginDate"}`):
/// the mapped type lives in the target the plugin generates into, and is public, as the
/// generated `public typealias Date = PluginDate` is.
public struct PluginDate: CustomScalarType {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    public init(jsonValue: JSONValue) throws {
        let parts = (jsonValue.stringValue ?? "").split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw ScalarDecodingError(expected: "a YYYY-MM-DD date", found: jsonValue) }
        (year, month, day) = (parts[0], parts[1], parts[2])
    }

    public var jsonValue: JSONValue {
        func pad(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return .string("\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))")
    }
}
