import Baton
import BatonAPI

/// An operation a ``MockNetworkTransport`` was asked to send, as it saw it.
public struct MockRequest: Sendable {
    /// The operation, with its variables.
    public let operation: any GraphQLOperation
    /// The files of an upload; empty otherwise.
    public let files: [GraphQLFile]

    /// A request for `operation`, with the files of an upload.
    public init(operation: any GraphQLOperation, files: [GraphQLFile] = []) {
        self.operation = operation
        self.files = files
    }

    /// The operation's name: `HeroAndFriends`.
    public var operationName: String { Swift.type(of: operation).operationName }
    /// Query, mutation or subscription.
    public var operationType: GraphQLOperationType { Swift.type(of: operation).operationType }
    /// The variables as they would be sent.
    public var variables: JSONObject { operation.variablesJSON }

    /// The operation as `type`, when it is one.
    public func operation<Operation: GraphQLOperation>(as type: Operation.Type) -> Operation? {
        operation as? Operation
    }
}

/// A ``MockNetworkTransport`` had nothing to answer an operation with: nothing enqueued for its
/// type and no handler.
public struct MockNetworkTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation's name.
    public let operationName: String

    /// An error for the operation named `operationName`.
    public init(operationName: String) {
        self.operationName = operationName
    }

    public var description: String {
        "MockNetworkTransport has no response for \(operationName): enqueue one for its type or set a handler"
    }
}
