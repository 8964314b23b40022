import BatonAPI

/// Records as JSON, for caches that store bytes: `{"__id":…,"__typename":…,"fields":{key: value}}`
/// where a link is `{"__ref":"id"}` and a list is `{"__list":[…]}` (relay-runtime writes links the
/// same way), a scalar is `{"v": value}`, a field's errors are `{"__errors":[error, …]}` in the
/// response's error format (paths relative to the field), and an embedded object is
/// `{"__embedded":{"__typename":…,"fields":{key: value}}}`.
public enum RecordCoding {
    public struct DecodingError: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { "stored record is unreadable: \(reason)" }
    }

    public static func encode(_ record: Record) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        encode(record, into: &output)
        return output
    }

    /// Appends the record's stored form to `output` (fields in sorted key order).
    public static func encode(_ record: Record, into output: inout [UInt8]) {
        output.append(contentsOf: #"{"__id":"#.utf8)
        JSONValue.serialize(string: record.id.rawValue, into: &output)
        if let typename = record.typename {
            output.append(contentsOf: #","__typename":"#.utf8)
            JSONValue.serialize(string: typename, into: &output)
        }
        output.append(contentsOf: #","fields":"#.utf8)
        encode(record.fields, into: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// `{key: value, …}` in sorted key order.
    private static func encode(_ fields: RecordFields, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (offset, key) in fields.keys.sorted().enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.serialize(string: key, into: &output)
            output.append(UInt8(ascii: ":"))
            encode(fields[key]!, into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func encode(_ value: RecordValue, into output: inout [UInt8]) {
        switch value {
        case .scalar(let scalar):
            output.append(contentsOf: #"{"v":"#.utf8)
            scalar.serialize(into: &output)
        case .link(let id):
            output.append(contentsOf: #"{"__ref":"#.utf8)
            JSONValue.serialize(string: id.rawValue, into: &output)
        case .list(let items):
            output.append(contentsOf: #"{"__list":["#.utf8)
            for (offset, item) in items.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                encode(item, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .fieldErrors(let errors):
            output.append(contentsOf: #"{"__errors":"#.utf8)
            JSONValue.list(errors.map(\.jsonValue)).serialize(into: &output)
        case .embedded(let typename, let fields):
            output.append(contentsOf: #"{"__embedded":{"#.utf8)
            if let typename {
                output.append(contentsOf: #""__typename":"#.utf8)
                JSONValue.serialize(string: typename, into: &output)
                output.append(UInt8(ascii: ","))
            }
            output.append(contentsOf: #""fields":"#.utf8)
            encode(fields, into: &output)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "}"))
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws -> Record {
        // The form this type writes, in one pass; anything else through the general parser.
        if let record = bytes.withContiguousStorageIfAvailable({ RecordBlobDecoder.decode(UnsafeRawBufferPointer($0)) }) ?? nil {
            return record
        }
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
        if let errors = json["__errors"]?.listValue { return .fieldErrors(errors.map(GraphQLError.init(json:))) }
        if let embedded = json["__embedded"]?.objectValue {
            guard let fields = embedded["fields"]?.objectValue else { throw DecodingError(reason: "an embedded object without fields") }
            var decoded = RecordFields()
            for (key, value) in fields { decoded[key] = try decodeValue(value) }
            return .embedded(typename: embedded["__typename"]?.stringValue, fields: decoded)
        }
        throw DecodingError(reason: "unknown field value \(json)")
    }
}
