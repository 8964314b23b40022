import BatonAPI
import BatonStore
import Observation

/// A fragment's data kept live for a view, Relay's `useFragment`: `data` is the fragment read
/// from the store for the object a reference stands for (data read from a result, with `__id`
/// or a cache key), and changes on the main actor whenever its records change. Releasing the
/// observer stops its store watch.
///
/// ```swift
/// let todo = FragmentObserver<TodoDetails>(client: client, reference: edge.node!)
/// print(todo.data?.text ?? "", todo.data?.complete ?? false)   // observable
/// ```
///
/// In SwiftUI, `@Fragment` keeps one in the view's state.
@MainActor
@Observable
public final class FragmentObserver<F: GraphQLFragment> {
    /// The fragment as the store holds it now; `nil` while the store lacks its data, or once its
    /// record is deleted. Observable.
    public private(set) var data: F?
    /// Whether some field of ``data`` was past its max age (see `CacheFreshness`) when the store
    /// last read it for this observer (on load, and at each change of what the fragment reads).
    /// Observable.
    public private(set) var isStale = false
    /// Why there is no data to follow (a reference without a record ID), or why the store's
    /// data cannot be shown: ``BatonError/fieldErrorThrown(operationName:_:)`` when
    /// `@required(action: THROW)` or `@throwOnFieldError` fails its read (cleared when a later
    /// change reads). Observable.
    public private(set) var error: (any Error)?

    /// The record followed (`nil` until ``load(_:client:variables:)``).
    @ObservationIgnored public private(set) var recordID: DataID?
    @ObservationIgnored private(set) var client: BatonClient?
    @ObservationIgnored private var variables = JSONObject()
    private let tasks = ObserverTasks()
    @ObservationIgnored private var generation = 0

    /// Follows the fragment on the object `reference` stands for, with the fragment's
    /// `variables` (its own `@argumentDefinitions` fall back to their defaults).
    public init(client: BatonClient, reference: some SelectionSet, variables: JSONObject = [:]) {
        load(reference, client: client, variables: variables)
    }

    /// An observer that follows nothing until ``load(_:client:variables:)`` (what `@Fragment`
    /// makes before the environment gives it a client).
    public init() {}

    /// Follows the fragment on the object `reference` stands for: nothing happens when it
    /// already follows that record with those variables on that client.
    public func load(_ reference: some SelectionSet, client: BatonClient, variables: JSONObject = [:]) {
        guard let id = client.recordID(of: reference, schema: F.__schema) else {
            if recordID == nil, self.client === client, error != nil { return }  // already says so
            recordID = nil
            self.client = client
            tasks.replace("watch", with: nil)
            data = nil
            error = BatonClient.noRecordID(F.self)
            return
        }
        load(id: id, client: client, variables: variables)
    }

    /// What `@Fragment` calls before each view update: follows with the environment's
    /// client, or reports ``BatonError/noClient(operationName:)`` when the view has none.
    func load(_ reference: some SelectionSet, client: BatonClient?, variables: JSONObject) {
        guard let client else {
            if error == nil { error = BatonError.noClient(operationName: F.fragmentName) }
            return
        }
        load(reference, client: client, variables: variables)
    }

    /// Follows the fragment on the record `id`.
    public func load(id: DataID, client: BatonClient, variables: JSONObject = [:]) {
        let values = BatonClient.fragmentVariables(F.self, variables)
        if recordID == id, self.client === client, self.variables == values { return }
        recordID = id
        self.client = client
        self.variables = values
        error = nil
        generation += 1
        let generation = self.generation
        // The store's data now: a view shows it on its first frame.
        let now = client.fragmentSnapshot(F.self, id: id, variables: values)
        data = now.data
        error = now.error.map { BatonError.fieldErrorThrown(operationName: F.fragmentName, $0) }
        let updates = client.snapshots(of: F.self, id: id, variables: values)
        tasks.replace(
            "watch",
            with: Task { [weak self] in
                for await snapshot in updates {
                    guard let self, generation == self.generation else { return }
                    // Data going missing keeps what is shown (a page on its way); a deleted record empties it.
                    if snapshot.data != nil || !snapshot.isMissing, self.data != snapshot.data { self.data = snapshot.data }
                    if self.isStale != snapshot.isStale { self.isStale = snapshot.isStale }
                    self.show(snapshot.error)
                }
            })
    }

    /// Shows a read failure (or clears the one shown).
    private func show(_ failure: SelectionSetDecodingError?) {
        if let failure {
            error = BatonError.fieldErrorThrown(operationName: F.fragmentName, failure)
        } else if let shown = error as? BatonError, case .fieldErrorThrown = shown {
            error = nil
        }
    }

    /// Reads the fragment from the store again now (after a fetch that published to it), without
    /// waiting for the watch to deliver it.
    func refresh() {
        guard let client, let recordID else { return }
        let now = client.fragmentSnapshot(F.self, id: recordID, variables: variables)
        show(now.error)
        guard let fragment = now.data else { return }
        if data != fragment { data = fragment }
    }

    /// The variables the fragment is read with (its defaults under those given).
    var currentVariables: JSONObject { variables }
}

extension FragmentObserver where F: GraphQLRefetchableFragment {
    /// Follows a `@refetchable` fragment with typed variables (`nil`: the fragment's defaults).
    public convenience init(client: BatonClient, reference: some SelectionSet, variables: F.Variables?) {
        self.init(client: client, reference: reference, variables: variables?.variablesJSON ?? [:])
    }
}

extension BatonClient {
    /// The fragment on record `id` as the store holds it now, with the failure of its read by
    /// the field-error directives.
    func fragmentSnapshot<F: GraphQLFragment>(_: F.Type, id: DataID, variables: JSONObject) -> ObjectSnapshot<F> {
        let read = store.read(OperationDescriptor(fragment: F.self, id: id, variables: variables))
        return Self.snapshot(F.self, read, variables: variables, now: store.clock.now)
    }
}
