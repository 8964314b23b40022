import GraphQL

/// What a resolver of the example schema gets: the parent value, the arguments, the request's
/// context and GraphQL's resolve info.
struct FieldCall: Sendable {
    let source: any Sendable
    let args: Map
    let context: ResolverContext
    let info: GraphQLResolveInfo

    /// The parent value as `T`.
    func source<T>(as _: T.Type) throws -> T {
        guard let value = source as? T else {
            throw ResolverError("\(info.parentType.name).\(info.fieldName) got an unexpected parent value.")
        }
        return value
    }

    /// The argument `name`; nil when absent or null.
    func argument(_ name: String) -> Map? {
        guard let value = args.dictionary?[name], !value.isNull, !value.isUndefined else { return nil }
        return value
    }

    func string(_ name: String) -> String? { argument(name)?.string }
    func int(_ name: String) -> Int? { argument(name)?.int }
    func bool(_ name: String) -> Bool? { argument(name)?.bool }

    /// The required argument `name`.
    func required<T>(_ name: String, _ read: (Map) -> T?) throws -> T {
        guard let raw = argument(name), let value = read(raw) else {
            throw ResolverError("The argument \(name) of \(info.parentType.name).\(info.fieldName) is missing or invalid.")
        }
        return value
    }

    /// The fields of the required input object argument `name`.
    func input(_ name: String) throws -> InputFields {
        InputFields(fields: try required(name) { $0.dictionary.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0.value) }) } })
    }
}

/// The fields of an input object argument.
struct InputFields: Sendable {
    let fields: [String: Map]

    func string(_ name: String) -> String? { value(name)?.string }
    func int(_ name: String) -> Int? { value(name)?.int }
    func bool(_ name: String) -> Bool? { value(name)?.bool }

    func requiredString(_ name: String) throws -> String {
        guard let value = string(name) else { throw ResolverError("The input field \(name) is missing.") }
        return value
    }

    func requiredInt(_ name: String) throws -> Int {
        guard let value = int(name) else { throw ResolverError("The input field \(name) is missing.") }
        return value
    }

    func requiredBool(_ name: String) throws -> Bool {
        guard let value = bool(name) else { throw ResolverError("The input field \(name) is missing.") }
        return value
    }

    private func value(_ name: String) -> Map? {
        guard let value = fields[name], !value.isNull, !value.isUndefined else { return nil }
        return value
    }
}

extension ResolverTable {
    /// Sets the resolver of `typeName.fieldName` to `body`, which gets the request's `ResolverContext`.
    mutating func field(
        _ typeName: String,
        _ fieldName: String,
        _ body: @escaping @Sendable (FieldCall) async throws -> (any Sendable)?
    ) {
        resolve(typeName, fieldName) { source, args, context, info in
            try await body(FieldCall(source: source, args: args, context: try resolverContext(context), info: info))
        }
    }

    /// Sets the event stream of the subscription field `typeName.fieldName` to the one `body` makes.
    mutating func events(
        _ typeName: String,
        _ fieldName: String,
        _ body: @escaping @Sendable (FieldCall) async throws -> AsyncThrowingStream<any Sendable, any Error>
    ) {
        subscribe(typeName, fieldName) { source, args, context, info in
            try await body(FieldCall(source: source, args: args, context: try resolverContext(context), info: info))
        }
    }
}

private func resolverContext(_ context: any Sendable) throws -> ResolverContext {
    guard let context = context as? ResolverContext else {
        throw ResolverError("The example schema runs with a ResolverContext.")
    }
    return context
}
