import Foundation

/// A value in a `[String: Any]` (or `[Any]`) that has no JSON form: a `Date`, a class instance.
public struct JSONConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the value is: `changeTodoStatus.todo.complete`, `tags[2]`.
    public let path: String
    /// The Swift type of the value found there.
    public let type: String

    /// An error for a value of `type` at `path`.
    public init(path: String, type: String) {
        self.path = path
        self.type = type
    }

    public var description: String { "\(path.isEmpty ? "the value" : path): \(type) has no JSON form" }
}

extension JSONValue {
    /// Converts a Foundation-style value, as Apollo iOS and Relay.swift take one (`[String: Any]`,
    /// `[Any]`, `String`, `Bool`, integers, floating-point numbers, `NSNull`, `nil`, `NSNumber`),
    /// or one that already is JSON (`JSONValue`, `JSONObject`, a ``CustomScalarType``, a
    /// ``GraphQLEnum``, a `String`-backed enum). Throws ``JSONConversionError`` naming the path of
    /// the first value that has no JSON form.
    public init(any value: Any) throws(JSONConversionError) {
        self = try Self.converting(value, path: "")
    }

    private static func converting(_ input: Any, path: String) throws(JSONConversionError) -> JSONValue {
        // The dynamic type of `input`: a Swift number, or an `NSNumber` (which casts to any of them).
        let dynamicType = Swift.type(of: input)
        switch input {
        case let value as JSONValue: return value
        case let value as JSONObject: return .object(value)
        case let value as String: return .string(value)
        // An `NSNumber` (what `JSONSerialization` gives) by what it holds: cast to `Bool` or
        // `Int`, it would convert whatever it holds.
        case let value as NSNumber where dynamicType is NSNumber.Type:
            guard let number = number(value) else { throw JSONConversionError(path: path, type: "NSNumber \(value)") }
            return number
        case let value as Bool where dynamicType == Bool.self: return .bool(value)
        case let value as Int where dynamicType == Int.self: return .int(value)
        case let value as Double where dynamicType == Double.self:
            guard value.isFinite else { throw JSONConversionError(path: path, type: "Double \(value)") }
            return .double(value)
        case let value as Float where dynamicType == Float.self:
            guard value.isFinite else { throw JSONConversionError(path: path, type: "Float \(value)") }
            return .double(Double(value))
        case let value as any BinaryInteger:
            guard let int = Int(exactly: value) else { throw JSONConversionError(path: path, type: "\(Swift.type(of: value)) \(value)") }
            return .int(int)
        case is NSNull: return .null
        case let value as any CustomScalarType: return value.jsonValue
        case let value as any GraphQLVariableValue where value.variableJSON != nil: return value.variableJSON!
        case let value as any RawRepresentable<String>: return .string(value.rawValue)
        case let value as [String: Any]:
            var object = JSONObject()
            for key in value.keys.sorted() {
                object[key] = try converting(value[key]!, path: path.isEmpty ? key : "\(path).\(key)")
            }
            return .object(object)
        case let value as [Any]:
            var list: [JSONValue] = []
            list.reserveCapacity(value.count)
            for (index, element) in value.enumerated() { list.append(try converting(element, path: "\(path)[\(index)]")) }
            return .list(list)
        default:
            // An `Optional` inside `Any`: `nil` is null, a value converts.
            let mirror = Mirror(reflecting: input)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else { return .null }
                return try converting(wrapped, path: path)
            }
            throw JSONConversionError(path: path, type: String(describing: dynamicType))
        }
    }

    private static func number(_ number: NSNumber) -> JSONValue? {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "d", "f": return number.doubleValue.isFinite ? .double(number.doubleValue) : nil
        default: return .int(number.intValue)
        }
    }

    /// The value as Foundation's JSON types (`[String: Any]`, `[Any]`, `String`, `Bool`, `Int`,
    /// `Double`, `NSNull`), which `JSONSerialization` takes.
    public var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .list(let list): return list.map(\.foundationValue)
        case .object(let object): return object.foundationObject
        }
    }
}

extension JSONObject {
    /// Converts a `[String: Any]`, as ``JSONValue/init(any:)`` does each value (keys in sorted
    /// order: a dictionary has none of its own).
    public init(any dictionary: [String: Any]) throws(JSONConversionError) {
        guard case .object(let object) = try JSONValue(any: dictionary) else { preconditionFailure("a dictionary converts to an object") }
        self = object
    }

    /// The object as a `[String: Any]` of Foundation's JSON types, which `JSONSerialization` takes.
    public var foundationObject: [String: Any] {
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(count)
        for (key, value) in self { dictionary[key] = value.foundationValue }
        return dictionary
    }
}
