import BatonAPI
import Foundation

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
    /// When the first field the read saw goes (or went) stale, past its max age or its
    /// response's expiry (see `CacheFreshness`); `nil` when none ever does.
    public let staleAt: Date?

    public init(data: JSONObject?, seenIDs: Set<DataID>, seenRootFields: Set<String> = [], isMissing: Bool, staleAt: Date? = nil) {
        self.data = data
        self.seenIDs = seenIDs
        self.seenRootFields = seenRootFields
        self.isMissing = isMissing
        self.staleAt = staleAt
    }

    /// Whether a field the read saw is past its max age at `now`.
    public func isStale(at now: Date) -> Bool {
        staleAt.map { $0 <= now } ?? false
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
    /// Field ages: read when records may carry them (`datesFields`), measured with `rules`.
    private let ages: AgeReading?
    private var staleAt = Double.infinity
    private var inheritedMaxAge: Double?

    init(lookup: @escaping Lookup, ages: AgeReading? = nil) {
        self.lookup = lookup
        self.ages = ages
        // A scalar at the top of the read (a root field, a fragment's own field) has no field
        // that led to it: the default max age is its.
        inheritedMaxAge = ages?.rules?.defaultMaxAge
    }

    /// Reads `selections` starting at record `rootID`.
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        lookup: @escaping Lookup
    ) -> ReadResult {
        read(selections: selections, rootID: rootID, rootType: rootType, variables: variables, ages: nil, lookup: lookup)
    }

    /// Reads `selections` starting at record `rootID`, telling when the fields it reads go stale
    /// as `ages` measures them.
    static func read(
        selections: [Selection], rootID: DataID, rootType: String, variables: JSONObject, ages: AgeReading?,
        lookup: @escaping Lookup
    ) -> ReadResult {
        var reader = Reader(lookup: lookup, ages: ages)
        reader.seen.insert(rootID)
        switch lookup(rootID) {
        case .present(let record)?:
            let data = reader.readObject(record, parentType: rootType, plan: SelectionPlan(selections, parentType: rootType, variables: variables))
            let staleAt = reader.staleAt == .infinity ? nil : Date(timeIntervalSince1970: max(reader.staleAt, -1e12))
            return ReadResult(
                data: data, seenIDs: reader.seen, seenRootFields: reader.seenRootFields, isMissing: reader.isMissing, staleAt: staleAt)
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
        let typename = record.typename ?? parentType
        let fieldAges = ages?.datesFields == true ? record.fields[FieldAges.key]?.scalarValue?.objectValue : nil
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
                var maxAge: Double?
                if let ages { maxAge = noteAge(of: entry, on: typename, in: fieldAges, rules: ages.rules) }
                if case .composite(let type, let selections) = entry.kind {
                    // A scalar field without a max age of its own takes its object's.
                    let inherited = inheritedMaxAge
                    inheritedMaxAge = maxAge
                    defer { inheritedMaxAge = inherited }
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

    /// Notes when the field read at `entry` goes stale and returns its max age (`nil`: none).
    private mutating func noteAge(of entry: PlannedField, on typename: String, in fieldAges: JSONObject?, rules: MaxAgeRules?) -> Double? {
        var returnType: String?
        if case .composite(let type, _) = entry.kind { returnType = type }
        let maxAge = rules?.maxAge(of: entry.field.name, on: typename, returning: returnType, inherited: inheritedMaxAge)
        if let age = FieldAges.age(fieldAges?[entry.readKey]) {
            if let stale = age.staleAt(maxAge: maxAge), stale < staleAt { staleAt = stale }
        } else if maxAge != nil {
            // A max age and no date: the field's age is unknown, so it is stale.
            staleAt = -.infinity
        }
        return maxAge
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

/// What a read needs to tell when its data goes stale: whether records may carry field ages at
/// all, and the max ages that apply (`nil`: only responses' own expiries count).
struct AgeReading {
    let datesFields: Bool
    let rules: MaxAgeRules?
}
