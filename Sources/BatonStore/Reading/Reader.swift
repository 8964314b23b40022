import BatonAPI

/// What reading selections from records gave: the response-shaped object (or `nil` if the root
/// record is missing or deleted), every record ID the read touched, and whether anything was missing.
public struct ReadResult: Sendable, Hashable {
    public let data: JSONObject?
    public let seenIDs: Set<DataID>
    /// The storage keys read from the root record (`client:root`). Every query starts there, so
    /// watchers depend on the root's fields, not the whole root.
    public let seenRootFields: Set<String>
    /// Some selected field or record is not in the store: the data is incomplete (a cache miss).
    public let isMissing: Bool

    public init(data: JSONObject?, seenIDs: Set<DataID>, seenRootFields: Set<String> = [], isMissing: Bool) {
        self.data = data
        self.seenIDs = seenIDs
        self.seenRootFields = seenRootFields
        self.isMissing = isMissing
    }
}

/// Reads selections from a record source into a response-shaped object: the inverse of the
/// normalizer. A deleted record reads as null; a missing record or field marks the read missing.
public struct Reader {
    public typealias Lookup = (DataID) -> RecordState?

    private let lookup: Lookup
    private var seen = Set<DataID>()
    private var seenRootFields = Set<String>()
    private var isMissing = false

    init(lookup: @escaping Lookup) {
        self.lookup = lookup
    }

    /// Reads `selections` starting at record `rootID`.
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        lookup: @escaping Lookup
    ) -> ReadResult {
        var reader = Reader(lookup: lookup)
        reader.seen.insert(rootID)
        switch lookup(rootID) {
        case .present(let record)?:
            let data = reader.readObject(record, parentType: rootType, plan: SelectionPlan(selections, parentType: rootType, variables: variables))
            return ReadResult(data: data, seenIDs: reader.seen, seenRootFields: reader.seenRootFields, isMissing: reader.isMissing)
        case .deleted?:
            // A deleted root reads as no data, and nothing is missing (relay-runtime's reader).
            return ReadResult(data: nil, seenIDs: reader.seen, isMissing: false)
        case nil:
            return ReadResult(data: nil, seenIDs: reader.seen, isMissing: true)
        }
    }

    /// Reads `selections` from a record source.
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        source: RecordSource
    ) -> ReadResult {
        read(selections: selections, rootID: rootID, rootType: rootType, variables: variables) { source.state(of: $0) }
    }

    private mutating func readObject(_ record: Record, parentType: String, plan: SelectionPlan) -> JSONObject {
        let planned = plan.object(for: record.typename ?? parentType).fields
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(planned.count)
        values.reserveCapacity(planned.count)
        let isRoot = record.id == .rootID
        for entry in planned {
            let value: JSONValue
            switch entry.kind {
            case .typename:
                guard let typename = record.typename else {
                    isMissing = true
                    continue
                }
                value = .string(typename)
            case .recordID:
                value = .string(record.id.rawValue)
            case .scalar, .composite:
                if isRoot { seenRootFields.insert(entry.readKey) }
                guard let stored = record.fields[entry.readKey] else {
                    // A field under a condition whose variable was not given may not be there.
                    if entry.presence != .conditional { isMissing = true }
                    continue
                }
                if case .composite(let type, let selections) = entry.kind {
                    guard let linked = readLinked(stored, type: type, plan: selections) else { continue }
                    value = linked
                } else {
                    guard case .scalar(let scalar) = stored else {
                        isMissing = true  // a link where a scalar was selected: not usable data
                        continue
                    }
                    value = scalar
                }
            }
            keys.append(entry.responseKey)
            values.append(value)
        }
        return JSONObject(uniqueKeys: keys, values: values)
    }

    private mutating func readLinked(_ stored: RecordValue, type: String, plan: SelectionPlan) -> JSONValue? {
        switch stored {
        case .scalar(.null):
            return .null
        case .scalar:
            isMissing = true
            return nil
        case .list(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            var complete = true
            // Every item is read even after a missing one (as relay-runtime's reader does): a
            // store loading records on demand then learns all that a list misses in one read.
            for item in items {
                if let value = readLinked(item, type: type, plan: plan) {
                    result.append(value)
                } else {
                    complete = false
                }
            }
            return complete ? .list(result) : nil
        case .link(let id):
            seen.insert(id)
            switch lookup(id) {
            case .present(let record)?:
                return .object(readObject(record, parentType: type, plan: plan))
            case .deleted?:
                return .null
            case nil:
                isMissing = true
                return nil
            }
        }
    }
}
