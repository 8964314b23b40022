import BatonAPI

/// Storage keys of fields with arguments, in relay-runtime's format: `name(arg:JSON,…)` with
/// arguments sorted by name, values as JSON with object keys sorted, null or absent arguments
/// dropped; with no arguments left, just `name`.
public enum StorageKey {
    /// `todos(first:10)`, `node(id:"1")`, `friends(first:1,orderby:["name"])`.
    public static func make(fieldName: String, arguments: [String: JSONValue]) -> String {
        FieldKeys.storageKey(fieldName: fieldName, arguments: arguments)
    }

    /// The storage key of a selected field, its variables resolved.
    public static func make(field: Field, variables: JSONObject) -> String {
        FieldKeys.storageKey(of: field, variables: variables)
    }
}

/// Client IDs for objects without a cache key, exactly as relay-runtime makes them.
public enum ClientID {
    /// `client:<parentID>:<storageKey>`, plus `:<index>` for an item of a list.
    public static func make(parentID: DataID, storageKey: String, index: Int? = nil) -> DataID {
        DataID(text(parentID: parentID, storageKey: storageKey, index: index))
    }

    /// ``make(parentID:storageKey:index:)``'s text.
    static func text(parentID: DataID, storageKey: String, index: Int? = nil) -> String {
        let parent = parentID.rawValue
        let prefixed = parent.hasPrefix("client:")
        var length = (prefixed ? 0 : 7) + parent.utf8.count + 1 + storageKey.utf8.count
        if let index { length += 1 + IDText.digitCount(index) }
        return IDText.build(length: length) { text in
            if !prefixed { text.append("client:") }
            text.append(parent)
            text.append(UInt8(ascii: ":"))
            text.append(storageKey)
            if let index {
                text.append(UInt8(ascii: ":"))
                text.append(index)
            }
        }
    }

    /// `<listID>:<index>`: the client ID of an item of the list whose client ID is `listID`.
    static func item(of listID: String, at index: Int) -> String {
        IDText.build(length: listID.utf8.count + 1 + IDText.digitCount(index)) { text in
            text.append(listID)
            text.append(UInt8(ascii: ":"))
            text.append(index)
        }
    }
}

/// Record IDs written byte by byte into one allocation of their exact length. Measured with
/// callgrind on the GitHub receive: a list item's client ID made with `+=` on a string with
/// reserved capacity cost about 1,600 instructions (three appends, each checking capacity and
/// ASCII-ness, and `String(index)`), under half of that written at once.
enum IDText {
    /// Writes into the buffer of a string being made.
    struct Writer {
        fileprivate let buffer: UnsafeMutableBufferPointer<UInt8>
        fileprivate var count = 0

        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        /// A string's bytes, read in place for a native or small string (without the copy, and
        /// its retain, that `withUTF8` on a `var` makes).
        mutating func append(_ string: String) {
            if string.utf8.withContiguousStorageIfAvailable({ append(bytes: $0) }) == nil {
                var copy = string
                copy.withUTF8 { append(bytes: $0) }
            }
        }

        private mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress else { return }
            (buffer.baseAddress! + count).update(from: source, count: bytes.count)
            count += bytes.count
        }

        /// An integer in decimal, as `String(index)` writes it.
        mutating func append(_ index: Int) {
            if index < 0 { append(UInt8(ascii: "-")) }
            var rest = index.magnitude
            let digits = IDText.digitCount(rest)
            var position = count + digits
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            count += digits
        }
    }

    /// The length of an integer in decimal, sign included.
    static func digitCount(_ value: Int) -> Int {
        (value < 0 ? 1 : 0) + digitCount(value.magnitude)
    }

    fileprivate static func digitCount(_ value: UInt) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// The string `write` writes, which must be exactly `length` bytes.
    static func build(length: Int, _ write: (inout Writer) -> Void) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            var writer = Writer(buffer: buffer)
            write(&writer)
            return writer.count
        }
    }
}
