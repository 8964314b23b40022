import BatonAPI

/// Relay-style connections kept by the store, in relay-runtime's record formats: the parent
/// links `__<key>_connection(filters…)` to the client record
/// `client:<parentID>:__<key>_connection(filters…)`, whose `edges` are client records
/// `<connectionID>:edges:<n>` (n from a counter on the connection, never reused) and whose
/// `pageInfo` is `<connectionID>:pageInfo`. Pages merge by cursor: `after` the stored end cursor
/// appends, `before` the start cursor prepends, no cursor replaces; a node already present is
/// not added twice.
public enum ConnectionHandler: Sendable {
    /// The handler the store uses, as Relay.swift names it: `ConnectionHandler.default.getConnectionID(…)`
    /// gives the connection's record ID as the `String` a generated `connections: [String]`
    /// variable takes (the static `getConnectionID(parentID:key:filters:)` gives a `DataID`).
    case `default`

    static let nextEdgeIndexKey = "__connection_next_edge_index"
    static var paginationArguments: Set<String> { FieldKeys.paginationArguments }

    /// The field key on the parent: `__<key>_connection(filters…)`.
    public static func handleKey(key: String, filters: [String: JSONValue] = [:]) -> String {
        FieldKeys.connectionKey(key: key, filters: filters)
    }

    /// The connection record's ID for a parent, key and filter values.
    public static func getConnectionID(parentID: DataID, key: String, filters: [String: JSONValue] = [:]) -> DataID {
        ClientID.make(parentID: parentID, storageKey: handleKey(key: key, filters: filters))
    }

    /// The connection record's ID for a parent, key and filter values, as the `String` a
    /// generated `connections` variable (`[ID!]!`) takes.
    ///
    /// ```swift
    /// let connections = [ConnectionHandler.default.getConnectionID(parentID: DataID("1"), key: "ToDoList_todos")]
    /// ```
    public func getConnectionID(parentID: DataID, key: String, filters: [String: JSONValue] = [:]) -> String {
        Self.getConnectionID(parentID: parentID, key: key, filters: filters).rawValue
    }

    /// The connection record of `record` under `key` and filters, if it exists.
    public static func getConnection(_ record: RecordProxy, key: String, filters: [String: JSONValue] = [:]) -> RecordProxy? {
        record.getLinkedRecord("__\(key)_connection", arguments: filters)
    }

    /// The filter values of a `@connection` field: its `filters` arguments, or all arguments but
    /// the pagination ones when `filters` is not given.
    static func filterValues(field: Field, filters: [String]?, variables: JSONObject) -> [String: JSONValue] {
        FieldKeys.connectionFilterValues(field: field, filters: filters, variables: variables)
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

    /// Copies a server edge into a new client edge of the connection, `<connectionID>:edges:<n>`,
    /// taking the connection's next index (a null edge stays null and takes none).
    static func buildConnectionEdge(_ store: RecordSourceProxy, connection: RecordProxy, serverEdge: RecordProxy) -> RecordProxy {
        let index = connection.getValue(nextEdgeIndexKey)?.intValue ?? 0
        let id = ClientID.make(parentID: connection.dataID, storageKey: "edges", index: index)
        let edge = store.create(id: id, typename: serverEdge.typename ?? "Edge")
        edge.copyFields(from: serverEdge)
        if edge.getValue("cursor") == nil { edge.setValue(.null, "cursor") }
        connection.setValue(.int(index + 1), nextEdgeIndexKey)
        return edge
    }

    /// Merges the server's page of a `@connection` field into the client connection record, as
    /// relay-runtime's `ConnectionHandler.update` does, so its record IDs and fixtures carry
    /// over: every server edge becomes a client edge with the next index (duplicates included),
    /// then `after` the stored end cursor appends and `before` the start cursor prepends, keeping
    /// the first edge of each node; no cursor replaces the edges and the page info. A first page
    /// without `pageInfo` gets defaults (`false` flags, null cursors); a later page's null cursor
    /// never overwrites the stored one. A page for a cursor other than the stored one is ignored.
    static func update(_ store: RecordSourceProxy, invocation: HandleInvocation, key: String, filters: [String]?, variables: JSONObject) {
        guard let parent = store.get(invocation.parentID) else { return }
        let filterValues = filterValues(field: invocation.field, filters: filters, variables: variables)
        let handle = handleKey(key: key, filters: filterValues)
        guard let serverConnection = parent.getLinkedRecord(fieldStorageKey: invocation.storageKey) else {
            parent.setValue(.null, handle)
            return
        }
        let connectionID = ClientID.make(parentID: parent.dataID, storageKey: handle)
        let serverPageInfo = serverConnection.getLinkedRecord("pageInfo")
        // A pagination argument that is absent or null is not given (JSONValue's own `nil` is `.null`).
        func argument(_ name: String) -> JSONValue? {
            guard let value = invocation.field.arguments[name]?.resolve(with: variables), !value.isNull else { return nil }
            return value
        }
        let after = argument("after")
        let before = argument("before")
        let first = argument("first")
        let last = argument("last")

        let clientConnectionField = parent.getLinkedRecord(handle)
        guard let connection = clientConnectionField ?? store.get(connectionID) else {
            // First page: a copy of the server connection with client edges and page info.
            let connection = store.create(id: connectionID, typename: serverConnection.typename ?? "Connection")
            connection.setValue(.int(0), nextEdgeIndexKey)
            connection.copyFields(from: serverConnection)
            if let serverEdges = serverConnection.getLinkedRecords("edges") {
                let edges = serverEdges.map { edge in edge.map { buildConnectionEdge(store, connection: connection, serverEdge: $0) } }
                connection.setLinkedRecords(edges, "edges")
            }
            parent.setLinkedRecord(connection, handle)
            let pageInfo = store.create(id: ClientID.make(parentID: connectionID, storageKey: "pageInfo"), typename: "PageInfo")
            pageInfo.setValue(false, "hasNextPage")
            pageInfo.setValue(false, "hasPreviousPage")
            pageInfo.setValue(.null, "endCursor")
            pageInfo.setValue(.null, "startCursor")
            if let serverPageInfo { pageInfo.copyFields(from: serverPageInfo) }
            connection.setLinkedRecord(pageInfo, "pageInfo")
            return
        }
        if clientConnectionField == nil { parent.setLinkedRecord(connection, handle) }
        let clientPageInfo = connection.getLinkedRecord("pageInfo")
        let serverEdges = serverConnection.getLinkedRecords("edges")?.map { edge in
            edge.map { buildConnectionEdge(store, connection: connection, serverEdge: $0) }
        }
        let previousEdges = connection.getLinkedRecords("edges")
        // Fields of the connection other than edges and page info follow the server.
        connection.copyFields(from: serverConnection)
        if let previousEdges { connection.setLinkedRecords(previousEdges, "edges") }
        if let clientPageInfo { connection.setLinkedRecord(clientPageInfo, "pageInfo") }

        var nextEdges: [RecordProxy?]?
        if let previousEdges, let serverEdges {
            if let after {
                guard let clientPageInfo, clientPageInfo.getValue("endCursor") == after else {
                    DirectiveHandler.logger.info("\(connectionID): a page after cursor \(after) is not at the end of the list; ignored")
                    return
                }
                var merged: [RecordProxy?] = []
                var nodeIDs = Set<DataID>()
                mergeEdges(previousEdges, into: &merged, nodeIDs: &nodeIDs)
                mergeEdges(serverEdges, into: &merged, nodeIDs: &nodeIDs)
                nextEdges = merged
            } else if let before {
                guard let clientPageInfo, clientPageInfo.getValue("startCursor") == before else {
                    DirectiveHandler.logger.info("\(connectionID): a page before cursor \(before) is not at the start of the list; ignored")
                    return
                }
                var merged: [RecordProxy?] = []
                var nodeIDs = Set<DataID>()
                mergeEdges(serverEdges, into: &merged, nodeIDs: &nodeIDs)
                mergeEdges(previousEdges, into: &merged, nodeIDs: &nodeIDs)
                nextEdges = merged
            } else {
                // Refetched from the start (or end): the page replaces the edges.
                nextEdges = serverEdges
            }
        } else if let serverEdges {
            nextEdges = serverEdges
        }
        if let nextEdges { connection.setLinkedRecords(nextEdges, "edges") }
        // Page info is updated even when no edges came.
        guard let clientPageInfo, let serverPageInfo else { return }
        if after == nil && before == nil {
            clientPageInfo.copyFields(from: serverPageInfo)
        } else if before != nil || (after == nil && last != nil) {
            clientPageInfo.setValue(.bool(serverPageInfo.getValue("hasPreviousPage")?.boolValue ?? false), "hasPreviousPage")
            if case .string(let cursor)? = serverPageInfo.getValue("startCursor") { clientPageInfo.setValue(.string(cursor), "startCursor") }
        } else if after != nil || (before == nil && first != nil) {
            clientPageInfo.setValue(.bool(serverPageInfo.getValue("hasNextPage")?.boolValue ?? false), "hasNextPage")
            if case .string(let cursor)? = serverPageInfo.getValue("endCursor") { clientPageInfo.setValue(.string(cursor), "endCursor") }
        }
    }

    /// Adds `source` edges to `target`, skipping null edges and edges of a node already there.
    private static func mergeEdges(_ source: [RecordProxy?], into target: inout [RecordProxy?], nodeIDs: inout Set<DataID>) {
        for edge in source {
            guard let edge else { continue }
            if let node = edge.getLinkedRecord("node")?.dataID {
                guard nodeIDs.insert(node).inserted else { continue }
            }
            target.append(edge)
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
