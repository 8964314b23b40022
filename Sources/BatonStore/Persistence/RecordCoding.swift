import BatonAPI

/// Records as JSON, for caches that store bytes: `{"__id":…,"__typename":…,"fields":{key: value}}`
/// where a link is `{"__ref":"id"}` and a list is `{"__list":[…]}` (relay-runtime writes links the
/// same way), and a scalar is `{"v": value}`.
public enum RecordCoding {
    public struct DecodingError: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { "stored record is unreadable: \(reason)" }
    }

    public static func encode(_ record: Record) -> [UInt8] {
        var fields = JSONObject()
        for key in record.fields.keys.sorted() {
            fields[key] = encode(record.fields[key]!)
        }
        var object: JSONObject = ["__id": .string(record.id.rawValue)]
        if let typename = record.typename { object["__typename"] = .string(typename) }
        object["fields"] = .object(fields)
        return JSONValue.object(object).serialized()
    }

    private static func encode(_ value: RecordValue) -> JSONValue {
        switch value {
        case .scalar(let scalar): return ["v": scalar]
        case .link(let id): return ["__ref": .string(id.rawValue)]
        case .list(let items): return ["__list": .list(items.map(encode))]
        }
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws -> Record {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw DecodingError(reason: error.description)
        }
        guard let id = json["__id"]?.stringValue, let fields = json["fields"]?.objectValue else {
            throw DecodingError(reason: "no __id or fields")
        }
        var record = Record(id: DataID(id), typename: json["__typename"]?.stringValue)
        for (key, value) in fields {
            record.fields[key] = try decodeValue(value)
        }
        return record
    }

    private static func decodeValue(_ json: JSONValue) throws -> RecordValue {
        if let scalar = json["v"] { return .scalar(scalar) }
        if let ref = json["__ref"]?.stringValue { return .link(DataID(ref)) }
        if let list = json["__list"]?.listValue { return .list(try list.map(decodeValue)) }
        throw DecodingError(reason: "unknown field value \(json)")
    }
}
