/// A JSON object that keeps the order of its keys. Looking a key up is a short linear scan for
/// small objects and a hash lookup for large ones. Two objects are equal when they hold the same
/// keys with equal values, whatever the order.
public struct JSONObject: Sendable {
    /// The keys, in order.
    public private(set) var keys: [String]
    /// The values, in the order of `keys`.
    public private(set) var values: [JSONValue]
    /// Positions by key, kept only for objects larger than `indexThreshold`.
    private var index: [String: Int]?

    static let indexThreshold = 12

    /// An empty object.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// An object with these members in this order; a repeated key keeps its first position and
    /// its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// Builds an object from keys known to be distinct, without checking (the parser's and the
    /// store reader's fast path). `keys` and `values` must have the same count.
    public init(uniqueKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        index = nil
        if keys.count > Self.indexThreshold { rebuildIndex() }
    }

    /// The number of keys.
    public var count: Int { keys.count }
    /// Whether the object has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of a key, if present.
    @inline(__always)
    package func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in keys.indices where keys[position] == key { return position }
        return nil
    }

    /// The value for a key; setting `nil` removes the key.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return values[position]
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    keys.remove(at: position)
                    values.remove(at: position)
                    if index != nil { rebuildIndex() }
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                if index != nil {
                    index?[key] = keys.count - 1
                } else if keys.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    private mutating func rebuildIndex() {
        var built = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        index = built
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator {
        zip(keys, values).makeIterator()
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard rhs[key] == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with `==`.
        var combined = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
