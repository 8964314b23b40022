import BatonAPI

/// What the store needs to know of an operation or fragment to read, write or watch it: its
/// selections, variables, and the record and type it starts at.
public struct OperationDescriptor: Sendable, Hashable {
    public let name: String
    public let selections: [Selection]
    public let variables: JSONObject
    public let rootID: DataID
    public let rootType: String
    /// The cache-key rule of the schema the selections were generated for (`nil`: the store's
    /// own, or ``CacheKeyConfiguration/default``). Not part of the descriptor's identity.
    public let cacheKeys: CacheKeyConfiguration?
    /// The schema's cache directives (its `@cacheControl` max ages count for freshness, see
    /// ``CacheFreshness``). Not part of the descriptor's identity.
    public let cacheDirectives: CacheDirectives?

    public init(
        name: String, selections: [Selection], variables: JSONObject, rootID: DataID = .rootID, rootType: String,
        cacheKeys: CacheKeyConfiguration? = nil, cacheDirectives: CacheDirectives? = nil
    ) {
        self.name = name
        self.selections = selections
        self.variables = variables
        self.rootID = rootID
        self.rootType = rootType
        self.cacheKeys = cacheKeys
        self.cacheDirectives = cacheDirectives
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.rootID == rhs.rootID && lhs.rootType == rhs.rootType && lhs.variables == rhs.variables
            && lhs.selections == rhs.selections
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(rootID)
        hasher.combine(variables)
    }

    /// The descriptor of an operation: its `Data` read from the root record.
    public init<Operation: GraphQLOperation>(operation: Operation) {
        self.init(
            name: Operation.operationName, selections: Operation.Data.__selections, variables: operation.variablesJSON,
            rootType: Operation.Data.__parentType.name, cacheKeys: Operation.Data.__schema.map(CacheKeyConfiguration.init(schema:)),
            cacheDirectives: Operation.Data.__schema?.cacheDirectives)
    }

    /// The descriptor of a fragment on the record `id`.
    public init<F: GraphQLFragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) {
        self.init(
            name: F.fragmentName, selections: F.__selections, variables: variables, rootID: id,
            rootType: F.__parentType.name, cacheKeys: F.__schema.map(CacheKeyConfiguration.init(schema:)),
            cacheDirectives: F.__schema?.cacheDirectives)
    }

    /// Identifies a query root for retention and fetch times (the key a cache keeps them under):
    /// name, root and variables.
    public var rootKey: String {
        name + "@" + rootID.rawValue + JSONValue.object(variables).serializedString(sortedKeys: true)
    }
}

/// Whether the store can answer an operation: all of its data present and fresh, present but
/// stale (invalidated or expired since it was fetched), or missing.
public enum OperationAvailability: Sendable, Hashable {
    case available
    case stale
    case missing
}

/// One read of an operation and what it means for a cache policy.
public struct CacheLoad: Sendable, Hashable {
    public let availability: OperationAvailability
    public let read: ReadResult
    /// When the data is stale by age (fields past their max age, or an operation fetched
    /// longer ago than the store's `queryCacheExpirationTime`), how long it has been; `nil` when
    /// it is fresh, missing, or stale by invalidation.
    public let expiredFor: Duration?

    /// A load as given.
    public init(availability: OperationAvailability, read: ReadResult, expiredFor: Duration? = nil) {
        self.availability = availability
        self.read = read
        self.expiredFor = expiredFor
    }

    /// Whether the data may answer a reader that accepts data up to `maxStale` past its max age
    /// (HTTP's `max-stale`): available, or stale by age alone and by no more than `maxStale`. A
    /// `maxStale` of zero accepts no stale data, not even data that expired this instant.
    public func isUsable(maxStale: Duration) -> Bool {
        switch availability {
        case .available: return true
        case .missing: return false
        case .stale: return maxStale > .zero && expiredFor.map { $0 <= maxStale } ?? false
        }
    }
}
