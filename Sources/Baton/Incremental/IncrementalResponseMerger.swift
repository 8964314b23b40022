import BatonAPI

/// Merges the parts of an incremental (`@defer`/`@stream`) response into one response, part by
/// part, in the order they arrive. Reads both formats:
///
/// - the GraphQL spec draft (graphql-js 17): the initial part lists `pending` results
///   (`{id, path, label}`); later parts carry `incremental` results (`{id, data, subPath?}` for a
///   deferred fragment, `{id, items}` for streamed list items), `completed` ids (with `errors`
///   when a deferred fragment or stream failed) and more `pending`;
/// - Apollo's `deferSpec=20220824`: later parts carry `incremental` results with a `path` and
///   `data` (merged at the path) or `items` (the path ends with the index of the first item).
///
/// Errors of every part are collected in order; `extensions` are merged, later keys winning.
struct IncrementalResponseMerger {
    let operationName: String
    private(set) var data: JSONValue?
    private(set) var errors: [JSONValue] = []
    private(set) var extensions = JSONObject()
    private(set) var hasNext = true
    /// How many parts have been merged.
    private(set) var partCount = 0
    /// The deferred data the last part merged, each at its path; `nil` when that part is to be
    /// taken whole (the first part, or one with streamed items).
    private(set) var latestPatches: [IncrementalPatch]?
    /// The paths of pending results of the spec-draft format, by id.
    private var pendingPaths: [String: [JSONValue]] = [:]

    init(operationName: String) {
        self.operationName = operationName
    }

    /// The response as merged so far.
    var body: JSONObject {
        var body = JSONObject()
        if let data { body["data"] = data }
        if !errors.isEmpty { body["errors"] = .list(errors) }
        if !extensions.isEmpty { body["extensions"] = .object(extensions) }
        return body
    }

    /// Merges one part. Returns false for a part that carries nothing (a heartbeat `{}`).
    mutating func merge(_ part: JSONObject) throws -> Bool {
        if part.isEmpty { return false }
        if partCount == 0 {
            guard part["data"] != nil || part["errors"] != nil else {
                throw invalid("the first part has neither `data` nor `errors`")
            }
            data = part["data"]
            if let data, !(data.isNull || data.objectValue != nil) {
                throw invalid("`data` is \(data.kindDescription), not an object")
            }
        }
        latestPatches = partCount == 0 ? nil : []
        partCount += 1
        if let list = part["errors"]?.listValue { errors += list }
        if let more = part["extensions"]?.objectValue {
            for (key, value) in more { extensions[key] = value }
        }
        for pending in part["pending"]?.listValue ?? [] {
            guard let id = Self.id(pending["id"]), let path = pending["path"]?.listValue else {
                throw invalid("a `pending` entry needs an `id` and a `path`")
            }
            pendingPaths[id] = path
        }
        for incremental in part["incremental"]?.listValue ?? [] {
            try apply(incremental)
        }
        for completed in part["completed"]?.listValue ?? [] {
            guard let id = Self.id(completed["id"]) else { throw invalid("a `completed` entry has no `id`") }
            if let list = completed["errors"]?.listValue { errors += list }
            pendingPaths[id] = nil
        }
        if let next = part["hasNext"]?.boolValue {
            hasNext = next
        } else if partCount == 1 {
            hasNext = part["pending"] != nil
        } else {
            hasNext = false
        }
        return true
    }

    private mutating func apply(_ incremental: JSONValue) throws {
        guard let result = incremental.objectValue else { throw invalid("an `incremental` entry is not an object") }
        if let list = result["errors"]?.listValue { errors += list }
        if let more = result["extensions"]?.objectValue {
            for (key, value) in more { extensions[key] = value }
        }
        let path: [JSONValue]
        if let id = Self.id(result["id"]) {
            guard let pendingPath = pendingPaths[id] else { throw invalid("an `incremental` entry names unknown id \(id)") }
            path = pendingPath + (result["subPath"]?.listValue ?? [])
        } else if let explicit = result["path"]?.listValue {
            path = explicit
        } else {
            throw invalid("an `incremental` entry has neither `id` nor `path`")
        }
        guard data != nil, data?.isNull == false else {
            // The initial data is null (an error reached the root): nothing to merge into.
            return
        }
        let name = operationName
        if result["items"] != nil { latestPatches = nil }  // streamed items change their list: taken whole
        if let items = result["items"]?.listValue {
            // Spec draft: items append to the list at the path. deferSpec: the path ends with the
            // index of the first item.
            if result["id"] != nil {
                try update(at: path[...]) { list in
                    guard case .list(var elements) = list else { throw Self.invalid(name, "streamed items target \(list.kindDescription), not a list") }
                    elements += items
                    list = .list(elements)
                }
            } else {
                guard let index = path.last?.intValue else { throw Self.invalid(name, "a streamed `path` does not end with an index") }
                try update(at: path.dropLast()) { list in
                    guard case .list(var elements) = list else { throw Self.invalid(name, "streamed items target \(list.kindDescription), not a list") }
                    guard index >= 0 else { throw Self.invalid(name, "streamed items start at the negative index \(index)") }
                    guard index <= elements.count else { throw Self.invalid(name, "streamed items start at \(index), past the list's end \(elements.count)") }
                    elements.replaceSubrange(index..<min(elements.count, index + items.count), with: items)
                    list = .list(elements)
                }
            }
        } else if let patch = result["data"] {
            guard case .object(let fields) = patch else {
                if patch.isNull { return }  // the deferred fragment failed; its errors say why
                throw Self.invalid(name, "deferred `data` is \(patch.kindDescription), not an object")
            }
            var merged = false
            try update(at: path[...]) { target in
                if target.isNull { return }  // the object the fragment belongs to is null
                guard case .object(let object) = target else {
                    throw Self.invalid(name, "deferred data targets \(target.kindDescription), not an object")
                }
                target = .object(Self.deepMerge(object, fields))
                merged = true
            }
            if merged { notePatch(fields, at: path) }
        }
    }

    /// Notes deferred `fields` merged at `path` for the client to execute there alone.
    private mutating func notePatch(_ fields: JSONObject, at path: [JSONValue]) {
        guard latestPatches != nil else { return }
        var components: [ResponsePath.Component] = []
        for element in path {
            switch element {
            case .string(let key): components.append(.key(key))
            case .int(let index): components.append(.index(index))
            default:
                latestPatches = nil
                return
            }
        }
        latestPatches!.append(IncrementalPatch(path: ResponsePath(components), data: fields))
    }

    /// Changes the value at `path` inside `data`.
    private mutating func update(at path: ArraySlice<JSONValue>, _ change: (inout JSONValue) throws -> Void) throws {
        guard var root = data else { return }
        let name = operationName
        try Self.update(&root, at: path, change) { Self.invalid(name, $0) }
        data = root
    }

    private static func update(
        _ value: inout JSONValue, at path: ArraySlice<JSONValue>, _ change: (inout JSONValue) throws -> Void,
        invalid: (String) -> BatonError
    ) throws {
        guard let first = path.first else {
            try change(&value)
            return
        }
        switch (value, first) {
        case (.object(var object), .string(let key)):
            guard var child = object[key] else { throw invalid("the path's key \"\(key)\" is not in the data") }
            try update(&child, at: path.dropFirst(), change, invalid: invalid)
            object[key] = child
            value = .object(object)
        case (.list(var elements), .int(let index)):
            guard elements.indices.contains(index) else { throw invalid("the path's index \(index) is not in the list") }
            try update(&elements[index], at: path.dropFirst(), change, invalid: invalid)
            value = .list(elements)
        case (.null, _):
            return  // a null parent: the deferred data has nowhere to go
        default:
            throw invalid("the path does not lead through the data at \(first)")
        }
    }

    /// `base` with `patch`'s fields added; objects present in both are merged recursively.
    static func deepMerge(_ base: JSONObject, _ patch: JSONObject) -> JSONObject {
        var merged = base
        for (key, value) in patch {
            if case .object(let existing)? = merged[key], case .object(let incoming) = value {
                merged[key] = .object(deepMerge(existing, incoming))
            } else if case .list(let existing)? = merged[key], case .list(let incoming) = value, existing.count == incoming.count {
                merged[key] = .list(
                    zip(existing, incoming).map { old, new in
                        if case .object(let a) = old, case .object(let b) = new { return .object(deepMerge(a, b)) }
                        return new
                    })
            } else {
                merged[key] = value
            }
        }
        return merged
    }

    private static func id(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let id)?: return id
        case .int(let id)?: return String(id)
        default: return nil
        }
    }

    private func invalid(_ reason: String) -> BatonError {
        Self.invalid(operationName, reason)
    }

    private static func invalid(_ operationName: String, _ reason: String) -> BatonError {
        .invalidResponse(operationName: operationName, reason: "incremental delivery: \(reason)")
    }
}
