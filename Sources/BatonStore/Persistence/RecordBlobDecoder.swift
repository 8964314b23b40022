@_spi(BatonStorage) import BatonAPI

/// Decodes the records ``RecordCoding`` writes without building a JSON tree first: the record
/// form is fixed (`{"__id":…,"__typename":…,"fields":{…}}`, keys sorted, no whitespace, each
/// value wrapped as `{"v":…}`, `{"__ref":…}` or `{"__list":[…]}`), so one pass over the bytes
/// makes the fields directly. A cold read spends most of its time decoding records; a general
/// JSON parse first made an object for every field's wrapper (measured with callgrind on the
/// bench's `--profile coldRead`).
///
/// Each value (a string, a number, a custom scalar's object) is parsed in place by the JSON
/// parser (`JSONScanner`). Anything else (whitespace, keys out of order, bytes that are not
/// UTF-8) gives `nil`, and ``RecordCoding/decode(_:)`` falls back to the general parser for the
/// whole record, which reads any form and says what is wrong.
struct RecordBlobDecoder: ~Copyable {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> Record? {
        var decoder = RecordBlobDecoder(bytes)
        return decoder.record()
    }

    private mutating func record() -> Record? {
        guard skip(#"{"__id":"#), let id = string() else { return nil }
        var typename: String?
        if skip(#","__typename":"#) {
            guard let name = string() else { return nil }
            typename = name
        }
        guard skip(#","fields":{"#) else { return nil }
        var keys: [String] = []
        var values: [RecordValue] = []
        if !skip("}") {
            while true {
                guard let key = string(), skip(":"), let value = fieldValue() else { return nil }
                // The writer sorts keys: in order means distinct.
                if let last = keys.last, !(last < key) { return nil }
                keys.append(key)
                values.append(value)
                if skip(",") { continue }
                guard skip("}") else { return nil }
                break
            }
        }
        guard skip("}"), position == bytes.count else { return nil }
        return Record(id: DataID(id), typename: typename, fields: RecordFields(uniqueKeys: keys, values: values))
    }

    private mutating func fieldValue() -> RecordValue? {
        if skip(#"{"v":"#) {
            guard let scalar = scalar(), skip("}") else { return nil }
            return .scalar(scalar)
        }
        if skip(#"{"__ref":"#) {
            guard let id = string(), skip("}") else { return nil }
            return .link(DataID(id))
        }
        guard skip(#"{"__list":["#) else { return nil }
        var items: [RecordValue] = []
        if !skip("]") {
            while true {
                guard let item = fieldValue() else { return nil }
                items.append(item)
                if skip(",") { continue }
                guard skip("]") else { return nil }
                break
            }
        }
        guard skip("}") else { return nil }
        return .list(items)
    }

    private mutating func scalar() -> JSONValue? {
        JSONScanner.value(in: bytes, at: &position)
    }

    private mutating func string() -> String? {
        JSONScanner.string(in: bytes, at: &position)
    }

    private mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[position + offset] != expected[offset] { return false }
            return true
        }
        if matches { position += count }
        return matches
    }
}
