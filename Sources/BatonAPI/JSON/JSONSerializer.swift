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
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x00..<0x20:
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
