import BatonAPI
import BatonStore
import Foundation

/// What a fragment or object watch sees of its record at one moment: the typed data, or why
/// there is none, and whether it is stale.
public struct ObjectSnapshot<S: SelectionSet>: Sendable {
    /// The data as the store holds it; `nil` when the record was deleted or the store lacks
    /// some of what the selections read.
    public let data: S?
    /// Some field or record the selections read is not in the store.
    public let isMissing: Bool
    /// Some field read is past its max age (see `CacheFreshness`) at the time of the snapshot.
    public let isStale: Bool
    /// When the data goes stale (`nil`: never).
    public let staleAt: Date?
    /// Why there is no data although the store has all of it: `@required(action: THROW)` or
    /// `@throwOnFieldError` failed the read (the path, and the field errors that failed it), or
    /// a `@catch` on the fragment caught a field error.
    public let error: SelectionSetDecodingError?
}

extension OperationDescriptor {
    /// The descriptor of any generated selection set (a fragment, or an object of an operation's
    /// data) read on the record `id`.
    public init<S: SelectionSet>(object: S.Type, id: DataID, variables: JSONObject = [:]) {
        let name = (S.self as? any GraphQLFragment.Type)?.fragmentName ?? String(describing: S.self)
        self.init(
            name: name, selections: S.__selections, variables: variables, rootID: id, rootType: S.__parentType.name,
            cacheKeys: S.__schema.map(CacheKeyConfiguration.init(schema:)), cacheDirectives: S.__schema?.cacheDirectives)
    }
}

extension BatonClient {
    /// Keeps any generated selection set live on the record `id` (a fragment, or an object of an
    /// operation's data such as `TodoListQuery.Data.Viewer.Todos.Edge.Node`): emits it as the store
    /// holds it now, then again each time a field it reads changes (the store's watcher index
    /// re-reads only watchers whose records changed, and a re-read that gives the same data emits
    /// nothing). Nothing is emitted while the data is missing or the record deleted: use
    /// ``snapshots(of:id:variables:)`` to hear of those. A read that the field-error directives
    /// fail (`@required(action: THROW)`, `@throwOnFieldError`) ends the sequence with
    /// ``BatonError/fieldErrorThrown(operationName:_:)`` (the snapshots go on through such states).
    /// The record is retained while the sequence is consumed.
    public func watch<S: SelectionSet>(object: S.Type, id: DataID, variables: JSONObject = [:]) -> AsyncThrowingStream<S, any Error> {
        let snapshots = snapshots(of: S.self, id: id, variables: variables)
        return AsyncThrowingStream { continuation in
            let task = Task {
                for await snapshot in snapshots {
                    if let data = snapshot.data { continuation.yield(data) }
                    if let error = snapshot.error {
                        continuation.finish(throwing: BatonError.fieldErrorThrown(operationName: Self.selectionSetName(S.self), error))
                        return
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every state of a selection set on the record `id`: the first read, then one snapshot per
    /// change of what it reads, including its data going missing or its record being deleted
    /// (`data == nil`), each saying whether the data is stale. What `FragmentObserver` follows.
    public func snapshots<S: SelectionSet>(of object: S.Type, id: DataID, variables: JSONObject = [:]) -> AsyncStream<ObjectSnapshot<S>> {
        let values = (S.self as? any GraphQLFragment.Type).map { Self.fragmentVariables($0, variables) } ?? variables
        let descriptor = OperationDescriptor(object: S.self, id: id, variables: values)
        let (stream, continuation) = AsyncStream.makeStream(of: ObjectSnapshot<S>.self, bufferingPolicy: .bufferingNewest(1))
        let store = self.store
        let token = store.retain(descriptor)
        // A change may be delivered (on the committing thread) before the first read is yielded
        // here: it waits, so it is not overtaken by the older first read.
        let gate = Locked<(started: Bool, waiting: ObjectSnapshot<S>?)>((false, nil))
        let (initial, subscription) = store.subscribe(descriptor) { read in
            let snapshot = Self.snapshot(S.self, read, variables: values, now: store.clock.now)
            gate.withLock { gate in
                if gate.started { continuation.yield(snapshot) } else { gate.waiting = snapshot }
            }
        }
        gate.withLock { gate in
            continuation.yield(Self.snapshot(S.self, initial, variables: values, now: store.clock.now))
            if let waiting = gate.waiting { continuation.yield(waiting) }
            gate = (true, nil)
        }
        continuation.onTermination = { _ in
            subscription.cancel()
            token.release()
        }
        return stream
    }

    static func snapshot<S: SelectionSet>(_: S.Type, _ read: ReadResult, variables: JSONObject, now: Date) -> ObjectSnapshot<S> {
        var data: S?
        var error: SelectionSetDecodingError?
        if !read.isMissing, let object = read.data {
            switch Store.typedRead(S.self, object, variables: variables) {
            case .success(let typed)?: data = typed
            case .failure(let failure)?: error = failure
            case nil: break  // records edited into another shape: no data
            }
        }
        return ObjectSnapshot(data: data, isMissing: read.isMissing, isStale: read.isStale(at: now), staleAt: read.staleAt, error: error)
    }

    /// A fragment's name, or the selection set's type name.
    static func selectionSetName<S: SelectionSet>(_: S.Type) -> String {
        (S.self as? any GraphQLFragment.Type)?.fragmentName ?? String(describing: S.self)
    }
}
