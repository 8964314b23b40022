/// The errors a response reported at or below one field: the failure of a `@catch(to: RESULT)`
/// accessor, whether the data came from the server or from the store (which keeps a response's
/// field errors beside the fields until a later response overwrites them).
public struct GraphQLFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errors, each with its response path (`hero.friends[1].name`).
    public let errors: [GraphQLError]

    /// A failure made of `errors`.
    public init(errors: [GraphQLError]) {
        self.errors = errors
    }

    /// The path of the first error: where the field failed.
    public var path: ResponsePath? { errors.first?.path }

    /// The first error's message.
    public var message: String { errors.first?.message ?? "field error" }

    public var description: String { errors.map(\.description).joined(separator: "; ") }
}

/// How a field error sits in a response-shaped object: at the field's place (or a list item's),
/// an object `{"__fieldErrors": [error, …]}` with the errors in the response's error format.
/// GraphQL response keys cannot start with `__` (except introspection fields, which are never
/// errors), so the marker cannot be confused with selected data. Generated accessors read it as
/// `nil` (a nullable field), as a failure (`@catch(to: RESULT)`), or never see it
/// (`@throwOnFieldError`, `@required`, which fail the read before).
public enum FieldErrorMarker {
    /// The marker object's one key.
    public static let key = "__fieldErrors"

    /// The marker for `errors`.
    public static func value(_ errors: [GraphQLError]) -> JSONValue {
        .object(JSONObject(uniqueKeys: [key], values: [.list(errors.map(\.jsonValue))]))
    }

    /// The errors a marker holds; `nil` when `value` is not a marker.
    public static func errors(in value: JSONValue) -> [GraphQLError]? {
        guard case .object(let object) = value, object.count == 1, let list = object[key]?.listValue else { return nil }
        return list.map(GraphQLError.init(json:))
    }

    /// Whether `value` is a marker (a cheap test: one key, the marker's).
    @inline(__always)
    public static func isMarker(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value, object.count == 1 else { return false }
        return object.keys[0] == key
    }

    /// `data` with a marker at the path of each error whose path leads to a `null` (the field
    /// the server nulled for it, or the nearest nullable field above it: an error under a
    /// non-null field nulls its parent). Errors without a path, or whose path ends at a value,
    /// are left out. Cost: the length of the paths, not the size of the data.
    public static func embed(_ errors: [GraphQLError], in data: JSONObject) -> JSONObject {
        var data = data
        var byPlace: [[ResponsePath.Component]: [GraphQLError]] = [:]
        var order: [[ResponsePath.Component]] = []
        for error in errors {
            guard let path = error.path, !path.components.isEmpty,
                let place = nullPlace(of: path.components, in: data)
            else { continue }
            if byPlace[place] == nil { order.append(place) }
            byPlace[place, default: []].append(error)
        }
        for place in order {
            var value = JSONValue.object(data)
            set(value: FieldErrorMarker.value(byPlace[place]!), at: place[...], in: &value)
            if case .object(let object) = value { data = object }
        }
        return data
    }

    /// The prefix of `path` that leads to a `null` in `data` (or to a marker already there).
    private static func nullPlace(of path: [ResponsePath.Component], in data: JSONObject) -> [ResponsePath.Component]? {
        var value = JSONValue.object(data)
        for (position, component) in path.enumerated() {
            let next: JSONValue?
            switch (component, value) {
            case (.key(let key), .object(let object)): next = object[key]
            case (.index(let index), .list(let items)): next = items.indices.contains(index) ? items[index] : nil
            default: next = nil
            }
            guard let next else { return nil }
            if case .null = next { return Array(path[...position]) }
            if isMarker(next) { return Array(path[...position]) }
            value = next
        }
        return nil
    }

    private static func set(value new: JSONValue, at path: ArraySlice<ResponsePath.Component>, in value: inout JSONValue) {
        guard let first = path.first else {
            if let existing = errors(in: value), let added = errors(in: new) {
                value = FieldErrorMarker.value(existing + added)
            } else {
                value = new
            }
            return
        }
        switch (first, value) {
        case (.key(let key), .object(var object)):
            guard var child = object[key] else { return }
            value = .null  // let the object be uniquely referenced while it changes
            set(value: new, at: path.dropFirst(), in: &child)
            object[key] = child
            value = .object(object)
        case (.index(let index), .list(var items)) where items.indices.contains(index):
            var child = items[index]
            value = .null
            set(value: new, at: path.dropFirst(), in: &child)
            items[index] = child
            value = .list(items)
        default:
            return
        }
    }
}

extension GraphQLError {
    /// The error in the response's error format (`message`, `locations`, `path`, `extensions`).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["message"] = .string(message)
        if let locations {
            object["locations"] = .list(
                locations.map { .object(JSONObject(uniqueKeys: ["line", "column"], values: [.int($0.line), .int($0.column)])) })
        }
        if let path { object["path"] = path.jsonValue }
        if let extensions { object["extensions"] = .object(extensions) }
        return .object(object)
    }

    /// The same error at another path.
    public func moved(to path: ResponsePath?) -> GraphQLError {
        GraphQLError(message: message, locations: locations, path: path, extensions: extensions)
    }
}

extension ResponsePath {
    /// The path as a response writes it: `["hero", "friends", 2]`.
    public var jsonValue: JSONValue {
        .list(
            components.map { component in
                switch component {
                case .key(let key): return .string(key)
                case .index(let index): return .int(index)
                }
            })
    }
}

extension Result: SelectionSetValue where Success: SelectionSetValue, Failure == GraphQLFieldError {
    /// A `@catch(to: RESULT)` field: the value, or the field's errors where the data holds a
    /// field-error marker.
    public static func _fromJSON(_ value: JSONValue) -> Result<Success, GraphQLFieldError>? {
        if let errors = FieldErrorMarker.errors(in: value) { return .failure(GraphQLFieldError(errors: errors)) }
        return Success._fromJSON(value).map { .success($0) }
    }
}

extension Result: SelectionSetWritableValue where Success: SelectionSetWritableValue, Failure == GraphQLFieldError {
    /// The value, or a field-error marker for a failure (written to the store as the field's error).
    public var _selectionSetJSON: JSONValue {
        switch self {
        case .success(let value): return value._selectionSetJSON
        case .failure(let failure): return FieldErrorMarker.value(failure.errors)
        }
    }
}
