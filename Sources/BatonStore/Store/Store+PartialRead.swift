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

    /// The typed data, when the read is complete.
    public var data: Data? {
        if case .complete(let data, _) = self { return data }
        return nil
    }

    /// The paths of what is missing: empty for a complete read, `[(root)]` for a missing one.
    public var missingPaths: [ResponsePath] {
        switch self {
        case .complete: return []
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
    /// the paths of what is not, or ``CacheRead/missing``. Compare ``read(query:)``, which throws
    /// ``CacheMissError`` unless the read is complete.
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
            if let data = try? T(jsonObject: object, variables: variables) { return .complete(data, fieldErrors: read.fieldErrors) }
            return .partial(PartialData(jsonObject: object, missingPaths: [ResponsePath()], fieldErrors: read.fieldErrors))
        }
        if object.isEmpty { return .missing }
        return .partial(PartialData(jsonObject: object, missingPaths: read.missingPaths, fieldErrors: read.fieldErrors))
    }
}
