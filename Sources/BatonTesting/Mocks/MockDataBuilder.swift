import BatonAPI

/// Walks selections over a mock and writes the response object a server would send for it.
struct MockDataBuilder {
    let variables: JSONObject

    /// The object for `selections`; it has `__typename` where they select it (generated
    /// selections do on every object but the root), as a server's response would.
    func object(from mock: any AnyMock, selections: [Selection], path: ResponsePath) throws(MockDataError) -> JSONObject {
        var object = JSONObject()
        try collect(selections, from: mock, lenient: false, path: path, into: &object)
        return object
    }

    /// Whether conditions hold: `true`, `false`, or `nil` when a variable is not given.
    private func applies(_ conditions: [InclusionCondition]) -> Bool? {
        conditions.evaluate(with: variables)
    }

    /// `lenient`: under a condition that cannot be decided or a `@defer`, an unset field is left
    /// out rather than an error.
    private func collect(
        _ selections: [Selection], from mock: any AnyMock, lenient: Bool, path: ResponsePath, into object: inout JSONObject
    ) throws(MockDataError) {
        for selection in selections {
            switch selection {
            case .field(let field):
                let applies = applies(field.conditions)
                if applies == false { continue }
                let key = field.responseKey
                if field.name == "__typename" {
                    object[key] = .string(mock.__typename)
                    continue
                }
                if field.name == "__id" {
                    // The store's record ID: `Typename:id` when the mock has an id (the store's
                    // default cache key), else a client ID of the path.
                    let id = (mock._value(forField: "id").flatMap { Self.unwrap($0) } as? any SelectionSetWritableValue)?._selectionSetJSON
                    let identifier = id.flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
                    object[key] = .string(identifier.map { "\(mock.__typename):\($0)" } ?? "client:mock:\(path)")
                    continue
                }
                let value = mock._value(forField: field.name)
                if value == nil, lenient || applies == nil { continue }
                let json = try self.value(value, type: field.type, selections: field.selections, path: path.appending(key))
                object[key] = object[key].map { Self.merge($0, json) } ?? json
            case .inlineFragment(let fragment):
                let applies = applies(fragment.conditions)
                guard applies != false, fragment.typeCondition?.matches(mock.__typename) ?? true else { continue }
                try collect(fragment.selections, from: mock, lenient: lenient || applies == nil || fragment.isDeferred, path: path, into: &object)
            case .fragmentSpread(let spread):
                let applies = applies(spread.conditions)
                guard applies != false, spread.typeCondition.matches(mock.__typename) else { continue }
                try collect(spread.selections, from: mock, lenient: lenient || applies == nil || spread.isDeferred, path: path, into: &object)
            }
        }
    }

    private func value(_ value: Any?, type: FieldType, selections: [Selection], path: ResponsePath) throws(MockDataError) -> JSONValue {
        let unwrapped = value.flatMap(Self.unwrap)
        if case .nonNull(let inner) = type {
            guard unwrapped != nil else {
                throw MockDataError(path: path, message: "the mock sets no value for this non-null \(type.graphQLDescription) field")
            }
            return try self.value(unwrapped, type: inner, selections: selections, path: path)
        }
        guard let unwrapped else { return .null }
        switch type {
        case .nonNull:
            return .null  // handled above
        case .list(let element):
            guard let list = unwrapped as? any MockListValue else { throw mismatch(unwrapped, type, path) }
            var elements: [JSONValue] = []
            for (offset, item) in list._mockElements.enumerated() {
                elements.append(try self.value(item, type: element, selections: selections, path: path.appending(offset)))
            }
            return .list(elements)
        case .scalar, .enumeration:
            if let scalar = unwrapped as? any CustomScalarType { return scalar.jsonValue }
            if let writable = unwrapped as? any SelectionSetWritableValue { return writable._selectionSetJSON }
            throw mismatch(unwrapped, type, path)
        case .object:
            guard let mock = unwrapped as? any AnyMock else { throw mismatch(unwrapped, type, path) }
            return .object(try object(from: mock, selections: selections, path: path))
        }
    }

    private func mismatch(_ value: Any, _ type: FieldType, _ path: ResponsePath) -> MockDataError {
        MockDataError(path: path, message: "the mock's \(Swift.type(of: value)) is not a \(type.graphQLDescription)")
    }

    /// The value inside any number of optionals; `nil` for none.
    static func unwrap(_ value: Any) -> Any? {
        guard let optional = value as? any MockOptionalValue else { return value }
        return optional._mockWrapped.flatMap(unwrap)
    }

    /// Two values for one response key (a field selected twice with different subselections):
    /// objects merged key by key, lists item by item.
    static func merge(_ first: JSONValue, _ second: JSONValue) -> JSONValue {
        switch (first, second) {
        case (.object(var merged), .object(let other)):
            for (key, value) in other { merged[key] = merged[key].map { merge($0, value) } ?? value }
            return .object(merged)
        case (.list(let left), .list(let right)) where left.count == right.count:
            return .list(zip(left, right).map { merge($0, $1) })
        default:
            return second
        }
    }
}

/// An optional seen through `Any`, so the builder can look inside.
protocol MockOptionalValue {
    var _mockWrapped: Any? { get }
}

extension Optional: MockOptionalValue {
    var _mockWrapped: Any? { self.map { $0 as Any } }
}

/// A list seen through `Any`.
protocol MockListValue {
    var _mockElements: [Any] { get }
}

extension Array: MockListValue {
    var _mockElements: [Any] { map { $0 as Any } }
}
