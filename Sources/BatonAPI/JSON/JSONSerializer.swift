import struct Foundation.Data

extension JSONValue {
    /// The value as compact JSON (UTF-8). With `sortedKeys`, object keys are written in
    /// lexicographic order (used for storage keys and stable hashes); otherwise in their own order.
    public func serialized(sortedKeys: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        JSONSerializer.write(self, into: &output, sortedKeys: sortedKeys)
        return output
    }

    /// The value as compact JSON `Data`.
    public func serializedData(sortedKeys: Bool = false) -> Data {
        Data(serialized(sortedKeys: sortedKeys))
    }

    /// Appends the value as compact JSON (UTF-8) to `output`, for writers of larger documents.
    public func serialize(into output: inout [UInt8], sortedKeys: Bool = false) {
        JSONSerializer.write(self, into: &output, sortedKeys: sortedKeys)
    }

    /// Appends `string` as a JSON string (quoted, escaped) to `output`.
    public static func serialize(string: String, into output: inout [UInt8]) {
        JSONSerializer.writeString(string, into: &output)
    }

    /// The value as a compact JSON string.
    public func serializedString(sortedKeys: Bool = false) -> String {
        String(decoding: serialized(sortedKeys: sortedKeys), as: UTF8.self)
    }
}

extension JSONObject {
    /// The object as compact JSON `Data`.
    public func serializedData(sortedKeys: Bool = false) -> Data {
        JSONValue.object(self).serializedData(sortedKeys: sortedKeys)
    }
}

enum JSONSerializer {
    static func write(_ value: JSONValue, into output: inout [UInt8], sortedKeys: Bool) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int):
            output.append(contentsOf: String(int).utf8)
        case .double(let double):
            if double.isFinite {
                if double == double.rounded(.towardZero) && abs(double) < 1e15 {
                    // Whole numbers as `1.0`, which stays a Float when read back.
                    output.append(contentsOf: String(Int(double)).utf8)
                    output.append(contentsOf: ".0".utf8)
                } else {
                    output.append(contentsOf: double.description.utf8)
                }
            } else {
                output.append(contentsOf: "null".utf8)  // JSON has no infinities or NaN.
            }
        case .string(let string):
            writeString(string, into: &output)
        case .list(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output, sortedKeys: sortedKeys)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var first = true
            let order: [Int] =
                sortedKeys
                ? object.keys.indices.sorted { object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8) }
                : Array(object.keys.indices)
            for position in order {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                writeString(object.keys[position], into: &output)
                output.append(UInt8(ascii: ":"))
                write(object.values[position], into: &output, sortedKeys: sortedKeys)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Copy runs of bytes that need no escape at once; escape the others one by one.
            var runStart = 0
            for (position, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                runStart = position + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    output.append(contentsOf: "u00".utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0xF)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
