/// How a fragment's refetch query reaches the fragment's object.
public enum RefetchRoot: String, Sendable, Hashable {
    /// The fragment is on the query type: the query spreads it at its root.
    case query
    /// The fragment is on the type of `Query.viewer`: the query selects `viewer { … }`.
    case viewer
    /// The fragment is on a type with an id: the query selects `node(id: $id) { … }`.
    case node
}

/// A fragment with Relay's `@refetchable(queryName:)`: codegen wrote a query that fetches the
/// fragment's object again with new values for the fragment's variables.
public protocol GraphQLRefetchableFragment: GraphQLFragment {
    associatedtype RefetchQuery: GraphQLQuery
    /// The fragment's variables, typed: what `refetch` takes (codegen writes the struct).
    associatedtype Variables: FragmentVariables
    /// Where the refetch query finds the fragment's object.
    static var refetchRoot: RefetchRoot { get }
    /// Literal defaults of the fragment's own variables (`@argumentDefinitions`).
    static var argumentDefaults: JSONObject { get }
}

/// The variables a connection field pages with: `first`/`after` or `last`/`before`.
public struct PaginationVariables: Sendable, Hashable {
    /// The variable holding the page size (`first` or `last`, or the fragment's own name for it).
    public let count: String
    /// The variable holding the cursor (`after` or `before`, or the fragment's own name for it).
    public let cursor: String

    /// The variables named `count` and `cursor`.
    public init(count: String, cursor: String) {
        self.count = count
        self.cursor = cursor
    }
}

/// Where a paginated fragment's `@connection` is and which variables page it.
public struct ConnectionPagination: Sendable, Hashable {
    /// Response keys from the fragment's object to the connection field.
    public let path: [String]
    /// The variables that page forward (`first`/`after`); `nil` when the connection cannot.
    public let forward: PaginationVariables?
    /// The variables that page backward (`last`/`before`); `nil` when the connection cannot.
    public let backward: PaginationVariables?

    /// Where the connection is and how it pages; generated code makes these.
    public init(path: [String], forward: PaginationVariables?, backward: PaginationVariables?) {
        self.path = path
        self.forward = forward
        self.backward = backward
    }
}

/// A `@refetchable` fragment holding a `@connection`: it can load more pages.
public protocol PaginatedFragment: GraphQLRefetchableFragment {
    static var connection: ConnectionPagination { get }
}
