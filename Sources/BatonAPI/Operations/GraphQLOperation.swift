/// The kind of a GraphQL operation.
public enum GraphQLOperationType: String, Sendable, Hashable {
    case query
    case mutation
    case subscription
}

/// A generated GraphQL operation: its document, its typed variables and the type of its data.
public protocol GraphQLOperation: Sendable {
    associatedtype Data: RootSelectionSet

    static var operationType: GraphQLOperationType { get }
    /// The operation's name in the document.
    static var operationName: String { get }
    /// The minimal document: this operation and the fragments it uses.
    static var operationDocument: String { get }
    /// SHA-256 of `operationDocument`, lowercase hex: the id for persisted queries.
    static var operationIdentifier: String { get }
    /// The variables from the operation's typed properties; absent ones are left out when sent.
    var variables: GraphQLVariables? { get }
}

extension GraphQLOperation {
    /// No variables, for operations that declare none.
    public var variables: GraphQLVariables? { nil }

    /// The variables as sent on the wire, absent ones left out.
    public var variablesJSON: JSONObject { variables?.jsonObject ?? JSONObject() }
}

/// A generated query.
public protocol GraphQLQuery: GraphQLOperation {}

extension GraphQLQuery {
    /// Queries are `.query`.
    public static var operationType: GraphQLOperationType { .query }
}

/// A generated mutation.
public protocol GraphQLMutation: GraphQLOperation {}

extension GraphQLMutation {
    /// Mutations are `.mutation`.
    public static var operationType: GraphQLOperationType { .mutation }
}

/// A generated mutation that declares no variables: it can be made with `init()`, so a
/// mutator commits it with `commit()`.
public protocol GraphQLMutationWithoutVariables: GraphQLMutation {
    init()
}

/// A generated subscription.
public protocol GraphQLSubscription: GraphQLOperation {}

extension GraphQLSubscription {
    /// Subscriptions are `.subscription`.
    public static var operationType: GraphQLOperationType { .subscription }
}
