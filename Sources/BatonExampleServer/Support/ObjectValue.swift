import GraphQL

/// A value of a GraphQL object type that knows which type it is, so interfaces and unions can
/// resolve it. Its stored properties named like fields are read by the default resolver.
protocol ObjectValue: Sendable {
    /// The GraphQL object type's name.
    static var typename: String { get }
}

/// The GraphQL object type a resolved value carries: an `ObjectValue`'s type name, or the
/// `"__typename"` key of a dictionary. Nil when the value does not say.
@Sendable func typename(of value: any Sendable) -> String? {
    if let object = value as? any ObjectValue {
        return type(of: object).typename
    }
    if let dictionary = value as? [String: any Sendable] {
        return dictionary["__typename"] as? String
    }
    return nil
}

/// An error a resolver reports; GraphQL adds the field's path and location to it.
///
/// Resolvers must not throw `GraphQLError` themselves: GraphQLSwift passes those through without
/// a path or location.
struct ResolverError: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        description = message
    }
}
