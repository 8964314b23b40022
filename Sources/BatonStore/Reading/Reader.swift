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
/// An object embedded in its parent's record is read from there; a field its record lacks that
/// has key arguments (``CacheKeyConfiguration/keyArguments``) is read from the record they name.
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
    /// The rule whose key arguments redirect reads of fields a record lacks (`nil`: none do).
    private let cacheKeys: CacheKeyConfiguration?

    init(lookup: @escaping Lookup, ages: AgeReading? = nil, cacheKeys: CacheKeyConfiguration? = nil) {
        self.lookup = lookup
        self.ages = ages
        self.cacheKeys = cacheKeys.flatMap { $0.keyArguments.isEmpty ? nil : $0 }
        // A scalar at the top of the read (a root field, a fragment's own field) has no field
        // that led to it: the default max age is its.
        inheritedMaxAge = ages?.rules?.defaultMaxAge
    }

    /// Reads `selections` starting at record `rootID`; `collectsMissingPaths` also says where the
    /// data is incomplete (``ReadResult/missingPaths``); `cacheKeys` gives the key arguments that
    /// redirect reads of fields a record lacks.
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        collectsMissingPaths: Bool = false, cacheKeys: CacheKeyConfiguration? = nil, lookup: @escaping Lookup
    ) -> ReadResult {
        read(
            selections: selections, rootID: rootID, rootType: rootType, variables: variables, ages: nil,
            collectsMissingPaths: collectsMissingPaths, cacheKeys: cacheKeys, lookup: lookup)
    }

    /// Reads `selections` starting at record `rootID`, telling when the fields it reads go stale
    /// as `ages` measures them.
    static func read(
        selections: [Selection], rootID: DataID, rootType: String, variables: JSONObject, ages: AgeReading?,
        collectsMissingPaths: Bool = false, cacheKeys: CacheKeyConfiguration? = nil, lookup: @escaping Lookup
    ) -> ReadResult {
        var reader = Reader(lookup: lookup, ages: ages, cacheKeys: cacheKeys)
        if collectsMissingPaths { reader.path = [] }
        reader.seen.insert(rootID)
        switch lookup(rootID) {
        case .present(let record)?:
            var data = reader.readObject(record, parentType: rootType, plan: SelectionPlanCache.plan(selections, parentType: rootType, variables: variables))
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
            // The root always exists for a client-only read (relay-runtime's store creates it):
            // an empty store answers a query of client fields with their nulls.
            if rootID == .rootID && selections.selectsOnlyClientFields {
                let data = reader.readObject(
                    Record(id: rootID, typename: nil, fields: RecordFields()),
                    parentType: rootType, plan: SelectionPlanCache.plan(selections, parentType: rootType, variables: variables))
                return ReadResult(
                    data: data, seenIDs: reader.seen, seenRootFields: reader.seenRootFields, isMissing: reader.isMissing,
                    missingPaths: reader.missingPaths)
            }
            return ReadResult(data: nil, seenIDs: reader.seen, isMissing: true, missingPaths: collectsMissingPaths ? [ResponsePath()] : [])
        }
    }

    /// Reads `selections` from a record source.
    public static func read(
        selections: [Selection], rootID: DataID = .rootID, rootType: String, variables: JSONObject = [:],
        collectsMissingPaths: Bool = false, cacheKeys: CacheKeyConfiguration? = nil, source: RecordSource
    ) -> ReadResult {
        read(
            selections: selections, rootID: rootID, rootType: rootType, variables: variables,
            collectsMissingPaths: collectsMissingPaths, cacheKeys: cacheKeys
        ) { source.state(of: $0) }
    }

    /// Marks the read missing, at the current path plus `component` when paths are collected.
    private mutating func markMissing(_ component: ResponsePath.Component? = nil) {
        isMissing = true
        guard var path else { return }
        if let component { path.append(component) }
        missingPaths.append(ResponsePath(path))
    }

    /// Reads one object: a record, or an object embedded in one (`embeddedAge`: the age of the
    /// field holding it, which its own fields share).
    private mutating func readObject(
        _ record: Record, parentType: String, plan: SelectionPlan, embeddedAge: JSONValue?? = nil
    ) -> JSONObject {
        let isRoot = record.id == .rootID
        // The root record (typename `__Root`, as in Relay) holds every root type's fields: read
        // here, it is the read's root type (`Query`), for type conditions, `__typename` and the
        // max ages stated for the root's fields.
        let typename = isRoot ? parentType : record.typename ?? parentType
        let planned = plan.object(for: typename).fields
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(planned.count)
        values.reserveCapacity(planned.count)
        let fieldAges = ages?.datesFields == true && embeddedAge == nil ? record.fields[FieldAges.key]?.scalarValue?.objectValue : nil
        for entry in planned {
            let value: JSONValue
            switch entry.kind {
            case .typename:
                guard isRoot || record.typename != nil else {
                    markMissing(.key(entry.responseKey))
                    continue
                }
                value = .string(typename)
            case .recordID:
                value = .string(record.id.rawValue)
            case .scalar, .composite:
                if isRoot { seenRootFields.insert(entry.readKey) }
                let found = record.fields[entry.readKey]
                guard let stored = found ?? redirect(entry, on: record, parentType: parentType, plan: plan) else {
                    // A client-only field the client never set reads as null and is not missing
                    // (relay-runtime's reader: no server could ever give it); a non-null one
                    // has no value to read, so the read is incomplete.
                    if entry.isClientOnly && entry.check.kind != .nonNull {
                        keys.append(entry.responseKey)
                        values.append(.null)
                        continue
                    }
                    // A field under a condition whose variable was not given may not be there.
                    if entry.presence != .conditional { markMissing(.key(entry.responseKey)) }
                    continue
                }
                var maxAge: Double?
                let age: JSONValue? = embeddedAge ?? fieldAges?[entry.readKey]
                // A redirected field has no age of its own: the fields of the record it leads to
                // have theirs. A client field has no server age: it never goes stale.
                if let ages, !entry.isClientOnly {
                    maxAge = noteAge(of: entry, on: typename, age: age, rules: ages.rules, isRedirect: found == nil)
                }
                if case .composite(let type, let selections) = entry.kind {
                    // A scalar field without a max age of its own takes its object's.
                    let inherited = inheritedMaxAge
                    inheritedMaxAge = maxAge
                    defer { inheritedMaxAge = inherited }
                    path?.append(.key(entry.responseKey))
                    let linked = readLinked(
                        stored, type: type, plan: selections, place: Place(parentID: record.id, storageKey: entry.storageKey, age: age))
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
                    case .link, .embedded:
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
        case .link, .embedded:
            return nil
        }
    }

    /// Notes when the field read at `entry`, received at `age` as stored, goes stale and returns
    /// its max age (`nil`: none).
    private mutating func noteAge(
        of entry: PlannedField, on typename: String, age stored: JSONValue?, rules: MaxAgeRules?, isRedirect: Bool = false
    ) -> Double? {
        var returnType: String?
        if case .composite(let type, _) = entry.kind { returnType = type }
        let maxAge = rules?.maxAge(of: entry.fieldName, on: typename, returning: returnType, inherited: inheritedMaxAge)
        if isRedirect { return maxAge }
        if let age = FieldAges.age(stored) {
            if let stale = age.staleAt(maxAge: maxAge), stale < staleAt { staleAt = stale }
        } else if maxAge != nil {
            // A max age and no date: the field's age is unknown, so it is stale.
            staleAt = -.infinity
        }
        return maxAge
    }

    /// Where a linked value sits, for an object embedded there: the record and field holding it,
    /// the client ID of its place when it is an item of a list, and the field's age.
    private struct Place {
        let parentID: DataID
        let storageKey: String
        var itemID: String?
        let age: JSONValue?

        init(parentID: DataID, storageKey: String, itemID: String? = nil, age: JSONValue?) {
            self.parentID = parentID
            self.storageKey = storageKey
            self.itemID = itemID
            self.age = age
        }

        /// The client ID the executor gave this place (see `ResponseExecutor`).
        var id: String { itemID ?? ClientID.make(parentID: parentID, storageKey: storageKey).rawValue }
    }

    /// The value a record lacking `entry` has there through the field's key arguments: a link
    /// to the record they name (for an interface or union, the first of its possible types'
    /// records present), or for a list field with one list argument a list of them. `nil` when
    /// the field has no key arguments or a value cannot make a key.
    private mutating func redirect(_ entry: PlannedField, on record: Record, parentType: String, plan: SelectionPlan) -> RecordValue? {
        guard let cacheKeys, case .composite(let type, _) = entry.kind else { return nil }
        let byField = record.typename.flatMap { cacheKeys.keyArguments[$0] } ?? cacheKeys.keyArguments[parentType]
        guard let names = byField?[entry.fieldName], !names.isEmpty else { return nil }
        var values: [JSONValue] = []
        values.reserveCapacity(names.count)
        for name in names {
            guard let value = entry.field.arguments[name]?.resolve(with: plan.variables), !value.isNull else { return nil }
            values.append(value)
        }
        if case .list(let itemType) = entry.field.type.nullable {
            // Flat lists only, keyed by one list argument: one record per value, in order.
            guard case .object = itemType.nullable, values.count == 1, case .list(let items) = values[0] else { return nil }
            var links: [RecordValue] = []
            links.reserveCapacity(items.count)
            for item in items {
                guard let id = target(cacheKeys.redirect(returning: type, values: [item])) else { return nil }
                links.append(.link(id))
            }
            return .list(links)
        }
        return target(cacheKeys.redirect(returning: type, values: values)).map(RecordValue.link)
    }

    /// The one of `candidates` a redirect reads: the only one, else the first present (all are
    /// seen, so a watcher hears when any appears).
    private mutating func target(_ candidates: [DataID]) -> DataID? {
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 { return first }
        for id in candidates {
            if case .present? = lookup(id) { return id }
        }
        for id in candidates.dropFirst() { seen.insert(id) }
        return first
    }

    private mutating func readLinked(_ stored: RecordValue, type: String, plan: SelectionPlan, place: Place) -> JSONValue? {
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
            // The list's own client ID, made only when an item is an embedded object or a list.
            var listID: String?
            for (index, item) in items.enumerated() {
                var itemPlace = place
                switch item {
                case .embedded, .list:
                    if listID == nil { listID = place.id }
                    itemPlace.itemID = listID! + ":" + String(index)
                case .scalar, .link, .fieldErrors:
                    break
                }
                path?.append(.index(index))
                let value = readLinked(item, type: type, plan: plan, place: itemPlace)
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
        case .embedded(let typename, let fields):
            // Read as a record at its place, with the age of the field holding it.
            let record = Record(id: DataID(place.id), typename: typename, fields: fields)
            return .object(readObject(record, parentType: type, plan: plan, embeddedAge: .some(place.age)))
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
