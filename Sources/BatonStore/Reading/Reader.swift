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
    /// The field errors the read met, with their paths in `data` (a response's errors kept in the
    /// store). In `data` each sits at its field as a `FieldErrorMarker` (BatonAPI).
    public let fieldErrors: [GraphQLError]
    /// Where `data` lacks what the selections ask for, when the read was asked to say
    /// (`collectsMissingPaths`); empty otherwise. A missing list item is `null` in `data` and its
    /// path is here; a missing field is absent from its object.
    public let missingPaths: [ResponsePath]
    /// When the first field the read saw goes (or went) stale, past its max age or its
    /// response's expiry (see `CacheFreshness`); `nil` when none ever does.
    public let staleAt: Date?

    /// A read's result with what it found and, beside the data, its field errors, the paths it
    /// missed and when it goes stale.
    public init(
        data: JSONObject?, seenIDs: Set<DataID>, seenRootFields: Set<String> = [], isMissing: Bool,
        fieldErrors: [GraphQLError] = [], missingPaths: [ResponsePath] = [], staleAt: Date? = nil
    ) {
        self.data = data
        self.seenIDs = seenIDs
        self.seenRootFields = seenRootFields
        self.isMissing = isMissing
        self.fieldErrors = fieldErrors
        self.missingPaths = missingPaths
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
    /// Whether a stored field error was read (its marker's paths are made whole after the read).
    private var metFieldErrors = false
    /// The response path of the read so far, kept only when missing paths are collected.
    private var path: [ResponsePath.Component]?
    private var missingPaths: [ResponsePath] = []
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

    /// Reads `selections` starting at record `rootID`; `collectsMissingPaths` also says where the
    /// data is incomplete (``ReadResult/missingPaths``).
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        collectsMissingPaths: Bool = false, lookup: @escaping Lookup
    ) -> ReadResult {
        read(
            selections: selections, rootID: rootID, rootType: rootType, variables: variables, ages: nil,
            collectsMissingPaths: collectsMissingPaths, lookup: lookup)
    }

    /// Reads `selections` starting at record `rootID`, telling when the fields it reads go stale
    /// as `ages` measures them.
    static func read(
        selections: [Selection], rootID: DataID, rootType: String, variables: JSONObject, ages: AgeReading?,
        collectsMissingPaths: Bool = false, lookup: @escaping Lookup
    ) -> ReadResult {
        var reader = Reader(lookup: lookup, ages: ages)
        if collectsMissingPaths { reader.path = [] }
        reader.seen.insert(rootID)
        switch lookup(rootID) {
        case .present(let record)?:
            var data = reader.readObject(record, parentType: rootType, plan: SelectionPlan(selections, parentType: rootType, variables: variables))
            var fieldErrors: [GraphQLError] = []
            if reader.metFieldErrors {
                var path: [ResponsePath.Component] = []
                data = FieldErrorPaths.locate(in: data, path: &path, errors: &fieldErrors)
            }
            let staleAt = reader.staleAt == .infinity ? nil : Date(timeIntervalSince1970: max(reader.staleAt, -1e12))
            return ReadResult(
                data: data, seenIDs: reader.seen, seenRootFields: reader.seenRootFields, isMissing: reader.isMissing,
                fieldErrors: fieldErrors, missingPaths: reader.missingPaths, staleAt: staleAt)
        case .deleted?:
            // A deleted root reads as no data, and nothing is missing (relay-runtime's reader).
            return ReadResult(data: nil, seenIDs: reader.seen, isMissing: false)
        case nil:
            return ReadResult(data: nil, seenIDs: reader.seen, isMissing: true, missingPaths: collectsMissingPaths ? [ResponsePath()] : [])
        }
    }

    /// Reads `selections` from a record source.
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        collectsMissingPaths: Bool = false, source: RecordSource
    ) -> ReadResult {
        read(
            selections: selections, rootID: rootID, rootType: rootType, variables: variables,
            collectsMissingPaths: collectsMissingPaths
        ) { source.state(of: $0) }
    }

    /// Marks the read missing, at the current path plus `component` when paths are collected.
    private mutating func markMissing(_ component: ResponsePath.Component? = nil) {
        isMissing = true
        guard var path else { return }
        if let component { path.append(component) }
        missingPaths.append(ResponsePath(path))
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
                    markMissing(.key(entry.responseKey))
                    continue
                }
                value = .string(typename)
            case .recordID:
                value = .string(record.id.rawValue)
            case .scalar, .composite:
                if isRoot { seenRootFields.insert(entry.readKey) }
                guard let stored = record.fields[entry.readKey] else {
                    // A field under a condition whose variable was not given may not be there.
                    if entry.presence != .conditional { markMissing(.key(entry.responseKey)) }
                    continue
                }
                var maxAge: Double?
                if let ages { maxAge = noteAge(of: entry, on: typename, in: fieldAges, rules: ages.rules) }
                if case .composite(let type, let selections) = entry.kind {
                    // A scalar field without a max age of its own takes its object's.
                    let inherited = inheritedMaxAge
                    inheritedMaxAge = maxAge
                    defer { inheritedMaxAge = inherited }
                    path?.append(.key(entry.responseKey))
                    let linked = readLinked(stored, type: type, plan: selections)
                    path?.removeLast()
                    guard let linked else { continue }
                    value = linked
                } else {
                    switch stored {
                    case .scalar(let scalar):
                        value = scalar
                    case .fieldErrors(let errors):
                        metFieldErrors = true
                        value = FieldErrorMarker.value(errors)
                    case .list:
                        // A list of scalars some of whose items hold the errors the server nulled them for.
                        guard let list = scalarList(stored) else {
                            markMissing(.key(entry.responseKey))  // links where scalars were selected: not usable data
                            continue
                        }
                        value = list
                    case .link:
                        markMissing(.key(entry.responseKey))  // a link where a scalar was selected: not usable data
                        continue
                    }
                }
            }
            keys.append(entry.responseKey)
            values.append(value)
        }
        return JSONObject(uniqueKeys: keys, values: values)
    }

    /// A scalar field's list kept item by item (items with errors as markers); `nil` when it
    /// holds a link.
    private mutating func scalarList(_ stored: RecordValue) -> JSONValue? {
        switch stored {
        case .scalar(let value):
            return value
        case .fieldErrors(let errors):
            metFieldErrors = true
            return FieldErrorMarker.value(errors)
        case .list(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let value = scalarList(item) else { return nil }
                result.append(value)
            }
            return .list(result)
        case .link:
            return nil
        }
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
            markMissing()
            return nil
        case .fieldErrors(let errors):
            metFieldErrors = true
            return FieldErrorMarker.value(errors)
        case .list(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            var complete = true
            // Every item is read even after a missing one (as relay-runtime's reader does): a
            // store loading records on demand then learns all that a list misses in one read.
            for (index, item) in items.enumerated() {
                path?.append(.index(index))
                let value = readLinked(item, type: type, plan: plan)
                path?.removeLast()
                if let value {
                    result.append(value)
                } else {
                    complete = false
                    // A partial read keeps the list's other items; the missing one's path is listed.
                    if path != nil { result.append(.null) }
                }
            }
            return complete || path != nil ? .list(result) : nil
        case .link(let id):
            seen.insert(id)
            switch lookup(id) {
            case .present(let record)?:
                return .object(readObject(record, parentType: type, plan: plan))
            case .deleted?:
                return .null
            case nil:
                markMissing()
                return nil
            }
        }
    }
}

/// Makes the paths of the field errors a read gave out whole: the store keeps each error's path
/// relative to its field, and the read puts the field's place in front.
enum FieldErrorPaths {
    static func locate(in object: JSONObject, path: inout [ResponsePath.Component], errors: inout [GraphQLError]) -> JSONObject {
        var result = object
        for (key, value) in zip(object.keys, object.values) {
            path.append(.key(key))
            defer { path.removeLast() }
            if let located = locate(in: value, path: &path, errors: &errors) { result[key] = located }
        }
        return result
    }

    /// The value with its markers' paths made whole, or `nil` when nothing in it changed.
    private static func locate(in value: JSONValue, path: inout [ResponsePath.Component], errors: inout [GraphQLError]) -> JSONValue? {
        switch value {
        case .object(let object):
            if let stored = FieldErrorMarker.errors(in: value) {
                let whole = stored.map { $0.moved(to: ResponsePath(path + ($0.path?.components ?? []))) }
                errors += whole
                return FieldErrorMarker.value(whole)
            }
            return .object(locate(in: object, path: &path, errors: &errors))
        case .list(let items):
            var result = items
            var changed = false
            for index in items.indices {
                path.append(.index(index))
                defer { path.removeLast() }
                if let located = locate(in: items[index], path: &path, errors: &errors) {
                    result[index] = located
                    changed = true
                }
            }
            return changed ? .list(result) : nil
        default:
            return nil
        }
    }
}

/// What a read needs to tell when its data goes stale: whether records may carry field ages at
/// all, and the max ages that apply (`nil`: only responses' own expiries count).
struct AgeReading {
    let datesFields: Bool
    let rules: MaxAgeRules?
}
