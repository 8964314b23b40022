import BatonAPI

/// A normalized record: an object of the response stored once under its ``DataID``, with its
/// scalar fields and links to other records. Field keys are storage keys (`todos(first:10)`).
public struct Record: Sendable, Hashable {
    public let id: DataID
    public var typename: String?
    public var fields: [String: RecordValue]

    public init(id: DataID, typename: String? = nil, fields: [String: RecordValue] = [:]) {
        self.id = id
        self.typename = typename
        self.fields = fields
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
/// record, or a list whose items are links, nulls or nested lists.
public indirect enum RecordValue: Sendable, Hashable {
    case scalar(JSONValue)
    case link(DataID)
    case list([RecordValue])

    public static let null = RecordValue.scalar(.null)

    func collectLinks(into result: inout [DataID]) {
        switch self {
        case .scalar: return
        case .link(let id): result.append(id)
        case .list(let items): for item in items { item.collectLinks(into: &result) }
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
