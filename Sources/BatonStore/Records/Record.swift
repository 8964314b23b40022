import BatonAPI

/// A normalized record: an object of the response stored once under its `DataID`, with its
/// scalar fields and links to other records. Field keys are storage keys (`todos(first:10)`).
public struct Record: Sendable, Hashable {
    /// The record's parts, kept in a struct of their own so that a record is made through that
    /// struct's memberwise initializer, which moves the parts in. An initializer that assigned
    /// them one by one made this compiler (Swift 6.3) copy each new record once more on its way
    /// out: five retains and five releases per record, and the GitHub receive makes 1,300.
    private var parts: Parts

    private struct Parts: Sendable, Hashable {
        let id: DataID
        var typename: String?
        var fields: RecordFields
    }

    // The parts are read and changed in place (`_read`, `_modify`): a `get` would copy them
    // out, retaining each array of the fields at every read.

    /// The record's ID.
    public var id: DataID {
        _read { yield parts.id }
    }

    /// The record's `__typename`, when known.
    public var typename: String? {
        _read { yield parts.typename }
        _modify { yield &parts.typename }
    }

    /// The fields, by storage key.
    public var fields: RecordFields {
        _read { yield parts.fields }
        _modify { yield &parts.fields }
    }

    public init(id: DataID, typename: String? = nil, fields: RecordFields = [:]) {
        parts = Parts(id: id, typename: typename, fields: fields)
    }

    public subscript(storageKey: String) -> RecordValue? {
        get { fields[storageKey] }
        set { fields[storageKey] = newValue }
    }

    /// The records this one links to, directly or through lists.
    public var linkedIDs: [DataID] {
        var result: [DataID] = []
        for value in fields.values { value.collectLinks(into: &result) }
        return result
    }
}

/// The value of a record's field: a scalar (or a list of scalars, or null), a link to another
/// record, a list whose items are links, nulls or nested lists, or the errors a response reported
/// for the field (or a list item) instead of a value.
public enum RecordValue: Sendable, Hashable {
    case scalar(JSONValue)
    case link(DataID)
    case list([RecordValue])
    /// The response's errors at or below this field, which the server nulled for them (Relay and
    /// Apollo Kotlin keep them likewise). Each error's `path` is relative to the field (empty for
    /// an error at the field itself). A read gives the errors, not a miss and not an older value,
    /// until a later response writes the field.
    case fieldErrors([GraphQLError])
    /// An object stored inside this record rather than as a record of its own (the field is one
    /// of its type's `@typePolicy(embeddedFields:)`): its typename and its fields, which hold
    /// values as a record's do (links to other records, other embedded objects).
    case embedded(typename: String?, fields: RecordFields)

    public static let null = RecordValue.scalar(.null)

    /// Whether the value is a string (compared last: see `RecordFields.hasSameContents(as:)`).
    var isText: Bool {
        if case .scalar(.string) = self { return true }
        return false
    }

    /// This value written over `old`: an embedded object merges field by field into the one it
    /// replaces (as the record it would otherwise be merges), and so do the embedded items of a
    /// list at the same positions; anything else replaces what was there.
    public func merged(over old: RecordValue?) -> RecordValue {
        switch (self, old) {
        case (.embedded(let typename, let fields), .embedded(let oldTypename, var merged)?):
            merged.merge(fields)
            return .embedded(typename: typename ?? oldTypename, fields: merged)
        case (.list(let items), .list(let oldItems)?) where items.contains(where: { $0.holdsEmbedded }):
            var result = items
            for index in result.indices where index < oldItems.count {
                result[index] = items[index].merged(over: oldItems[index])
            }
            return .list(result)
        default:
            return self
        }
    }

    /// Whether this is an embedded object or a list holding one.
    var holdsEmbedded: Bool {
        switch self {
        case .embedded: return true
        case .list(let items): return items.contains(where: { $0.holdsEmbedded })
        case .scalar, .link, .fieldErrors: return false
        }
    }

    func collectLinks(into result: inout [DataID]) {
        forEachLink { result.append($0) }
    }

    /// Calls `body` with each ID this value links to, directly or through lists, in order.
    func forEachLink(_ body: (DataID) -> Void) {
        switch self {
        case .scalar, .fieldErrors: return
        case .link(let id): body(id)
        case .list(let items): for item in items { item.forEachLink(body) }
        case .embedded(_, let fields): for value in fields.values { value.forEachLink(body) }
        }
    }

    /// The linked record's ID, if this is a link.
    public var linkedID: DataID? {
        if case .link(let id) = self { return id }
        return nil
    }

    /// The linked IDs, if this is a list of links (nulls as `nil`).
    public var linkedIDs: [DataID?]? {
        guard case .list(let items) = self else { return nil }
        var ids: [DataID?] = []
        for item in items {
            switch item {
            case .link(let id): ids.append(id)
            case .scalar(.null): ids.append(nil)
            default: return nil
            }
        }
        return ids
    }

    /// The scalar value, if this is a scalar.
    public var scalarValue: JSONValue? {
        if case .scalar(let value) = self { return value }
        return nil
    }
}

/// The fields of a record by storage key, compactly: the keys in one array, which records of
/// the same shape share (the normalizer makes one per selection set and type), and the values
/// in another. Looking a key up is a short linear scan for small records and a hash lookup for
/// large ones. Like a dictionary, two are equal when they hold the same keys with equal values,
/// whatever the order.
public struct RecordFields: Sendable {
    public private(set) var keys: [String]
    public private(set) var values: [RecordValue]
    /// Positions by key, kept only for records larger than `indexThreshold`.
    private var index: [String: Int]?

    static let indexThreshold = 12

    /// No fields.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// Fields from keys known to be distinct, without checking. `keys` and `values` must have
    /// the same count.
    init(uniqueKeys keys: [String], values: [RecordValue]) {
        self.keys = keys
        self.values = values
        index = Self.index(of: keys)
    }

    /// Fields with a prepared index (a shape's), without checking.
    private init(keys: [String], values: [RecordValue], index: [String: Int]?) {
        self.keys = keys
        self.values = values
        self.index = index
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Whether both hold the same keys in the same order with equal values (arrays shared by
    /// records of one plan compare by identity first).
    func hasSameContents(as other: RecordFields) -> Bool {
        guard keys.count == other.keys.count, keys == other.keys else { return false }
        return values.withUnsafeBufferPointer { values in
            other.values.withUnsafeBufferPointer { others in
                // One array (a record published again as it was): equal without a look inside.
                if values.baseAddress == others.baseAddress { return true }
                // Everything but text first: a record that changed mostly changed there (a link
                // to another record, a count), and a long text is then not read to the end only
                // to find a difference elsewhere (two publishers' commits compared every body).
                for index in values.indices where !values[index].isText && values[index] != others[index] { return false }
                for index in values.indices where values[index].isText && values[index] != others[index] { return false }
                return true
            }
        }
    }

    @inline(__always)
    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in keys.indices where keys[position] == key { return position }
        return nil
    }

    /// The value stored under a key; setting `nil` removes the key.
    public subscript(key: String) -> RecordValue? {
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

    /// Fields from key-value pairs; a repeated key keeps its first position and its last value.
    init<S: Sequence>(_ members: S) where S.Element == (String, RecordValue) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// Whether merging these fields over `other` replaces every value of it: the same keys, and
    /// no embedded object (which would merge into the one there instead).
    func replacesEveryValue(of other: RecordFields) -> Bool {
        keys == other.keys && !values.contains(where: { $0.holdsEmbedded })
    }

    /// Takes `other`'s values, each into its own array (the keys must be the same, in the same
    /// order), and leaves the values it replaced in `other`: values move, nothing is copied or
    /// allocated while both are unshared. A link or a list equal to the one there stays (the
    /// one in `other` is what gets freed with it); a text is not compared first (a long body
    /// would be read to its end), it is exchanged.
    mutating func exchangeValues(with other: inout RecordFields) {
        assert(keys == other.keys, "values exchanged between fields of different keys")
        for position in values.indices {
            if other.values[position].isText || other.values[position] != values[position] {
                swap(&values[position], &other.values[position])
            }
        }
    }

    /// Sets every field of `other` on these fields (an embedded object merged into the one
    /// there, see ``RecordValue/merged(over:)``).
    public mutating func merge(_ other: RecordFields) {
        // The same keys (a record met again in one response, read with the same selections):
        // every value is replaced.
        if keys.isEmpty || other.replacesEveryValue(of: self) {
            self = other
            return
        }
        for (key, value) in other { self[key] = value.merged(over: self[key]) }
    }

    private mutating func rebuildIndex() {
        index = Self.positions(of: keys)
    }

    /// The index fields with these (distinct) keys start with: none for small records.
    static func index(of keys: [String]) -> [String: Int]? {
        keys.count > indexThreshold ? positions(of: keys) : nil
    }

    private static func positions(of keys: [String]) -> [String: Int] {
        var built = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        return built
    }
}

extension RecordFields: Sequence {
    public struct Iterator: IteratorProtocol {
        private let fields: RecordFields
        private var position = 0

        init(_ fields: RecordFields) { self.fields = fields }

        public mutating func next() -> (key: String, value: RecordValue)? {
            guard position < fields.keys.count else { return nil }
            defer { position += 1 }
            return (fields.keys[position], fields.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
    public var underestimatedCount: Int { keys.count }
}

extension RecordFields: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, RecordValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}

extension RecordFields: Hashable {
    public static func == (lhs: RecordFields, rhs: RecordFields) -> Bool {
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

/// The keys of records of one shape, with their lookup index, made once and shared by every
/// record of that shape a decoder makes (for caches that store records as bytes).
@_spi(BatonStorage)
public struct RecordShape: Sendable {
    let keys: [String]
    let index: [String: Int]?

    /// The shape of records with these keys, in this order; `nil` when a key repeats.
    public init?(keys: [String]) {
        guard Set(keys).count == keys.count else { return nil }
        self.keys = keys
        index = RecordFields.index(of: keys)
    }

    /// How many keys records of this shape have.
    public var count: Int { keys.count }
}

extension RecordFields {
    /// Fields with a shape's keys and these values, in the order of the keys. `values` must have
    /// as many elements as the shape has keys.
    @_spi(BatonStorage)
    public init(shape: RecordShape, values: [RecordValue]) {
        self.init(keys: shape.keys, values: values, index: shape.index)
    }
}
