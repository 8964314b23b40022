/// Marks a GraphQL document written inside Swift code for `baton generate`, which collects these
/// literals like `.graphql` files and generates their types. Returns the text unchanged.
///
/// ```swift
/// let heroQuery = graphql("""
///     query HeroName { hero { name } }
///     """)
/// ```
@discardableResult
public func graphql(_ document: String) -> String { document }
