@_spi(BatonStorage) import BatonStore
import BatonAPI

/// Writes records in the cache's stored form, a binary form made to be read back in one pass
/// with no text to scan: every string is its length and its UTF-8 bytes, and a record's keys
/// come together, so a reader meets the keys of a record shape as one run of bytes it has seen
/// before (see ``RecordReader``). A cold read spends most of its time decoding records; the
/// JSON form version 2 wrote (``RecordCoding``) took three times as long to decode, mostly in
/// scanning strings for escapes (measured with callgrind on the bench's `--profile coldRead`).
///
/// ```
/// record   := 0xBB, typename, varint count, varint byte length of the keys,
///             string key × count, value × count (in the order of the keys)
/// typename := varint 0 (none) | varint length + 1, UTF-8 bytes
/// string   := varint byte length, UTF-8 bytes
/// value    := 0 null | 1 false | 2 true | 3 int (zigzag varint) | 4 double (8 bytes, little-endian)
///           | 5 string | 6 JSON list (varint count, value × count)
///           | 7 JSON object (varint count, (string key, value) × count)
///           | 8 link (string ID) | 9 list of field values (varint count, value × count)
///           | 10 field errors (a JSON list of errors in the response's error format, tag 6)
///           | 11 embedded object (typename, varint count, (string key, value) × count)
/// ```
/// Varints are LEB128: seven bits a byte, low bits first. Values 6 and 7 hold JSON values only
/// (tags 0 to 7); 8 to 11 appear only as a field's value, inside a list of field values or
/// inside an embedded object. Files written before field errors were kept have no tag 10, nor
/// files written before embedded fields tag 11, and read as before.
///
/// The record's ID is its row's `id` column. Version 3 files also held it in the record, after
/// the marker `0xBA` (`0xBA, string ID, typename, …`); those records read as before. Without the
/// second copy, the GitHub response's records take 511 KB instead of 594 KB, and a new
/// connection's first write of them 12.5 M instructions instead of 13.2 M (callgrind, the bench's
/// `--profile cacheWrite`).
struct RecordWriter {
    /// The first byte of a record in this form.
    static let marker: UInt8 = 0xBB
    /// The first byte of a record in version 3's form, which held its ID.
    static let markerWithID: UInt8 = 0xBA

    enum Tag: UInt8 {
        case null = 0, `false`, `true`, int, double, string, jsonList, jsonObject, link, list, fieldErrors, embedded
    }

    func write(_ record: Record, into output: ByteBuffer) {
        output.append(Self.marker)
        Self.write(typename: record.typename, into: output)
        let fields = record.fields
        Self.write(varint: UInt64(fields.count), into: output)
        var keysLength = 0
        for key in fields.keys {
            let length = key.utf8.count
            keysLength += Self.varintLength(UInt64(length)) + length
        }
        Self.write(varint: UInt64(keysLength), into: output)
        for key in fields.keys { Self.write(string: key, into: output) }
        for value in fields.values { Self.write(value, into: output) }
    }

    private static func write(_ value: RecordValue, into output: ByteBuffer) {
        switch value {
        case .scalar(let scalar):
            write(scalar, into: output)
        case .link(let id):
            output.append(Tag.link.rawValue)
            write(string: id.rawValue, into: output)
        case .list(let items):
            output.append(Tag.list.rawValue)
            write(varint: UInt64(items.count), into: output)
            for item in items { write(item, into: output) }
        case .fieldErrors(let errors):
            output.append(Tag.fieldErrors.rawValue)
            write(JSONValue.list(errors.map(\.jsonValue)), into: output)
        case .embedded(let typename, let fields):
            output.append(Tag.embedded.rawValue)
            write(typename: typename, into: output)
            write(varint: UInt64(fields.count), into: output)
            for (key, item) in fields {
                write(string: key, into: output)
                write(item, into: output)
            }
        }
    }

    private static func write(_ value: JSONValue, into output: ByteBuffer) {
        switch value {
        case .null: output.append(Tag.null.rawValue)
        case .bool(let bool): output.append(bool ? Tag.true.rawValue : Tag.false.rawValue)
        case .int(let int):
            output.append(Tag.int.rawValue)
            // Zigzag: small negative numbers take few bytes too.
            write(varint: UInt64(bitPattern: Int64((int << 1) ^ (int >> (Int.bitWidth - 1)))), into: output)
        case .double(let double):
            output.append(Tag.double.rawValue)
            var bits = double.bitPattern.littleEndian
            withUnsafeBytes(of: &bits) { output.append($0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 8) }
        case .string(let string):
            output.append(Tag.string.rawValue)
            write(string: string, into: output)
        case .list(let items):
            output.append(Tag.jsonList.rawValue)
            write(varint: UInt64(items.count), into: output)
            for item in items { write(item, into: output) }
        case .object(let object):
            output.append(Tag.jsonObject.rawValue)
            write(varint: UInt64(object.count), into: output)
            for (key, item) in zip(object.keys, object.values) {
                write(string: key, into: output)
                write(item, into: output)
            }
        }
    }

    /// `typename` as the form has it: 0 for none, else its length + 1 and its UTF-8 bytes.
    static func write(typename: String?, into output: ByteBuffer) {
        guard var typename else {
            write(varint: 0, into: output)
            return
        }
        typename.withUTF8 { bytes in
            write(varint: UInt64(bytes.count) + 1, into: output)
            if let base = bytes.baseAddress { output.append(base, count: bytes.count) }
        }
    }

    static func write(string: String, into output: ByteBuffer) {
        var string = string
        string.withUTF8 { bytes in
            write(varint: UInt64(bytes.count), into: output)
            if let base = bytes.baseAddress { output.append(base, count: bytes.count) }
        }
    }

    @inline(__always)
    static func write(varint value: UInt64, into output: ByteBuffer) {
        output.reserve(10)
        var out = output.end
        var rest = value
        while rest >= 0x80 {
            out[0] = UInt8(truncatingIfNeeded: rest) | 0x80
            out += 1
            rest >>= 7
        }
        out[0] = UInt8(rest)
        output.advance(to: out + 1)
    }

    static func varintLength(_ value: UInt64) -> Int {
        var length = 1
        var rest = value >> 7
        while rest != 0 {
            length += 1
            rest >>= 7
        }
        return length
    }
}
