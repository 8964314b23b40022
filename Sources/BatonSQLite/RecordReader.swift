@_spi(BatonStorage) import BatonAPI
@_spi(BatonStorage) import BatonStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads records in the stored form ``RecordWriter`` writes, the form of version 3 files (which
/// held each record's ID), and the JSON form of files written before version 3
/// (``RecordCoding``). Records of one shape share their keys: the reader keeps the shapes it met
/// last and, when a record's keys are the same bytes as one of them, gives the record that
/// shape's keys and index without making a string (records of one type are stored side by side,
/// so a few shapes cover a response).
///
/// Anything out of place (a length past the end, an unknown tag, a repeated key, bytes that are
/// not UTF-8, bytes left over) makes the record unreadable: `nil`.
final class RecordReader {
    private var shapes: [(bytes: [UInt8], shape: RecordShape)] = []
    private var nextSlot = 0
    private static let remembered = 32

    /// The record stored in `bytes`, in the row of `id`; `nil` when the bytes are not a record,
    /// or hold one of another ID (the forms before version 4 hold their ID too).
    func decode(_ bytes: UnsafeRawBufferPointer, id: DataID) -> Record? {
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "{") {
            guard let record = try? RecordCoding.decode(bytes), record.id == id else { return nil }
            return record
        }
        var cursor = Cursor(bytes: bytes, position: 1)
        switch first {
        case RecordWriter.marker:
            break
        case RecordWriter.markerWithID:
            guard let length = cursor.varint(), let stored = cursor.take(length), Self.same(id, stored) else { return nil }
        default:
            return nil
        }
        guard let typenameLength = cursor.varint() else { return nil }
        var typename: String?
        if typenameLength > 0 {
            guard let name = self.typename(cursor.take(typenameLength - 1)) else { return nil }
            typename = name
        }
        guard let count = cursor.varint(), let keysLength = cursor.varint(), let keyBytes = cursor.take(keysLength) else { return nil }
        guard let shape = shape(count: count, keyBytes: keyBytes) else { return nil }
        var values: [RecordValue] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = cursor.fieldValue() else { return nil }
            values.append(value)
        }
        guard cursor.isAtEnd else { return nil }
        return Record(id: id, typename: typename, fields: RecordFields(shape: shape, values: values))
    }

    /// The last typename read, as bytes and as a string: records of one type are stored side by side.
    private var lastTypename: (bytes: [UInt8], name: String) = ([], "")

    private func typename(_ bytes: UnsafeRawBufferPointer?) -> String? {
        guard let bytes else { return nil }
        if Self.same(lastTypename.bytes, bytes) { return lastTypename.name }
        var cursor = Cursor(bytes: bytes, position: 0)
        guard let name = cursor.string(length: bytes.count) else { return nil }
        lastTypename = (Array(bytes), name)
        return name
    }

    /// The shape whose keys are `keyBytes`: one met before, or a new one.
    private func shape(count: Int, keyBytes: UnsafeRawBufferPointer) -> RecordShape? {
        for entry in shapes where entry.shape.count == count && Self.same(entry.bytes, keyBytes) {
            return entry.shape
        }
        var cursor = Cursor(bytes: keyBytes, position: 0)
        var keys: [String] = []
        keys.reserveCapacity(count)
        for _ in 0..<count {
            guard let key = cursor.string() else { return nil }
            keys.append(key)
        }
        guard cursor.isAtEnd, let shape = RecordShape(keys: keys) else { return nil }
        let entry = (Array(keyBytes), shape)
        if shapes.count < Self.remembered {
            shapes.append(entry)
        } else {
            shapes[nextSlot] = entry
            nextSlot = (nextSlot + 1) % Self.remembered
        }
        return shape
    }

    /// Whether `id`'s UTF-8 is exactly `bytes`.
    private static func same(_ id: DataID, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var text = id.rawValue
        return text.withUTF8 { known in
            known.count == bytes.count && (bytes.isEmpty || memcmp(known.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }

    /// Whether `known` holds exactly `bytes`.
    private static func same(_ known: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        known.count == bytes.count
            && known.withUnsafeBytes { known in bytes.isEmpty || memcmp(known.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position: Int

        var isAtEnd: Bool { position == bytes.count }

        /// A varint that counts something (a length, a number of items).
        mutating func varint() -> Int? {
            guard let value = rawVarint(), value <= UInt64(Int.max) else { return nil }
            return Int(value)
        }

        mutating func rawVarint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count, shift < 64 {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count <= bytes.count - position else { return nil }
            defer { position += count }
            return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
        }

        mutating func string() -> String? {
            guard let length = varint() else { return nil }
            return string(length: length)
        }

        /// `length` bytes as a string, when they are valid UTF-8.
        mutating func string(length: Int) -> String? {
            guard let slice = take(length) else { return nil }
            return String(validUTF8: slice)
        }

        mutating func fieldValue() -> RecordValue? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case RecordWriter.Tag.link.rawValue:
                position += 1
                return string().map { .link(DataID($0)) }
            case RecordWriter.Tag.list.rawValue:
                position += 1
                guard let count = varint(), count <= bytes.count - position else { return nil }
                var items: [RecordValue] = []
                items.reserveCapacity(count)
                for _ in 0..<count {
                    guard let item = fieldValue() else { return nil }
                    items.append(item)
                }
                return .list(items)
            case RecordWriter.Tag.fieldErrors.rawValue:
                position += 1
                guard case .list(let errors)? = jsonValue() else { return nil }
                return .fieldErrors(errors.map(GraphQLError.init(json:)))
            case RecordWriter.Tag.embedded.rawValue:
                position += 1
                guard let typenameLength = varint() else { return nil }
                var typename: String?
                if typenameLength > 0 {
                    guard let name = string(length: typenameLength - 1) else { return nil }
                    typename = name
                }
                guard let count = varint(), count <= bytes.count - position else { return nil }
                var fields = RecordFields()
                for _ in 0..<count {
                    guard let key = string(), fields[key] == nil, let item = fieldValue() else { return nil }
                    fields[key] = item
                }
                return .embedded(typename: typename, fields: fields)
            default:
                return jsonValue().map { .scalar($0) }
            }
        }

        mutating func jsonValue() -> JSONValue? {
            guard position < bytes.count, let tag = RecordWriter.Tag(rawValue: bytes[position]) else { return nil }
            position += 1
            switch tag {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .int:
                guard let zigzag = rawVarint() else { return nil }
                return .int(Int(truncatingIfNeeded: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))))
            case .double:
                guard let raw = take(8) else { return nil }
                return .double(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))))
            case .string:
                return string().map { .string($0) }
            case .jsonList:
                guard let count = varint(), count <= bytes.count - position else { return nil }
                var items: [JSONValue] = []
                items.reserveCapacity(count)
                for _ in 0..<count {
                    guard let item = jsonValue() else { return nil }
                    items.append(item)
                }
                return .list(items)
            case .jsonObject:
                guard let count = varint(), count <= bytes.count - position else { return nil }
                var object = JSONObject()
                for _ in 0..<count {
                    guard let key = string(), object[key] == nil, let item = jsonValue() else { return nil }
                    object[key] = item
                }
                return .object(object)
            case .link, .list, .fieldErrors, .embedded:
                return nil
            }
        }
    }
}
