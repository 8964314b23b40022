import BatonAPI

/// What the store needs to know of an operation or fragment to read, write or watch it: its
/// selections, variables, and the record and type it starts at.
public struct OperationDescriptor: Sendable, Hashable {
    public let name: String
    public let selections: [Selection]
    public let variables: JSONObject
    public let rootID: DataID
    public let rootType: String

    public init(name: String, selections: [Selection], variables: JSONObject, rootID: DataID = .rootID, rootType: String) {
        self.name = name
        self.selections = selections
        self.variables = variables
        self.rootID = rootID
        self.rootType = rootType
    }

    /// The descriptor of an operation: its `Data` read from the root record.
    public init<Operation: GraphQLOperation>(operation: Operation) {
        self.init(
            name: Operation.operationName, selections: Operation.Data.__selections, variables: operation.variablesJSON,
            rootType: Operation.Data.__parentType.name)
    }

    /// The descriptor of a fragment on the record `id`.
    public init<F: Fragment>(fragment: F.Type, id: DataID, variables: JSONObject = [:]) {
        self.init(
            name: F.fragmentName, selections: F.__selections, variables: variables, rootID: id,
            rootType: F.__parentType.name)
    }

    /// Identifies a query root for retention and fetch times: name, root and variables.
    var rootKey: String {
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
