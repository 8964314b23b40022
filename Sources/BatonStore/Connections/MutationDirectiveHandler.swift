import BatonAPI
import Logging

/// Runs the declarative mutation directives of a payload field (Relay's `@appendNode`,
/// `@prependNode`, `@appendEdge`, `@prependEdge`, `@deleteEdge`, `@deleteRecord`) and
/// `@connection` page merging. A missing connection or a null edge is skipped with a log line.
enum DirectiveHandler {
    static var logger: Logger { storeLogger }

    static func run(_ store: RecordSourceProxy, _ invocation: HandleInvocation, variables: JSONObject) {
        switch invocation.directive {
        case .connection(let key, let filters):
            ConnectionHandler.update(store, invocation: invocation, key: key, filters: filters, variables: variables)
        case .deleteRecord:
            for id in ids(in: invocation.value) { store.delete(id) }
        case .deleteEdge(let connections):
            for connection in self.connections(connections, store: store, variables: variables, field: invocation.field) {
                for id in ids(in: invocation.value) { ConnectionHandler.deleteNode(connection, nodeID: id) }
            }
        case .appendEdge(let connections), .prependEdge(let connections):
            let append = if case .appendEdge = invocation.directive { true } else { false }
            let targets = self.connections(connections, store: store, variables: variables, field: invocation.field)
            for edge in linkedRecords(store, invocation) {
                guard let edge else {
                    logger.info("@\(append ? "appendEdge" : "prependEdge") on \(invocation.field.responseKey): null edge skipped")
                    continue
                }
                for connection in targets {
                    if let node = edge.getLinkedRecord("node"), ConnectionHandler.contains(connection, nodeID: node.dataID) { continue }
                    let clientEdge = ConnectionHandler.buildConnectionEdge(store, connection: connection, serverEdge: edge)
                    if append {
                        ConnectionHandler.insertEdgeAfter(connection, edge: clientEdge)
                    } else {
                        ConnectionHandler.insertEdgeBefore(connection, edge: clientEdge)
                    }
                }
            }
        case .appendNode(let connections, let edgeTypeName), .prependNode(let connections, let edgeTypeName):
            let append = if case .appendNode = invocation.directive { true } else { false }
            let targets = self.connections(connections, store: store, variables: variables, field: invocation.field)
            for node in linkedRecords(store, invocation) {
                guard let node else {
                    logger.info("@\(append ? "appendNode" : "prependNode") on \(invocation.field.responseKey): null node skipped")
                    continue
                }
                for connection in targets where !ConnectionHandler.contains(connection, nodeID: node.dataID) {
                    let edge = ConnectionHandler.createEdge(store, connection: connection, node: node, edgeType: edgeTypeName)
                    if append {
                        ConnectionHandler.insertEdgeAfter(connection, edge: edge)
                    } else {
                        ConnectionHandler.insertEdgeBefore(connection, edge: edge)
                    }
                }
            }
        }
    }

    /// The connection records named by a directive's `connections` argument; missing ones are
    /// skipped with a log line.
    private static func connections(_ argument: InputValue, store: RecordSourceProxy, variables: JSONObject, field: Field) -> [RecordProxy] {
        let value = argument.resolve(with: variables) ?? .null
        let names: [String]
        switch value {
        case .string(let one): names = [one]
        case .list(let many): names = many.compactMap(\.stringValue)
        default: names = []
        }
        return names.compactMap { name in
            guard let connection = store.get(DataID(name)) else {
                logger.info("\(field.responseKey): connection \(name) is not in the store; skipped")
                return nil
            }
            return connection
        }
    }

    /// IDs in a field's value: a string, a number, or a list of them.
    private static func ids(in value: JSONValue) -> [DataID] {
        switch value {
        case .string(let id): return [DataID(id)]
        case .int(let id): return [DataID(String(id))]
        case .list(let items): return items.flatMap(ids(in:))
        default: return []
        }
    }

    /// The records a field links to on its parent, one or a list.
    private static func linkedRecords(_ store: RecordSourceProxy, _ invocation: HandleInvocation) -> [RecordProxy?] {
        guard let stored = store.record(invocation.parentID)?.fields[invocation.storageKey] else { return [] }
        switch stored {
        case .link(let id): return [store.get(id)]
        case .list(let items): return items.map { $0.linkedID.flatMap { store.get($0) } }
        case .scalar, .fieldErrors, .embedded: return [nil]
        }
    }
}
