import BatonAPI

/// The golden schema's `DateTime`, mapped with `--custom-scalar DateTime=GoldenDate`: an ISO 8601
/// date kept as year, month and day.
public struct GoldenDate: CustomScalarType {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public init(jsonValue: JSONValue) throws {
        guard let text = jsonValue.stringValue else { throw ScalarDecodingError(expected: "an ISO 8601 date", found: jsonValue) }
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw ScalarDecodingError(expected: "an ISO 8601 date", found: jsonValue) }
        (year, month, day) = (parts[0], parts[1], parts[2])
    }

    public var jsonValue: JSONValue {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return .string("\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))")
    }
}
