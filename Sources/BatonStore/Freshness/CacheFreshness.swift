import BatonAPI

/// How long cached data stays fresh, per type and field (Apollo Kotlin's max-age providers,
/// HTTP's `Cache-Control`): what the store measures each read against.
///
/// A field's max age is, first match wins: ``maxAgeByField`` for its parent type and name; the
/// schema's `@cacheControl(maxAge:)` on the field (or `@cacheControlField(name:, maxAge:)` on
/// its type), or its `inheritMaxAge: true` (the max age of the field that led to its object);
/// for a field returning an object, ``maxAgeByType`` of that type, then the schema's
/// `@cacheControl(maxAge:)` on the type or its `inheritMaxAge: true`; for a scalar field, the
/// max age of the field that led to its object (at the root, ``defaultMaxAge``); else
/// ``defaultMaxAge``. These are Apollo Server's and Apollo Kotlin's rules. A response
/// whose HTTP head says `Cache-Control: max-age=N` makes its fields expire N seconds after
/// they were received, whatever their max age says (the sooner wins).
///
/// A field read after its max age makes the read *stale*: cache policies fetch it again, and
/// results say so. A field that has a max age but was never received from a server (written by
/// hand, or before ages were recorded) is stale: its age is unknown.
public struct CacheFreshness: Sendable, Hashable {
    /// The max age of a field nothing else gives one (`nil`: such fields never go stale).
    public var defaultMaxAge: Duration?
    /// Max ages of fields returning objects of a type, by type name (the client's
    /// `@cacheControl(maxAge:)` on a type).
    public var maxAgeByType: [String: Duration]
    /// Max ages by parent type and field name: `["User": ["email": .seconds(2)]]`.
    public var maxAgeByField: [String: [String: Duration]]
    /// Whether the schema's `@cacheControl` and `@cacheControlField` directives (in the
    /// generated `SchemaMetadata.cacheDirectives`) count. The client's configuration comes first.
    public var usesSchemaDirectives: Bool
    /// How long past its max age data may still answer a cache policy as a hit, flagged stale
    /// (HTTP's `max-stale`): `.zero` (the default) treats any stale data as a miss for
    /// `.returnCacheDataElseFetch`. A client call may give its own.
    public var maxStale: Duration

    /// A configuration; by default nothing expires but what the schema or a response's
    /// `Cache-Control` head says.
    public init(
        defaultMaxAge: Duration? = nil, maxAgeByType: [String: Duration] = [:], maxAgeByField: [String: [String: Duration]] = [:],
        usesSchemaDirectives: Bool = true, maxStale: Duration = .zero
    ) {
        self.defaultMaxAge = defaultMaxAge
        self.maxAgeByType = maxAgeByType
        self.maxAgeByField = maxAgeByField
        self.usesSchemaDirectives = usesSchemaDirectives
        self.maxStale = maxStale
    }

    /// The schema's directives and responses' `Cache-Control` heads only.
    public static let `default` = CacheFreshness()

    /// Whether the client's configuration gives any max age (then every server response's
    /// fields are dated).
    var configuresMaxAges: Bool { defaultMaxAge != nil || !maxAgeByType.isEmpty || !maxAgeByField.isEmpty }

    /// The max ages that apply to a read or write of an operation generated for a schema with
    /// `directives` (`nil`: nothing gives a max age).
    func rules(for directives: CacheDirectives?) -> MaxAgeRules? {
        let schema = usesSchemaDirectives ? directives.flatMap { $0.statesMaxAges ? $0 : nil } : nil
        guard configuresMaxAges || schema != nil else { return nil }
        return MaxAgeRules(freshness: self, schema: schema)
    }
}

/// The max age of each field of one read: the client's configuration over the schema's
/// directives, in seconds.
final class MaxAgeRules {
    private let freshness: CacheFreshness
    private let schema: CacheDirectives?
    let defaultMaxAge: Double?
    /// Explicit max ages found so far, by parent type and field name.
    private var explicit: [String: [String: ExplicitMaxAge]] = [:]

    /// What a field's own configuration or directive says.
    private enum ExplicitMaxAge {
        case none
        case seconds(Double)
        case inherited
    }

    init(freshness: CacheFreshness, schema: CacheDirectives?) {
        self.freshness = freshness
        self.schema = schema
        defaultMaxAge = freshness.defaultMaxAge.map(\.seconds)
    }

    /// The max age of `field` on `parentType`: for an object-valued field (`returnType` given),
    /// its own or its type's or the default; for a scalar, its own or `inherited` (the max age
    /// of the field that led here); `inheritMaxAge` makes a field or type take `inherited` too.
    func maxAge(of field: String, on parentType: String, returning returnType: String?, inherited: Double?) -> Double? {
        switch explicitMaxAge(of: field, on: parentType) {
        case .seconds(let age): return age
        case .inherited: return inherited
        case .none: break
        }
        guard let returnType else { return inherited }
        if let age = freshness.maxAgeByType[returnType] { return age.seconds }
        if let age = schema?.typeMaxAge[returnType] { return Double(age) }
        if schema?.inheritMaxAgeTypes.contains(returnType) == true { return inherited }
        return defaultMaxAge
    }

    private func explicitMaxAge(of field: String, on parentType: String) -> ExplicitMaxAge {
        if let known = explicit[parentType]?[field] { return known }
        let found: ExplicitMaxAge
        if let age = freshness.maxAgeByField[parentType]?[field] {
            found = .seconds(age.seconds)
        } else if let age = schema?.fieldMaxAge[parentType]?[field] {
            found = .seconds(Double(age))
        } else if schema?.inheritMaxAgeFields[parentType]?.contains(field) == true {
            found = .inherited
        } else {
            found = .none
        }
        explicit[parentType, default: [:]][field] = found
        return found
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
