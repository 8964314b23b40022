import BatonAPI

/// What a cache read that accepts partial data found: everything the selections ask for, some
/// of it (with the paths of what is missing), or nothing. Apollo Kotlin's
/// `returnPartialResponses` and relay-runtime's `isMissingData` in one value: partial data is
/// never filled in silently, and typed data is made only when it is complete.
public enum CacheRead<Data: SelectionSet>: Sendable {
    /// All of it. `fieldErrors` are the response errors the store kept for fields in it (those
    /// fields read as `nil`, or as failures under `@catch(to: RESULT)`).
    case complete(Data, fieldErrors: [GraphQLError])
    /// Some of it: what the store has, and where it is incomplete.
    case partial(PartialData)
    /// None of it: the store holds nothing the selections ask for.
    case missing
    /// All of it, but its read fails: `@required(action: THROW)` or `@throwOnFieldError` met a
    /// field error or a null (the error names the path and holds the field errors), a
    /// `@required` null reached the root, or a `@catch` on the root caught a field error. Not a
    /// miss: fetching again gives the same answer until the server's data changes.
    case failed(SelectionSetDecodingError)

    /// The typed data, when the read is complete.
    public var data: Data? {
        if case .complete(let data, _) = self { return data }
        return nil
    }

    /// The failure of a complete read (see ``failed(_:)``).
    public var error: SelectionSetDecodingError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// The paths of what is missing: empty for a complete or failed read, `[(root)]` for a
    /// missing one.
    public var missingPaths: [ResponsePath] {
        switch self {
        case .complete, .failed: return []
        case .partial(let partial): return partial.missingPaths
        case .missing: return [ResponsePath()]
        }
    }
}

/// The part of an operation's or fragment's data the store has, untyped (the generated types
/// cannot hold data with required fields missing), with where it is incomplete.
public struct PartialData: Sendable, Hashable {
    /// The response-shaped data the store has: a missing field is absent from its object, a
    /// missing list item is `null` (its path is in ``missingPaths``); field errors kept in the
    /// store are at their fields as `{"__fieldErrors": […]}` markers.
    public let jsonObject: JSONObject
    /// Where the data lacks what the selections ask for, in reading order.
    public let missingPaths: [ResponsePath]
    /// The response errors the store kept for fields in the data.
    public let fieldErrors: [GraphQLError]

    /// Partial data; the store makes these.
    public init(jsonObject: JSONObject, missingPaths: [ResponsePath], fieldErrors: [GraphQLError]) {
        self.jsonObject = jsonObject
        self.missingPaths = missingPaths
        self.fieldErrors = fieldErrors
    }
}

extension Store {
    /// Reads a query from the store, accepting partial data: ``CacheRead/complete(_:fieldErrors:)``
    /// with typed data when everything is there, ``CacheRead/partial(_:)`` with what is there and
    /// the paths of what is not, or ``CacheRead/missing``; ``CacheRead/failed(_:)`` when all is
    /// there but the field-error directives fail its read. Compare ``read(query:)``, which
    /// throws ``CacheMissError`` unless the read is complete.
    public func readAllowingPartialData<Query: GraphQLQuery>(query: Query) -> CacheRead<Query.Data> {
        cacheRead(Query.Data.self, OperationDescriptor(operation: query), variables: query.variablesJSON)
    }

    /// Reads a fragment from the record `id`, accepting partial data (as
    /// ``readAllowingPartialData(query:)``).
    public func readAllowingPartialData<F: GraphQLFragment>(
        fragment: F.Type, id: DataID, variables: JSONObject = [:]
    ) -> CacheRead<F> {
        cacheRead(F.self, OperationDescriptor(fragment: fragment, id: id, variables: variables), variables: variables)
    }

    /// The partial-data read of `descriptor` as `T`.
    public func cacheRead<T: SelectionSet>(_ type: T.Type, _ descriptor: OperationDescriptor, variables: JSONObject) -> CacheRead<T> {
        let read = read(descriptor, collectsMissingPaths: true)
        guard let object = read.data else { return .missing }
        if !read.isMissing {
            // Complete, and of the selections' shape (records edited into another shape are not
            // usable: they count as missing at the root).
            switch Self.typedRead(T.self, object, variables: variables) {
            case .success(let data)?: return .complete(data, fieldErrors: read.fieldErrors)
            case .failure(let error)?: return .failed(error)
            case nil: return .partial(PartialData(jsonObject: object, missingPaths: [ResponsePath()], fieldErrors: read.fieldErrors))
            }
        }
        if object.isEmpty { return .missing }
        return .partial(PartialData(jsonObject: object, missingPaths: read.missingPaths, fieldErrors: read.fieldErrors))
    }
}
