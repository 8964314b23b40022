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
    private let collector: FieldCollector
    /// Every prefix of every error path: a null at one of these came from an error.
    private let errorPrefixes: Set<ResponsePath>
    private var changes = RecordSource()
    private var handles: [HandleInvocation] = []
    private var path: [ResponsePath.Component] = []

    public init(cacheKeys: CacheKeyConfiguration = .default, variables: JSONObject = [:], errorPaths: [ResponsePath] = []) {
        self.cacheKeys = cacheKeys
        self.variables = variables
        collector = FieldCollector(variables: variables)
        var prefixes = Set<ResponsePath>()
        for errorPath in errorPaths {
            for length in 0...errorPath.components.count {
                prefixes.insert(ResponsePath(Array(errorPath.components.prefix(length))))
            }
        }
        errorPrefixes = prefixes
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
        normalizer.normalizeObject(data, id: rootID, parentType: rootType, selections: selections)
        return (normalizer.changes, normalizer.handles)
    }

    private var tracksPath: Bool { !errorPrefixes.isEmpty }

    private mutating func normalizeObject(_ object: JSONObject, id: DataID, parentType: String, selections: [Selection]) {
        let typename = object["__typename"]?.stringValue
        var record = changes[id] ?? Record(id: id)
        if let typename {
            record.typename = typename
        } else if record.typename == nil, id != .rootID {
            record.typename = parentType
        }
        for group in collector.collect(selections, typename: typename, parentType: parentType) {
            let field = group.first
            guard let value = object[group.responseKey] else { continue }
            if field.name == "__typename" || field.name == "__id" { continue }
            let storageKey = StorageKey.make(field: field, variables: variables)
            for directive in group.fields.flatMap(\.directives) {
                handles.append(HandleInvocation(parentID: id, field: field, storageKey: storageKey, value: value, directive: directive))
            }
            if tracksPath { path.append(.key(group.responseKey)) }
            defer { if tracksPath { path.removeLast() } }
            if case .null = value {
                if tracksPath && errorPrefixes.contains(ResponsePath(path)) { continue }
                record.fields[storageKey] = .null
                continue
            }
            if field.type.isComposite {
                record.fields[storageKey] = normalizeLinked(
                    value, type: field.type.namedType, selections: group.mergedSelections, parentID: id,
                    storageKey: storageKey, indexPath: "")
            } else {
                record.fields[storageKey] = .scalar(value)
            }
        }
        // Another occurrence of the same record in this response may have been written while
        // walking the children: merge rather than overwrite.
        if let written = changes[id] {
            var merged = written
            if let typename = record.typename { merged.typename = typename }
            for (key, value) in record.fields { merged.fields[key] = value }
            changes.set(merged)
        } else {
            changes.set(record)
        }
    }

    private mutating func normalizeLinked(
        _ value: JSONValue, type: String, selections: [Selection], parentID: DataID, storageKey: String, indexPath: String
    ) -> RecordValue {
        switch value {
        case .null:
            return .null
        case .list(let items):
            var result: [RecordValue] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                if tracksPath { path.append(.index(index)) }
                if case .null = item, tracksPath, errorPrefixes.contains(ResponsePath(path)) {
                    result.append(.null)
                } else {
                    let itemPath = indexPath.isEmpty ? String(index) : indexPath + ":" + String(index)
                    result.append(
                        normalizeLinked(
                            item, type: type, selections: selections, parentID: parentID, storageKey: storageKey,
                            indexPath: itemPath))
                }
                if tracksPath { path.removeLast() }
            }
            return .list(result)
        case .object(let object):
            let typename = object["__typename"]?.stringValue
            let id =
                cacheKeys.cacheKey(typename: typename ?? type, object: object)
                ?? DataID(ClientID.make(parentID: parentID, storageKey: storageKey).rawValue + (indexPath.isEmpty ? "" : ":" + indexPath))
            normalizeObject(object, id: id, parentType: type, selections: selections)
            return .link(id)
        default:
            // Not an object where one was selected; `init(jsonObject:)` rejects such responses,
            // so this only stores what came, to be reported by the reader's type check.
            return .scalar(value)
        }
    }
}
