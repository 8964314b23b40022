import BatonAPI

/// How strictly the executor holds a payload to the selections.
enum ExecutionChecks {
    /// A server's response: every value has its selected type, every required field is there.
    case response
    /// An optimistic response, as relay-runtime takes one, or a deferred part of a response:
    /// values that are there have their selected type, but any field may be left out (it is not
    /// written; the record keeps its value), and a concrete type needs no `__typename`.
    case optimistic
    /// None: what came is stored as it is (a caller that checked it already, or wants no checks).
    case none
}

/// What one walk over a payload gave: its records, the fields with client directives for their
/// handlers, and the data as the store would read it back (with `__id` filled in).
struct ExecutionResult: Sendable {
    let records: RecordSource
    let handles: [HandleInvocation]
    /// The payload with each object's record ID under `__id` where the selections ask for it;
    /// the payload itself when they do not.
    let data: JSONObject
}

/// The one executor: a single walk over a payload and its ``SelectionPlan`` that checks the
/// payload against the selections (a typed error with the response path), makes its records
/// (storage keys, cache keys, client IDs, the response's field errors kept where the server
/// nulled a field for them) and the handle invocations
/// of `@connection` and the mutation directives, and gives the data in the shape the store reads
/// it, all at once (Apollo iOS's executor shape: one walk, several outputs). Server responses,
/// optimistic responses, local cache writes and detached reads all go through it. It reads no
/// record, so it runs before the store's lock.
struct ResponseExecutor {
    let cacheKeys: CacheKeyConfiguration
    let checks: ExecutionChecks
    /// The error paths as a trie: a null at a path that is a prefix of one came from an error.
    /// Built in time linear in the paths' total length.
    private let errorPaths: ErrorPathTrie
    private var changes = RecordSource()
    private var handles: [HandleInvocation] = []
    /// The trie node of the current response path; ``ErrorPathTrie/offPath`` once the path left
    /// every error path.
    private var errorNode = ErrorPathTrie.root
    /// Whether any object of the walk selects `__id` (then the walk rebuilds the data with it).
    private let fillsRecordIDs: Bool
    /// Whether the last type's `id` is global (see `CacheKeyConfiguration.GlobalTypeMemo`).
    private var globalTypeMemo = CacheKeyConfiguration.GlobalTypeMemo()

    init(cacheKeys: CacheKeyConfiguration, checks: ExecutionChecks, errors: [GraphQLError], fillsRecordIDs: Bool) {
        self.cacheKeys = cacheKeys
        self.checks = checks
        self.errorPaths = ErrorPathTrie(errors)
        self.fillsRecordIDs = fillsRecordIDs
    }

    /// Executes `selections` over `data`, the object stored as `rootID`.
    static func execute(
        _ data: JSONObject, selections: [Selection], rootID: DataID, rootType: String, variables: JSONObject,
        cacheKeys: CacheKeyConfiguration, checks: ExecutionChecks, errors: [GraphQLError] = []
    ) throws(SelectionSetDecodingError) -> ExecutionResult {
        var executor = ResponseExecutor(
            cacheKeys: cacheKeys, checks: checks, errors: errors, fillsRecordIDs: selections.selectsRecordID)
        let plan = SelectionPlanCache.plan(selections, parentType: rootType, variables: variables)
        // Room for as many records as the last walk with this plan made: the table is then not
        // rebuilt as it grows (callgrind, GitHub receive: its growth cost 0.25 M instructions).
        executor.changes.reserveCapacity(plan.recordsLastMade)
        let rewritten: JSONObject?
        do {
            rewritten = try executor.executeObject(data, typename: nil, id: rootID, parentType: rootType, plan: plan)
        } catch {
            throw error.decodingError
        }
        plan.recordsLastMade = executor.changes.count
        return ExecutionResult(records: executor.changes, handles: executor.handles, data: rewritten ?? data)
    }

    /// Executes deferred parts of a response, each at its path only (never the whole body
    /// again): the record at the path is found by walking `data` (the response merged so far)
    /// with the plan, and the part's fields are checked and normalized into it. `nil` when a
    /// path does not lead to an object of the selections (the caller then executes the whole
    /// body, which reports what is wrong).
    static func execute(
        patches: [(path: [ResponsePath.Component], data: JSONObject)], in data: JSONObject, selections: [Selection],
        rootID: DataID, rootType: String, variables: JSONObject, cacheKeys: CacheKeyConfiguration, errors: [GraphQLError] = []
    ) throws(SelectionSetDecodingError) -> (records: RecordSource, handles: [HandleInvocation])? {
        var executor = ResponseExecutor(cacheKeys: cacheKeys, checks: .optimistic, errors: errors, fillsRecordIDs: false)
        let rootPlan = SelectionPlanCache.plan(selections, parentType: rootType, variables: variables)
        for patch in patches {
            guard let target = executor.locate(patch.path, in: data, rootID: rootID, rootType: rootType, plan: rootPlan) else {
                return nil
            }
            var fields = patch.data
            if fields["__typename"] == nil, let typename = target.typename { fields["__typename"] = .string(typename) }
            executor.errorNode = ErrorPathTrie.root
            if executor.tracksPath {
                for component in patch.path { executor.errorNode = executor.errorPaths.child(of: executor.errorNode, component) }
            }
            do {
                _ = try executor.executeObject(fields, typename: nil, id: target.id, parentType: target.type, plan: target.plan)
            } catch {
                var located = error
                for component in patch.path.reversed() { located = located.inside(component) }
                throw located.decodingError
            }
        }
        return (executor.changes, executor.handles)
    }

    /// The record, type and plan of the object at `path` in `data`, as the walk of the whole
    /// response would make them.
    private func locate(
        _ path: [ResponsePath.Component], in data: JSONObject, rootID: DataID, rootType: String, plan rootPlan: SelectionPlan
    ) -> (id: DataID, type: String, typename: String?, plan: SelectionPlan)? {
        var object = data
        var id = rootID
        var type = rootType
        var plan = rootPlan
        var position = 0
        while position < path.count {
            guard case .key(let key) = path[position] else { return nil }
            position += 1
            let typename = object["__typename"]?.stringValue ?? type
            guard let entry = plan.object(for: typename).fields.first(where: { $0.responseKey == key }),
                case .composite(let childType, let childPlan) = entry.kind, var value = object[key],
                // A part inside an embedded object has no record of its own to go to.
                !cacheKeys.embeds(entry.fieldName, typename: object["__typename"]?.stringValue, parentType: type)
            else { return nil }
            // Client IDs as the walk makes them: the field's, then `:<index>` per list level.
            var clientID = ClientID.make(parentID: id, storageKey: entry.storageKey).rawValue
            while position < path.count, case .index(let index) = path[position] {
                guard case .list(let items) = value, items.indices.contains(index) else { return nil }
                value = items[index]
                clientID += ":" + String(index)
                position += 1
            }
            guard case .object(let child) = value else { return nil }
            id = cacheKeys.cacheKey(typename: child["__typename"]?.stringValue ?? childType, object: child) ?? DataID(clientID)
            object = child
            type = childType
            plan = childPlan
        }
        return (id, type, object["__typename"]?.stringValue, plan)
    }

    private var tracksPath: Bool { !errorPaths.isEmpty }

    /// Checks and normalizes one object into its record; returns it rebuilt when the walk filled
    /// in `__id` at or below it, `nil` when it is unchanged.
    private mutating func executeObject(
        _ object: JSONObject, typename known: String??, id: DataID, parentType: String, plan: SelectionPlan
    ) throws(ValidationMismatch) -> JSONObject? {
        let (typename, fields, rebuilt) = try buildObject(object, typename: known, id: id, parentType: parentType, plan: plan)
        // Another occurrence of the same record in this response was written already (or while
        // walking the children): merge, this occurrence's fields last.
        changes.merge(
            Record(id: id, typename: typename ?? (id == .rootID ? nil : parentType), fields: fields),
            replacesTypename: typename != nil)
        return rebuilt
    }

    /// Checks and normalizes one object: its typename (as the payload gives it), its fields as a
    /// record holds them (`id` is where its children without cache keys get their client IDs
    /// from), and the object rebuilt when the walk filled in `__id` at or below it.
    private mutating func buildObject(
        _ object: JSONObject, typename known: String?? = nil, id: DataID, parentType: String, plan: SelectionPlan
    ) throws(ValidationMismatch) -> (typename: String?, fields: RecordFields, rebuilt: JSONObject?) {
        // The caller's reading of `__typename` when it made one (`.some(nil)`: there is none).
        let typename = known ?? object["__typename"]?.stringValue
        let planned = plan.object(for: typename ?? parentType)
        var values: [RecordValue] = []
        values.reserveCapacity(planned.fields.count)
        // The keys of `values`, kept only once they differ from the plan's shared storage keys
        // (a field was absent, or skipped for an error).
        var keys: [String]? = planned.storageKeys == nil ? [] : nil
        func skip() {
            if keys == nil, let shared = planned.storageKeys { keys = Array(shared[..<values.count]) }
        }
        var rebuilt: JSONObject?
        // Servers answer in the order of the selections (the spec's CollectFields order), so the
        // next key is most often the one after the last found: compared in place, without a
        // search of the object.
        let responseKeys = object.keys
        var next = 0
        for entry in planned.fields {
            // Where the value is; it is copied out only for what keeps it (a copy of a string or
            // an object is a reference count written).
            let found: Int?
            if next < responseKeys.count && responseKeys[next] == entry.responseKey {
                found = next
                next += 1
            } else if let position = object.position(of: entry.responseKey) {
                found = position
                next = position + 1
            } else {
                found = nil
            }
            guard let position = found else {
                // A client-only field is never in a server's response: not an error, and not
                // written, so the record keeps the value the client gave it.
                if checks == .response && entry.isRequired && !entry.isClientOnly {
                    throw ValidationMismatch(
                        at: .key(entry.responseKey), expected: entry.check.type.graphQLDescription, found: "nothing")
                }
                if entry.isStored { skip() }
                continue
            }
            switch entry.kind {
            case .typename:
                if checks != .none {
                    // A string, as a typename must be, needs no other check.
                    if case .string = object.values[position] { continue }
                    try check(object.values[position], entry)
                }
                continue
            case .recordID:
                continue
            case .scalar, .composite:
                break
            }
            let value = object.values[position]
            if case .scalar = entry.kind, checks != .none { try check(value, entry) }
            for directive in entry.directives {
                handles.append(
                    HandleInvocation(
                        parentID: id, field: entry.field, storageKey: entry.storageKey, value: value, directive: directive))
            }
            let parentNode = errorNode
            if tracksPath { errorNode = errorPaths.child(of: parentNode, .key(entry.responseKey)) }
            defer { errorNode = parentNode }
            let stored: RecordValue
            if case .null = value, checks == .none || entry.check.kind != .nonNull {
                if tracksPath && errorNode != ErrorPathTrie.offPath {
                    // Nulled for errors at or below it: the errors are kept in its place.
                    stored = .fieldErrors(errorPaths.errors(below: errorNode))
                    if rebuilt == nil { rebuilt = object }
                    rebuilt![entry.responseKey] = FieldErrorMarker.value(errorPaths.responseErrors(below: errorNode))
                } else {
                    stored = .null
                }
            } else if case .object = value, let errors = FieldErrorMarker.errors(in: value) {
                // A field error in data the store gave out (a typed result written back).
                stored = .fieldErrors(errors.map { $0.moved(to: nil) })
            } else if case .composite(let type, let selections) = entry.kind {
                let linked: (RecordValue, JSONValue?)
                do throws(ValidationMismatch) {
                    linked = try executeLinked(
                        value, check: entry.check, type: type, plan: selections, parentID: id, storageKey: entry.storageKey,
                        embedded: cacheKeys.embeds(entry.fieldName, typename: typename, parentType: parentType))
                } catch {
                    throw error.inside(.key(entry.responseKey))
                }
                stored = linked.0
                if let changed = linked.1 {
                    if rebuilt == nil { rebuilt = object }
                    rebuilt![entry.responseKey] = changed
                }
            } else if case .list(let items) = value, tracksPath && errorNode != ErrorPathTrie.offPath,
                let kept = keepingItemErrors(items, node: errorNode)
            {
                // A list of scalars with items the server nulled for errors: each keeps its own.
                stored = kept.stored
                if rebuilt == nil { rebuilt = object }
                rebuilt![entry.responseKey] = kept.data
            } else {
                stored = .scalar(value)
            }
            values.append(stored)
            keys?.append(entry.storageKey)
        }
        if fillsRecordIDs && planned.selectsRecordID {
            if rebuilt == nil { rebuilt = object }
            for entry in planned.fields {
                if case .recordID = entry.kind { rebuilt![entry.responseKey] = .string(id.rawValue) }
            }
        }
        let fields: RecordFields
        if let keys {
            fields = planned.storageKeys == nil ? RecordFields(zip(keys, values)) : RecordFields(uniqueKeys: keys, values: values)
        } else {
            fields = RecordFields(uniqueKeys: planned.storageKeys ?? [], values: values)
        }
        return (typename, fields, rebuilt)
    }

    /// A list of scalars (or of lists of them) at error-path `node`, with each `null` item that
    /// an error at or below it stands for kept as that item's errors, and the data with a
    /// field-error marker there; `nil` when no item is such a null.
    private func keepingItemErrors(_ items: [JSONValue], node: Int) -> (stored: RecordValue, data: JSONValue)? {
        var stored: [RecordValue] = []
        stored.reserveCapacity(items.count)
        var data = items
        var found = false
        for (index, item) in items.enumerated() {
            let child = errorPaths.child(of: node, .index(index))
            guard child != ErrorPathTrie.offPath else {
                stored.append(.scalar(item))
                continue
            }
            switch item {
            case .null:
                stored.append(.fieldErrors(errorPaths.errors(below: child)))
                data[index] = FieldErrorMarker.value(errorPaths.responseErrors(below: child))
                found = true
            case .list(let inner):
                if let kept = keepingItemErrors(inner, node: child) {
                    stored.append(kept.stored)
                    data[index] = kept.data
                    found = true
                } else {
                    stored.append(.scalar(item))
                }
            default:
                stored.append(.scalar(item))
            }
        }
        return found ? (.list(stored), .list(data)) : nil
    }

    private func check(_ value: JSONValue, _ entry: PlannedField) throws(ValidationMismatch) {
        do throws(ValidationMismatch) {
            try entry.check.validate(value)
        } catch {
            throw error.inside(.key(entry.responseKey))
        }
    }

    /// The value of a composite field at the level `check` describes: a link, a list of links
    /// (and nulls), or null, with the value rebuilt when `__id` was filled in below it. Objects
    /// without a cache key get client IDs from `parentID` and the field's storage key, plus
    /// `:<index>` per list level (`listID` is the ID of the list holding the value at `index`).
    /// An `embedded` object is kept in the value itself, its client ID (its place) given only to
    /// its children, even when it has a cache key.
    private mutating func executeLinked(
        _ value: JSONValue, check: ValueCheck, type: String, plan: SelectionPlan, parentID: DataID, storageKey: String,
        embedded: Bool = false, listID: String? = nil, index: Int = 0
    ) throws(ValidationMismatch) -> (RecordValue, JSONValue?) {
        /// The client ID of whatever is at this place, made only when needed.
        func clientID() -> String {
            guard let listID else { return ClientID.make(parentID: parentID, storageKey: storageKey).rawValue }
            return ClientID.item(of: listID, at: index)
        }
        var check = check
        if check.kind == .nonNull {
            if case .null = value, checks != .none { throw check.mismatch(found: value) }
            check = check.inner!
        }
        switch value {
        case .null:
            return (.null, nil)
        case .list(let items):
            guard check.kind == .list || checks == .none else { throw check.mismatch(found: value) }
            let inner = check.inner ?? check
            let id = clientID()
            var result: [RecordValue] = []
            result.reserveCapacity(items.count)
            var rebuilt: [JSONValue]?
            // Room for a long list's records is made once its first sixteenth is in, at the rate
            // of records per item so far, so the table of changes is not rebuilt as it grows.
            let sampleEnd = items.count >= 256 ? items.count / 16 : -1
            let countBefore = changes.count
            for (index, item) in items.enumerated() {
                if index == sampleEnd {
                    let perItem = Double(changes.count - countBefore) / Double(index)
                    changes.reserveCapacity(changes.count + Int((perItem * Double(items.count - index)).rounded(.up)))
                }
                let parentNode = errorNode
                if tracksPath { errorNode = errorPaths.child(of: parentNode, .index(index)) }
                defer { errorNode = parentNode }
                if case .null = item, tracksPath, errorNode != ErrorPathTrie.offPath, inner.kind != .nonNull || checks == .none {
                    result.append(.fieldErrors(errorPaths.errors(below: errorNode)))
                    if rebuilt == nil { rebuilt = items }
                    rebuilt![index] = FieldErrorMarker.value(errorPaths.responseErrors(below: errorNode))
                    continue
                }
                let element: (RecordValue, JSONValue?)
                do throws(ValidationMismatch) {
                    element = try executeLinked(
                        item, check: inner, type: type, plan: plan, parentID: parentID, storageKey: storageKey,
                        embedded: embedded,
                        listID: id, index: index)
                } catch {
                    throw error.inside(.index(index))
                }
                result.append(element.0)
                if let changed = element.1 {
                    if rebuilt == nil { rebuilt = items }
                    rebuilt![index] = changed
                }
            }
            return (.list(result), rebuilt.map(JSONValue.list))
        case .object(let object):
            if let errors = FieldErrorMarker.errors(in: value) {
                // A field error in data the store gave out (a typed result written back).
                return (.fieldErrors(errors.map { $0.moved(to: nil) }), nil)
            }
            guard check.kind == .object || checks == .none else { throw check.mismatch(found: value) }
            if embedded {
                let built = try buildObject(object, id: DataID(clientID()), parentType: type, plan: plan)
                return (.embedded(typename: built.typename ?? type, fields: built.fields), built.rebuilt.map(JSONValue.object))
            }
            let typename = object["__typename"]?.stringValue
            let id = cacheKeys.cacheKey(typename: typename ?? type, object: object, memo: &globalTypeMemo) ?? DataID(clientID())
            let rebuilt = try executeObject(object, typename: typename, id: id, parentType: type, plan: plan)
            return (.link(id), rebuilt.map(JSONValue.object))
        default:
            guard checks == .none else { throw check.mismatch(found: value) }
            // Not an object where one was selected, stored as it came (unchecked payloads only).
            return (.scalar(value), nil)
        }
    }
}

/// Error paths as a trie of components, so that "is this response path a prefix of an error
/// path?" costs one step per component however long the paths are. Each node knows the errors
/// whose path ends there, to keep them where the server nulled a field.
struct ErrorPathTrie {
    /// The node of the empty path.
    static let root = 0
    /// Not on any error path.
    static let offPath = -1

    /// Each node's children by component.
    private var children: [[ResponsePath.Component: Int]] = [[:]]
    /// Each node's depth (the length of its path).
    private var depths: [Int] = [0]
    /// The positions in `errors` of the errors whose path ends at each node.
    private var ending: [[Int]] = [[]]
    /// The errors with a path, as the response gave them.
    private let errors: [GraphQLError]
    /// Whether there are no error paths at all.
    let isEmpty: Bool

    init(_ errors: [GraphQLError]) {
        let located = errors.filter { $0.path != nil }
        self.errors = located
        isEmpty = located.isEmpty
        for (position, error) in located.enumerated() {
            var node = Self.root
            for component in error.path!.components {
                if let next = children[node][component] {
                    node = next
                } else {
                    children.append([:])
                    depths.append(depths[node] + 1)
                    ending.append([])
                    children[node][component] = children.count - 1
                    node = children.count - 1
                }
            }
            ending[node].append(position)
        }
    }

    /// The positions of the errors at or below `node`, in the response's order.
    private func positions(below node: Int) -> [Int] {
        var found: [Int] = []
        var pending = [node]
        while let next = pending.popLast() {
            found += ending[next]
            pending += children[next].values
        }
        return found.sorted()
    }

    /// The errors at or below `node` as the store keeps them: paths relative to the node.
    func errors(below node: Int) -> [GraphQLError] {
        let depth = depths[node]
        return positions(below: node).map { position in
            let error = errors[position]
            return error.moved(to: ResponsePath(Array(error.path!.components.dropFirst(depth))))
        }
    }

    /// The errors at or below `node` as the response gave them.
    func responseErrors(below node: Int) -> [GraphQLError] {
        positions(below: node).map { errors[$0] }
    }

    /// The node one component below `node`, or ``offPath``.
    func child(of node: Int, _ component: ResponsePath.Component) -> Int {
        guard node != Self.offPath else { return Self.offPath }
        return children[node][component] ?? Self.offPath
    }
}
