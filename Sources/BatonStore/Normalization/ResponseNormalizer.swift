import BatonAPI

/// A field of a response that carries a client directive, found while normalizing.
public struct HandleInvocation: Sendable {
    /// The record holding the field.
    public let parentID: DataID
    public let field: Field
    /// Where the server's value of the field is stored on the parent.
    public let storageKey: String
    /// The field's value in the response.
    public let value: JSONValue
    public let directive: ClientDirective
}

/// Turns a response into record changes: each object with a cache key becomes the record of
/// that key, others get client IDs from their parent and field; scalars are stored by storage
/// key, objects as links. A null at a path where the response reports an error is not written,
/// so a failed field never overwrites good data with null.
public struct ResponseNormalizer {
    public let cacheKeys: CacheKeyConfiguration
    public let variables: JSONObject
    /// The error paths as a trie: a null at a path that is a prefix of one came from an error.
    /// Built in time linear in the paths' total length (not one set entry per prefix, which was
    /// quadratic in a path's length).
    private let errorPaths: ErrorPathTrie
    private var changes = RecordSource()
    private var handles: [HandleInvocation] = []
    /// The trie node of the current response path; ``ErrorPathTrie/offPath`` once the path left
    /// every error path.
    private var errorNode = ErrorPathTrie.root

    public init(cacheKeys: CacheKeyConfiguration = .default, variables: JSONObject = [:], errorPaths: [ResponsePath] = []) {
        self.cacheKeys = cacheKeys
        self.variables = variables
        self.errorPaths = ErrorPathTrie(errorPaths)
    }

    /// Normalizes `data` (the response's `data`, or any object) read with `selections` into
    /// records, the object itself stored as `rootID`.
    public static func normalize(
        _ data: JSONObject, selections: [Selection], rootID: DataID = .rootID, rootType: String,
        variables: JSONObject = [:], cacheKeys: CacheKeyConfiguration = .default, errorPaths: [ResponsePath] = []
    ) -> RecordSource {
        normalizeWithHandles(
            data, selections: selections, rootID: rootID, rootType: rootType, variables: variables, cacheKeys: cacheKeys,
            errorPaths: errorPaths
        ).changes
    }

    /// Normalizes and also returns the fields that carry client directives (`@connection`, the
    /// mutation directives), in response order, for their handlers to run on the result.
    public static func normalizeWithHandles(
        _ data: JSONObject, selections: [Selection], rootID: DataID = .rootID, rootType: String,
        variables: JSONObject = [:], cacheKeys: CacheKeyConfiguration = .default, errorPaths: [ResponsePath] = []
    ) -> (changes: RecordSource, handles: [HandleInvocation]) {
        var normalizer = ResponseNormalizer(cacheKeys: cacheKeys, variables: variables, errorPaths: errorPaths)
        let plan = SelectionPlan(selections, parentType: rootType, variables: variables)
        normalizer.normalizeObject(data, id: rootID, parentType: rootType, plan: plan)
        return (normalizer.changes, normalizer.handles)
    }

    private var tracksPath: Bool { !errorPaths.isEmpty }

    private mutating func normalizeObject(_ object: JSONObject, id: DataID, parentType: String, plan: SelectionPlan) {
        let typename = object["__typename"]?.stringValue
        let planned = plan.object(for: typename ?? parentType)
        var values: [RecordValue] = []
        values.reserveCapacity(planned.fields.count)
        // The keys of `values`, kept only once they differ from the plan's shared storage keys
        // (a field was absent, or skipped for an error).
        var keys: [String]? = planned.storageKeys == nil ? [] : nil
        func skip() {
            if keys == nil, let shared = planned.storageKeys { keys = Array(shared[..<values.count]) }
        }
        for entry in planned.fields where entry.isStored {
            guard let value = object[entry.responseKey] else {
                skip()
                continue
            }
            for directive in entry.directives {
                handles.append(
                    HandleInvocation(parentID: id, field: entry.field, storageKey: entry.storageKey, value: value, directive: directive))
            }
            let parentNode = errorNode
            if tracksPath { errorNode = errorPaths.child(of: parentNode, .key(entry.responseKey)) }
            defer { errorNode = parentNode }
            let stored: RecordValue
            if case .null = value {
                if tracksPath && errorNode != ErrorPathTrie.offPath {
                    skip()
                    continue
                }
                stored = .null
            } else if case .composite(let type, let selections) = entry.kind {
                stored = normalizeLinked(value, type: type, plan: selections, parentID: id, storageKey: entry.storageKey)
            } else {
                stored = .scalar(value)
            }
            values.append(stored)
            keys?.append(entry.storageKey)
        }
        let fields: RecordFields
        if let keys {
            fields = planned.storageKeys == nil ? RecordFields(zip(keys, values)) : RecordFields(uniqueKeys: keys, values: values)
        } else {
            fields = RecordFields(uniqueKeys: planned.storageKeys ?? [], values: values)
        }
        // Another occurrence of the same record in this response was written already (or while
        // walking the children): merge, this occurrence's fields last.
        changes.merge(
            Record(id: id, typename: typename ?? (id == .rootID ? nil : parentType), fields: fields), replacesTypename: typename != nil)
    }

    /// The value of a composite field: a link, a list of links (and nulls), or null. Objects
    /// without a cache key get client IDs from `parentID` and the field's storage key, plus
    /// `:<index>` per list level (`listID` is the ID of the list holding the value at `index`).
    private mutating func normalizeLinked(
        _ value: JSONValue, type: String, plan: SelectionPlan, parentID: DataID, storageKey: String, listID: String? = nil,
        index: Int = 0
    ) -> RecordValue {
        /// The client ID of whatever is at this place, made only when needed.
        func clientID() -> String {
            guard let listID else { return ClientID.make(parentID: parentID, storageKey: storageKey).rawValue }
            let suffix = String(index)
            var id = ""
            id.reserveCapacity(listID.utf8.count + 1 + suffix.utf8.count)
            id += listID
            id += ":"
            id += suffix
            return id
        }
        switch value {
        case .null:
            return .null
        case .list(let items):
            let id = clientID()
            var result: [RecordValue] = []
            result.reserveCapacity(items.count)
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
                if case .null = item, tracksPath, errorNode != ErrorPathTrie.offPath {
                    result.append(.null)
                } else {
                    result.append(
                        normalizeLinked(
                            item, type: type, plan: plan, parentID: parentID, storageKey: storageKey, listID: id, index: index))
                }
                errorNode = parentNode
            }
            return .list(result)
        case .object(let object):
            let typename = object["__typename"]?.stringValue
            let id = cacheKeys.cacheKey(typename: typename ?? type, object: object) ?? DataID(clientID())
            normalizeObject(object, id: id, parentType: type, plan: plan)
            return .link(id)
        default:
            // Not an object where one was selected; `init(jsonObject:)` rejects such responses,
            // so this only stores what came, to be reported by the reader's type check.
            return .scalar(value)
        }
    }
}

/// Error paths as a trie of components, so that "is this response path a prefix of an error
/// path?" costs one step per component however long the paths are.
struct ErrorPathTrie {
    /// The node of the empty path.
    static let root = 0
    /// Not on any error path.
    static let offPath = -1

    /// Each node's children by component.
    private var children: [[ResponsePath.Component: Int]] = [[:]]
    /// Whether there are no error paths at all.
    let isEmpty: Bool

    init(_ paths: [ResponsePath]) {
        isEmpty = paths.isEmpty
        for path in paths {
            var node = Self.root
            for component in path.components {
                if let next = children[node][component] {
                    node = next
                } else {
                    children.append([:])
                    children[node][component] = children.count - 1
                    node = children.count - 1
                }
            }
        }
    }

    /// The node one component below `node`, or ``offPath``.
    func child(of node: Int, _ component: ResponsePath.Component) -> Int {
        guard node != Self.offPath else { return Self.offPath }
        return children[node][component] ?? Self.offPath
    }
}
