import BatonAPI

/// Typed local cache mutations (Apollo's `@apollo_client_ios_localCacheMutation`): read an
/// operation's or fragment's mutable data from the store, edit it with its setters, and the edits
/// are written back onto the records they were read from (not normalized again from the root, so
/// objects keep their record IDs even when the selections hold no `id`).
extension Store {
    /// The mutable data of a local cache mutation, or ``CacheMissError`` when the store lacks some.
    public func read<Mutation: LocalCacheMutation>(localCacheMutation mutation: Mutation) throws -> Mutation.Data {
        try typed(Mutation.Data.self, read(OperationDescriptor(operation: mutation)), variables: mutation.variablesJSON, name: Mutation.operationName)
    }

    /// Reads the mutation's data, lets `body` edit it, and writes what changed back in one commit
    /// (Apollo's `withinReadWriteTransaction { try $0.update(mutation) { … } }`). Throws
    /// ``CacheMissError`` when the store lacks some of the data; nothing is written then.
    ///
    /// Scalars and lists of scalars may change, objects may become null; a list of objects keeps
    /// its length (its items are edited where they are).
    @discardableResult
    public func update<Mutation: LocalCacheMutation, T>(
        _ mutation: Mutation, _ body: (inout Mutation.Data) throws -> T
    ) throws -> T {
        let original = try read(localCacheMutation: mutation)
        var edited = original
        let result = try body(&edited)
        writeBack(
            original: original.__data.object, edited: edited.__data.object, selections: Mutation.Data.__selections, rootID: .rootID,
            variables: mutation.variablesJSON)
        return result
    }

    /// Reads a mutable fragment from the record `id`, lets `body` edit it, and writes what changed back.
    @discardableResult
    public func update<F: MutableFragment, T>(
        fragment: F.Type, id: DataID, variables: JSONObject = [:], _ body: (inout F) throws -> T
    ) throws -> T {
        let original = try read(fragment: F.self, id: id, variables: variables)
        var edited = original
        let result = try body(&edited)
        writeBack(original: original.__data.object, edited: edited.__data.object, selections: F.__selections, rootID: id, variables: variables)
        return result
    }

    func writeBack(original: JSONObject, edited: JSONObject, selections: [Selection], rootID: DataID, variables: JSONObject) {
        update { proxy in
            guard let root = proxy.get(rootID) else { return }
            Self.writeBack(original: original, edited: edited, selections: selections, record: root, variables: variables)
        }
    }

    /// Writes the fields of `edited` that differ from `original` onto `record`, following links
    /// into nested objects.
    static func writeBack(original: JSONObject, edited: JSONObject, selections: [Selection], record: RecordProxy, variables: JSONObject) {
        for selection in selections {
            switch selection {
            case .field(let field):
                if field.conditions.contains(where: { $0.evaluate(with: variables) == false }) { continue }
                if field.name == "__typename" || field.name == "__id" { continue }
                let key = field.responseKey
                guard let new = edited[key], let old = original[key], new != old else { continue }
                var arguments: [String: JSONValue] = [:]
                for (name, value) in field.arguments {
                    if let resolved = value.resolve(with: variables) { arguments[name] = resolved }
                }
                if field.selections.isEmpty {
                    record.setValue(new, field.name, arguments: arguments)
                    continue
                }
                switch (old, new) {
                case (.object(let oldObject), .object(let newObject)):
                    if let linked = record.getLinkedRecord(field.name, arguments: arguments) {
                        writeBack(original: oldObject, edited: newObject, selections: field.selections, record: linked, variables: variables)
                    }
                case (_, .null):
                    record.setLinkedRecord(nil, field.name, arguments: arguments)
                case (.list(let oldItems), .list(let newItems)) where oldItems.count == newItems.count:
                    guard let linked = record.getLinkedRecords(field.name, arguments: arguments), linked.count == newItems.count else { continue }
                    writeBackList(old: oldItems, new: newItems, records: linked, selections: field.selections, variables: variables)
                default:
                    continue
                }
            case .inlineFragment(let inline):
                if inline.conditions.contains(where: { $0.evaluate(with: variables) == false }) { continue }
                if let condition = inline.typeCondition, let typename = record.typename, !condition.matches(typename) { continue }
                writeBack(original: original, edited: edited, selections: inline.selections, record: record, variables: variables)
            case .fragmentSpread(let spread):
                if spread.conditions.contains(where: { $0.evaluate(with: variables) == false }) { continue }
                if let typename = record.typename, !spread.typeCondition.matches(typename) { continue }
                writeBack(original: original, edited: edited, selections: spread.selections, record: record, variables: variables)
            }
        }
    }

    /// Items of a list of objects (or of lists of them), edited where they are.
    static func writeBackList(old: [JSONValue], new: [JSONValue], records: [RecordProxy?], selections: [Selection], variables: JSONObject) {
        for (index, pair) in zip(old, new).enumerated() {
            guard case .object(let oldObject) = pair.0, case .object(let newObject) = pair.1, let record = records[index] else { continue }
            writeBack(original: oldObject, edited: newObject, selections: selections, record: record, variables: variables)
        }
    }
}
