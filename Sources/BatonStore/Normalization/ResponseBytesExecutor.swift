import BatonAPI

/// What the executor made of a whole response body read from its bytes.
struct ExecutedResponseBody: Sendable {
    /// The body's members, in order; `data` in the store's shape when it was read from the bytes
    /// (record IDs under `__id`), else as it came.
    let body: JSONObject
    /// `data` checked and normalized, or how it does not match the selections; `nil` when the
    /// body has no data object.
    let payload: Result<NormalizedPayload, SelectionSetDecodingError>?
    /// Whether `data` was read in the walk over the bytes (not parsed and walked as a tree).
    let readFromBytes: Bool
}

/// The executor's walk straight over a response's bytes, for a server's whole JSON response
/// (Apollo Kotlin's executor reads its `JsonReader` the same way): each object's members are
/// read in the order of the selections and matched to them byte for byte, so no key is made a
/// `String` and each object's keys are its plan's one shared array; the records and the data in
/// the store's shape come out of the same reading.
///
/// It takes only the regular case, the one servers answer with: every field selected is there,
/// in the selections' order (the spec's CollectFields order), `__typename` first where it is
/// selected, key fields before any object field, no other members, no field errors at a path,
/// every value of its selected type. At anything else it stops, and the body is parsed and
/// executed by ``ResponseExecutor`` over the tree, which makes the same records and data (and
/// the typed errors, with their paths): this walk is a faster reading of the same rules, never
/// another interpretation of them.
struct ResponseBytesExecutor: ~Copyable {
    /// Why the walk stopped: the tree's executor takes the body.
    struct Declined: Error {}

    private var reader: JSONParser
    private let cacheKeys: CacheKeyConfiguration
    private let fillsRecordIDs: Bool
    private var changes = RecordSource()
    private var handles: [HandleInvocation] = []
    private var globalTypeMemo = CacheKeyConfiguration.GlobalTypeMemo()
    /// Per planned object (a plan makes one per type name), the position of the last field the
    /// cache key reads (`-1`: none), so that the record's ID is known before the first object
    /// field. A direct-mapped table by the planned object's address: a miss (another object in the
    /// slot) works the position out again, which is cheap; a dictionary's hashing of the object
    /// identifier cost 140 instructions per object (callgrind of the GitHub receive).
    private var keyFieldEnds = [(object: UnsafeMutableRawPointer?, end: Int)](repeating: (nil, 0), count: 64)
    /// Whether the cache keeps any field embedded in its record (the walk then leaves such
    /// objects to the tree's).
    private let hasEmbeddedFields: Bool
    /// The items of the lists being read, innermost last.
    private var pendingStored: [RecordValue] = []
    private var pendingValues: [JSONValue] = []
    /// How many `__id`s the walk filled in so far.
    private var filledRecordIDs = 0

    /// How many walks over a tree follow one that declined, before the bytes are tried again.
    static let retryAfter = 16

    private init(
        bytes: UnsafeRawBufferPointer, cacheKeys: CacheKeyConfiguration, fillsRecordIDs: Bool
    ) {
        reader = JSONParser(bytes: bytes)
        self.cacheKeys = cacheKeys
        self.fillsRecordIDs = fillsRecordIDs
        hasEmbeddedFields = cacheKeys.hasEmbeddedFields
    }

    /// Reads a whole response body (a JSON object with `data`, `errors`, `extensions`) and
    /// executes its `data` for `descriptor`, checked as a server's response is. Throws a
    /// ``JSONParseError`` for a body that is not a JSON object.
    static func execute(
        body bytes: UnsafeRawBufferPointer, descriptor: OperationDescriptor,
        cacheKeys: CacheKeyConfiguration
    ) throws -> ExecutedResponseBody {
        let selections = descriptor.selections
        let plan = SelectionPlanCache.plan(
            selections, parentType: descriptor.rootType, variables: descriptor.variables)
        var walk = ResponseBytesExecutor(
            bytes: bytes, cacheKeys: cacheKeys, fillsRecordIDs: selections.selectsRecordID)
        if plan.bytesWalkDeclined > 0 { plan.bytesWalkDeclined -= 1 }
        let tryBytes = plan.bytesWalkDeclined == 0
        var members: [(String, JSONValue)] = []
        var data: JSONValue?
        var shaped: JSONObject?
        var dataStart: (position: Int, depth: Int)?
        var errors: JSONValue?
        walk.reader.skipWhitespace()
        if try walk.reader.openObject() {
            repeat {
                let key: String
                if let bytes = try walk.reader.memberKey() {
                    key = String(decoding: bytes, as: UTF8.self)
                } else {
                    key = try walk.reader.parseString()
                    try walk.reader.readColon()
                }
                switch key {
                case "data":
                    // A repeated member's last value counts, as in the parser's objects.
                    shaped = nil
                    walk.changes = RecordSource()
                    walk.handles = []
                    dataStart = (walk.reader.position, walk.reader.nesting)
                    // Field errors at a path need the tree's walk (it keeps them in the records).
                    if tryBytes && walk.reader.nextByte == UInt8(ascii: "{") && !Self.hasErrorPaths(errors) {
                        walk.changes.reserveCapacity(plan.recordsLastMade)
                        do {
                            shaped = try withExtendedLifetime(plan) {
                                try walk.object(
                                    plan: Unmanaged.passUnretained(plan), fixedID: descriptor.rootID,
                                    place: Place(parentID: descriptor.rootID, field: nil)
                                ).1
                            }
                            plan.recordsLastMade = walk.changes.count
                        } catch {
                            plan.bytesWalkDeclined = Self.retryAfter
                            walk.changes = RecordSource()
                            walk.handles = []
                            walk.reader.rewind(to: dataStart!.position, depth: dataStart!.depth)
                        }
                    }
                    if let shaped {
                        data = .object(shaped)
                    } else {
                        data = try walk.reader.parseValue()
                    }
                    members.append((key, data!))
                case "errors":
                    errors = try walk.reader.parseValue()
                    members.append((key, errors!))
                default:
                    members.append((key, try walk.reader.parseValue()))
                }
            } while try walk.reader.nextMember()
        }
        guard walk.reader.isAtEnd() else {
            throw JSONParseError(offset: walk.reader.position, expected: "end of input", found: "more")
        }
        if shaped != nil, Self.hasErrorPaths(errors), let dataStart {
            // The errors came after the data: read it again as a tree, for the errors' places.
            walk.reader.rewind(to: dataStart.position, depth: dataStart.depth)
            data = try walk.reader.parseValue()
            shaped = nil
            for index in members.indices where members[index].0 == "data" { members[index].1 = data! }
        }
        let body = JSONObject(members)
        guard case .object(let object)? = data else {
            return ExecutedResponseBody(body: body, payload: nil, readFromBytes: false)
        }
        if let shaped {
            let payload = NormalizedPayload(
                shapedData: shaped, descriptor: descriptor, cacheKeys: cacheKeys, records: walk.changes,
                handles: walk.handles)
            return ExecutedResponseBody(body: body, payload: .success(payload), readFromBytes: true)
        }
        let fieldErrors = errors?.listValue?.map(GraphQLError.init(json:)) ?? []
        let payload = Result { () throws(SelectionSetDecodingError) in
            try PayloadApplier.execute(
                data: object, descriptor: descriptor, errors: fieldErrors, cacheKeys: cacheKeys, checks: .response)
        }
        return ExecutedResponseBody(body: body, payload: payload, readFromBytes: false)
    }

    private static func hasErrorPaths(_ errors: JSONValue?) -> Bool {
        guard case .list(let items)? = errors else { return false }
        return items.contains { $0["path"] != nil }
    }

    // MARK: The walk

    /// Reads one object of the selections `plan` into its record; gives its ID and the object in
    /// the store's shape. `fixedID` is the root's ID; other objects take their cache key, or
    /// their client ID (``Place``).
    ///
    /// The plan's objects are followed through ``ReadStep``s, without reference counts: the
    /// walk holds the root plan, which holds every sub-plan, field and check it reaches.
    private mutating func object(
        plan: Unmanaged<SelectionPlan>, fixedID: DataID?, place: borrowing Place
    ) throws -> (DataID, JSONObject) {
        guard try reader.openObject() else { throw Declined() }
        var typename: String?
        // Whether a member follows the last one read (the first one is not read yet).
        var more = true
        if try reader.memberKey(Self.typenameUTF8) {
            guard reader.nextByte == UInt8(ascii: "\"") else { throw Declined() }
            typename = try reader.parseString()
            more = try reader.nextMember()
        }
        // Not retained either: the plan keeps every object it made.
        let planned = plan._withUnsafeGuaranteedRef { $0.unretainedObject(for: typename ?? $0.parentType!) }
        guard let storageKeys = planned._withUnsafeGuaranteedRef({ $0.storageKeys }) else { throw Declined() }
        let steps = planned._withUnsafeGuaranteedRef { $0.readSteps }
        var values: [JSONValue] = []
        values.reserveCapacity(steps.count)
        var stored: [RecordValue] = []
        stored.reserveCapacity(storageKeys.count)
        var id = fixedID
        var typenameTaken = false
        for index in steps.indices {
            let step = steps[index]
            switch step.kind {
            case .recordID:
                continue
            case .typename:
                // `__typename` was the first member, and is the first field selected.
                guard let typename, !typenameTaken, values.isEmpty else { throw Declined() }
                typenameTaken = true
                values.append(.string(typename))
                continue
            case .scalar:
                guard more, try reader.memberKey(step.key), !step.isClientOnly else { throw Declined() }
                let value = try reader.parseValue()
                if let matches = step.scalarMatches(value) {
                    guard matches else { throw Declined() }
                } else {
                    try step.check._withUnsafeGuaranteedRef { try $0.validate(value) }
                    if case .object = value, FieldErrorMarker.errors(in: value) != nil { throw Declined() }
                }
                if step.hasDirectives {
                    if id == nil { id = try decideID(typename, planned, index, values, plan, place) }
                    addHandles(of: step.field, on: id!, value: value)
                }
                values.append(value)
                stored.append(.scalar(value))
            case .composite:
                guard more, try reader.memberKey(step.key), !step.isClientOnly else { throw Declined() }
                if id == nil { id = try decideID(typename, planned, index, values, plan, place) }
                if hasEmbeddedFields {
                    let parentType = plan._withUnsafeGuaranteedRef { $0.parentType! }
                    let embeds = step.field._withUnsafeGuaranteedRef {
                        cacheKeys.embeds($0.fieldName, typename: typename, parentType: parentType)
                    }
                    guard !embeds else { throw Declined() }
                }
                let filledBefore = filledRecordIDs
                let (record, value) = try linked(
                    check: step.check, plan: step.selections!, place: Place(parentID: id!, field: step.field))
                if step.hasDirectives {
                    // A handler takes the value as the server sent it.
                    guard filledRecordIDs == filledBefore else { throw Declined() }
                    addHandles(of: step.field, on: id!, value: value)
                }
                values.append(value)
                stored.append(record)
            }
            more = try reader.nextMember()
        }
        guard !more, typenameTaken || typename == nil else { throw Declined() }
        if id == nil { id = try decideID(typename, planned, steps.count, values, plan, place) }
        // The arrays and strings move into the record and the data (`consume`): copied, each
        // would be retained and released once more per object.
        let recordID = (consume id).unsafelyUnwrapped
        let data: JSONObject
        if fillsRecordIDs && planned._withUnsafeGuaranteedRef({ $0.selectsRecordID }) {
            for step in steps where step.kind == .recordID { values.append(.string(recordID.rawValue)) }
            filledRecordIDs += 1
            data = JSONObject(
                uniqueKeys: planned._withUnsafeGuaranteedRef { $0.responseKeysWithRecordIDs }, values: consume values)
        } else {
            data = JSONObject(uniqueKeys: planned._withUnsafeGuaranteedRef { $0.responseKeys }, values: consume values)
        }
        let fields = RecordFields(uniqueKeys: consume storageKeys, values: consume stored)
        if let typename = consume typename {
            changes.merge(Record(id: recordID, typename: typename, fields: fields), replacesTypename: true)
        } else {
            let parentType = recordID == .rootID ? nil : plan._withUnsafeGuaranteedRef { $0.parentType }
            changes.merge(Record(id: recordID, typename: parentType, fields: fields), replacesTypename: false)
        }
        return (recordID, data)
    }

    /// Where an object being read sits, for its client ID: a field of the record `parentID`,
    /// or an item of a list there (`listID` is the list's client ID, `listHash` its hash).
    private struct Place {
        let parentID: DataID
        let field: Unmanaged<PlannedField>?
        var listID: String?
        var listHash = DataID.HashPrefix()
        var index = 0

        init(parentID: DataID, field: Unmanaged<PlannedField>?) {
            self.parentID = parentID
            self.field = field
        }

        /// The client ID of the object here.
        func clientID() -> DataID {
            guard let listID else {
                return field!._withUnsafeGuaranteedRef { ClientID.make(parentID: parentID, storageKey: $0.storageKey) }
            }
            // The items of a list: the hash carried on from the list's.
            return DataID(item: index, of: listHash, text: ClientID.item(of: listID, at: index))
        }

        /// The client ID's text of whatever is here (a list's, for its items).
        func clientIDText() -> String {
            guard let listID else {
                return field!._withUnsafeGuaranteedRef { ClientID.text(parentID: parentID, storageKey: $0.storageKey) }
            }
            return ClientID.item(of: listID, at: index)
        }
    }

    /// The handle invocations of `field`'s client directives (`@connection`, the mutation
    /// directives), on the record `parentID` with the field's `value`.
    private mutating func addHandles(of field: Unmanaged<PlannedField>, on parentID: DataID, value: JSONValue) {
        let entry = field.takeUnretainedValue()
        for directive in entry.directives {
            handles.append(
                HandleInvocation(
                    parentID: parentID, field: entry.field, storageKey: entry.storageKey, value: value, directive: directive))
        }
    }

    /// `__typename`'s UTF-8, in the program's constant memory.
    private static var typenameUTF8: UnsafeRawBufferPointer {
        let name: StaticString = "__typename"
        return UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The ID of the object being read, decided before its first object field (or a field with
    /// a handler, or its end), at field `index`: its cache key from the members read so far, or
    /// its client ID. Declines when a member the cache key reads is still to come.
    private mutating func decideID(
        _ typename: String?, _ plannedObject: Unmanaged<PlannedObject>, _ index: Int, _ values: [JSONValue],
        _ plan: Unmanaged<SelectionPlan>, _ place: borrowing Place
    ) throws -> DataID {
        // A planned object is its plan's for one type name: the key type's fields are its own.
        let identity = plannedObject.toOpaque()
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: identity) >> 4) & (keyFieldEnds.count - 1)
        let end: Int
        if keyFieldEnds[slot].object == identity {
            end = keyFieldEnds[slot].end
        } else {
            let keyType = typename ?? plan._withUnsafeGuaranteedRef { $0.parentType! }
            end = plannedObject._withUnsafeGuaranteedRef { planned in
                planned.fields.lastIndex { cacheKeys.readsKey($0.responseKey, typename: keyType) } ?? -1
            }
            keyFieldEnds[slot] = (identity, end)
        }
        guard end < index else { throw Declined() }
        if end < 0 { return place.clientID() }
        let keys = plannedObject._withUnsafeGuaranteedRef { $0.responseKeys }
        let key = cacheKeys.cacheKey(
            typename: typename ?? plan._withUnsafeGuaranteedRef { $0.parentType! }, memo: &globalTypeMemo
        ) { name in
            for position in values.indices where keys[position] == name { return values[position] }
            return nil
        }
        return key ?? place.clientID()
    }

    /// Reads the value of an object field at the level `check` describes: a link, a list of
    /// links (and nulls), or null, and the value in the store's shape. Client IDs as
    /// ``ResponseExecutor`` makes them.
    private mutating func linked(
        check: Unmanaged<ValueCheck>, plan: Unmanaged<SelectionPlan>, place: borrowing Place
    ) throws -> (RecordValue, JSONValue) {
        var check = check
        var kind = check._withUnsafeGuaranteedRef { $0.kind }
        switch reader.nextByte {
        case UInt8(ascii: "n"):
            guard kind != .nonNull, case .null = try reader.parseValue() else { throw Declined() }
            return (.null, .null)
        case UInt8(ascii: "["):
            if kind == .nonNull {
                check = check._withUnsafeGuaranteedRef { $0.innerUnretained! }
                kind = check._withUnsafeGuaranteedRef { $0.kind }
            }
            guard kind == .list else { throw Declined() }
            let inner = check._withUnsafeGuaranteedRef { $0.innerUnretained! }
            guard try reader.openList() else { return (.list([]), .list([])) }
            let id = place.clientIDText()
            var item = Place(parentID: place.parentID, field: place.field)
            item.listHash = DataID.HashPrefix(id)
            item.listID = id
            // The items gather on the walk's stacks, and each list is made once, at its size.
            let base = pendingStored.count
            var position = 0
            repeat {
                item.index = position
                let (record, value) = try linked(check: inner, plan: plan, place: item)
                pendingStored.append(record)
                pendingValues.append(value)
                position += 1
            } while try reader.nextElement()
            let stored = Array(pendingStored[base...])
            let values = Array(pendingValues[base...])
            pendingStored.removeLast(position)
            pendingValues.removeLast(position)
            return (.list(stored), .list(values))
        case UInt8(ascii: "{"):
            if kind == .nonNull {
                kind = check._withUnsafeGuaranteedRef { $0.innerUnretained!._withUnsafeGuaranteedRef { $0.kind } }
            }
            guard kind == .object else { throw Declined() }
            let (id, object) = try self.object(plan: plan, fixedID: nil, place: place)
            return (.link(id), .object(object))
        default:
            throw Declined()
        }
    }
}
