import BatonAPI

/// Relay-style connections kept by the store, in relay-runtime's record formats: the parent
/// links `__<key>_connection(filters…)` to the client record
/// `client:<parentID>:__<key>_connection(filters…)`, whose `edges` are client records
/// `<connectionID>:edges:<n>` (n from a counter on the connection, never reused) and whose
/// `pageInfo` is `<connectionID>:pageInfo`. Pages merge by cursor: `after` the stored end cursor
/// appends, `before` the start cursor prepends, no cursor replaces; a node already present is
/// not added twice.
public enum ConnectionHandler {
    static let nextEdgeIndexKey = "__connection_next_edge_index"
    static let paginationArguments: Set<String> = ["first", "last", "after", "before"]

    /// The field key on the parent: `__<key>_connection(filters…)`.
    public static func handleKey(key: String, filters: [String: JSONValue] = [:]) -> String {
        StorageKey.make(fieldName: "__\(key)_connection", arguments: filters)
    }

    /// The connection record's ID for a parent, key and filter values.
    public static func getConnectionID(parentID: DataID, key: String, filters: [String: JSONValue] = [:]) -> DataID {
        ClientID.make(parentID: parentID, storageKey: handleKey(key: key, filters: filters))
    }

    /// The connection record of `record` under `key` and filters, if it exists.
    public static func getConnection(_ record: RecordProxy, key: String, filters: [String: JSONValue] = [:]) -> RecordProxy? {
        record.getLinkedRecord("__\(key)_connection", arguments: filters)
    }

    /// The filter values of a `@connection` field: its `filters` arguments, or all arguments but
    /// the pagination ones when `filters` is not given.
    static func filterValues(field: Field, filters: [String]?, variables: JSONObject) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for (name, argument) in field.arguments {
            if let filters {
                guard filters.contains(name) else { continue }
            } else if paginationArguments.contains(name) {
                continue
            }
            if let value = argument.resolve(with: variables) { values[name] = value }
        }
        return values
    }

    /// Creates an edge for `node` in `connection` (its ID is `client:<connectionID>:<nodeID>`, as
    /// Relay's `createEdge` makes it). Insert it with ``insertEdgeAfter(_:edge:cursor:)`` or
    /// ``insertEdgeBefore(_:edge:cursor:)``. An edge made on the client has no place in the
    /// server's pagination: its cursor is the empty string (Relay writes null, which a schema's
    /// non-null `cursor: String!` could not read back).
    public static func createEdge(
        _ store: RecordSourceProxy, connection: RecordProxy, node: RecordProxy, edgeType: String
    ) -> RecordProxy {
        let id = ClientID.make(parentID: connection.dataID, storageKey: node.dataID.rawValue)
        let edge = store.get(id) ?? store.create(id: id, typename: edgeType)
        edge.setLinkedRecord(node, "node")
        if edge.getValue("cursor") == nil { edge.setValue("", "cursor") }
        return edge
    }

    /// Inserts an edge at the end, or after the edge with `cursor`.
    public static func insertEdgeAfter(_ connection: RecordProxy, edge: RecordProxy, cursor: String? = nil) {
        var edges = connection.getLinkedRecords("edges") ?? []
        var position = edges.count
        if let cursor, let index = edges.firstIndex(where: { $0?.getValue("cursor")?.stringValue == cursor }) {
            position = index + 1
        }
        edges.insert(edge, at: position)
        connection.setLinkedRecords(edges, "edges")
    }

    /// Inserts an edge at the start, or before the edge with `cursor`.
    public static func insertEdgeBefore(_ connection: RecordProxy, edge: RecordProxy, cursor: String? = nil) {
        var edges = connection.getLinkedRecords("edges") ?? []
        var position = 0
        if let cursor, let index = edges.firstIndex(where: { $0?.getValue("cursor")?.stringValue == cursor }) {
            position = index
        }
        edges.insert(edge, at: position)
        connection.setLinkedRecords(edges, "edges")
    }

    /// Removes every edge whose node is `nodeID`.
    public static func deleteNode(_ connection: RecordProxy, nodeID: DataID) {
        guard let edges = connection.getLinkedRecords("edges") else { return }
        let kept = edges.filter { $0?.getLinkedRecord("node")?.dataID != nodeID }
        if kept.count != edges.count { connection.setLinkedRecords(kept, "edges") }
    }

    /// Whether the connection already has an edge for `nodeID`.
    static func contains(_ connection: RecordProxy, nodeID: DataID) -> Bool {
        connection.getLinkedRecords("edges")?.contains { $0?.getLinkedRecord("node")?.dataID == nodeID } ?? false
    }

    /// Copies a server edge into a new client edge of the connection, `<connectionID>:edges:<n>`.
    static func buildConnectionEdge(_ store: RecordSourceProxy, connection: RecordProxy, serverEdge: RecordProxy) -> RecordProxy {
        let index = connection.getValue(nextEdgeIndexKey)?.intValue ?? 0
        let id = ClientID.make(parentID: connection.dataID, storageKey: "edges", index: index)
        let edge = store.create(id: id, typename: serverEdge.typename ?? "Edge")
        edge.copyFields(from: serverEdge)
        connection.setValue(.int(index + 1), nextEdgeIndexKey)
        return edge
    }

    /// Merges the server's page of a `@connection` field into the client connection record.
    static func update(_ store: RecordSourceProxy, invocation: HandleInvocation, key: String, filters: [String]?, variables: JSONObject) {
        guard let parent = store.get(invocation.parentID),
            let serverConnection = parent.getLinkedRecord(fieldStorageKey: invocation.storageKey)
        else { return }
        let filterValues = filterValues(field: invocation.field, filters: filters, variables: variables)
        let handle = handleKey(key: key, filters: filterValues)
        let connectionID = ClientID.make(parentID: parent.dataID, storageKey: handle)
        let serverEdges = serverConnection.getLinkedRecords("edges") ?? []
        let serverPageInfo = serverConnection.getLinkedRecord("pageInfo")
        let arguments = invocation.field.arguments.mapValues { $0.resolve(with: variables) ?? .null }
        let after = arguments["after"]?.stringValue
        let before = arguments["before"]?.stringValue

        guard let connection = store.get(connectionID) else {
            // First page: a copy of the server connection with client edges and page info.
            let connection = store.create(id: connectionID, typename: serverConnection.typename ?? "Connection")
            connection.copyFields(from: serverConnection)
            let edges = serverEdges.map { edge in edge.map { buildConnectionEdge(store, connection: connection, serverEdge: $0) } }
            connection.setLinkedRecords(edges, "edges")
            let pageInfo = store.create(id: ClientID.make(parentID: connectionID, storageKey: "pageInfo"), typename: serverPageInfo?.typename ?? "PageInfo")
            if let serverPageInfo { pageInfo.copyFields(from: serverPageInfo) }
            connection.setLinkedRecord(pageInfo, "pageInfo")
            parent.setLinkedRecord(connection, handle)
            return
        }
        parent.setLinkedRecord(connection, handle)
        let pageInfo = connection.getLinkedRecord("pageInfo")
            ?? store.create(id: ClientID.make(parentID: connectionID, storageKey: "pageInfo"), typename: serverPageInfo?.typename ?? "PageInfo")
        connection.setLinkedRecord(pageInfo, "pageInfo")
        // Fields of the connection other than edges and page info follow the server.
        if let serverFields = store.record(serverConnection.dataID)?.fields {
            for (fieldKey, value) in serverFields where fieldKey != "edges" && fieldKey != "pageInfo" {
                store.write(connectionID, key: fieldKey, value: value)
            }
        }
        let previous = connection.getLinkedRecords("edges") ?? []
        var next: [RecordProxy?]
        if let after {
            guard pageInfo.getValue("endCursor")?.stringValue == after else { return }  // an out-of-date page
            next = previous
            appendNew(serverEdges, to: &next, store: store, connection: connection)
            if let serverPageInfo {
                pageInfo.setValue(serverPageInfo.getValue("endCursor") ?? .null, "endCursor")
                pageInfo.setValue(serverPageInfo.getValue("hasNextPage") ?? false, "hasNextPage")
            }
        } else if let before {
            guard pageInfo.getValue("startCursor")?.stringValue == before else { return }
            var page: [RecordProxy?] = []
            appendNew(serverEdges, to: &page, store: store, connection: connection, excluding: nodeIDs(previous))
            next = page + previous
            if let serverPageInfo {
                pageInfo.setValue(serverPageInfo.getValue("startCursor") ?? .null, "startCursor")
                pageInfo.setValue(serverPageInfo.getValue("hasPreviousPage") ?? false, "hasPreviousPage")
            }
        } else {
            // A refetch from the start replaces the edges.
            next = []
            appendNew(serverEdges, to: &next, store: store, connection: connection)
            if let serverPageInfo { pageInfo.copyFields(from: serverPageInfo) }
        }
        connection.setLinkedRecords(next, "edges")
    }

    private static func nodeIDs(_ edges: [RecordProxy?]) -> Set<DataID> {
        Set(edges.compactMap { $0?.getLinkedRecord("node")?.dataID })
    }

    private static func appendNew(
        _ serverEdges: [RecordProxy?], to edges: inout [RecordProxy?], store: RecordSourceProxy, connection: RecordProxy,
        excluding: Set<DataID> = []
    ) {
        var seen = nodeIDs(edges).union(excluding)
        for serverEdge in serverEdges {
            guard let serverEdge else { continue }
            if let node = serverEdge.getLinkedRecord("node")?.dataID {
                guard !seen.contains(node) else { continue }
                seen.insert(node)
            }
            edges.append(buildConnectionEdge(store, connection: connection, serverEdge: serverEdge))
        }
    }
}

extension RecordProxy {
    /// The record linked under an exact storage key.
    func getLinkedRecord(fieldStorageKey key: String) -> RecordProxy? {
        guard let id = source.record(dataID)?.fields[key]?.linkedID else { return nil }
        return source.get(id)
    }
}
