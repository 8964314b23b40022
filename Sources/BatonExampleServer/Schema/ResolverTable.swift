import GraphQL

/// Resolvers keyed by type name and field name, to be wired into a schema built from SDL.
///
/// Fields without an entry use GraphQLSwift's default resolver, which reads the key of a
/// `[String: any Sendable]` or the stored property of a struct with the field's name.
struct ResolverTable: Sendable {
    /// `resolve` functions: type name → field name → resolver.
    private(set) var resolvers: [String: [String: GraphQLFieldResolve]] = [:]
    /// `subscribe` functions (fields of the subscription type): type name → field name → resolver.
    private(set) var subscribers: [String: [String: GraphQLFieldResolve]] = [:]

    init() {}

    /// Sets the resolver of `typeName.fieldName`.
    mutating func resolve(_ typeName: String, _ fieldName: String, with resolver: @escaping GraphQLFieldResolve) {
        resolvers[typeName, default: [:]][fieldName] = resolver
    }

    /// Sets the function that creates the event stream of the subscription field `typeName.fieldName`.
    mutating func subscribe(_ typeName: String, _ fieldName: String, with subscriber: @escaping GraphQLFieldResolve) {
        subscribers[typeName, default: [:]][fieldName] = subscriber
    }

    /// Adds every entry of `other`; entries of `other` win.
    mutating func merge(_ other: ResolverTable) {
        resolvers.merge(other.resolvers) { mine, theirs in mine.merging(theirs) { $1 } }
        subscribers.merge(other.subscribers) { mine, theirs in mine.merging(theirs) { $1 } }
    }

    /// Every (type, field) named in the table.
    var coordinates: [(typeName: String, fieldName: String)] {
        (resolvers.flatMap { type, fields in fields.keys.map { (type, $0) } }
            + subscribers.flatMap { type, fields in fields.keys.map { (type, $0) } })
    }
}
