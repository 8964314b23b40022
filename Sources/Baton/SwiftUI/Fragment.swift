#if canImport(SwiftUI)
    import BatonAPI
    import SwiftUI

    /// A fragment's data in a view, kept live (Relay.swift's `@Fragment`): give it a reference
    /// (data read from a result, with `__id` or a cache key) and read the fragment as the store
    /// holds it. The state lives in a ``FragmentObserver`` the view owns (`$name`); the client
    /// is the environment's.
    ///
    /// ```swift
    /// struct TodoText: View {
    ///     @Fragment<TodoDetails> var todo: TodoDetails?
    ///
    ///     init(_ todo: TodoDetails) { _todo = Fragment(todo) }
    ///
    ///     var body: some View {
    ///         Text(todo?.text ?? "").strikethrough(todo?.complete ?? false)
    ///     }
    /// }
    /// ```
    @propertyWrapper
    public struct Fragment<F: BatonAPI.GraphQLFragment>: DynamicProperty {
        @Environment(\.batonClient) private var client
        @State private var observer: FragmentObserver<F>
        private let reference: (any SelectionSet)?
        private let variables: JSONObject

        /// A fragment with no reference yet (Relay.swift's `@Fragment<ToDoItem_item> var item`):
        /// it reads `nil` until the view is made with one, `ToDoItem(item: Fragment(todo))`.
        @MainActor
        public init() {
            reference = nil
            variables = [:]
            _observer = State(initialValue: FragmentObserver())
        }

        /// Follows the fragment on the object `reference` stands for, with the fragment's
        /// `variables` (its `@argumentDefinitions` defaults for those left out).
        @MainActor
        public init(_ reference: some SelectionSet, variables: JSONObject = [:]) {
            self.reference = reference
            self.variables = variables
            _observer = State(initialValue: FragmentObserver())
        }

        /// The fragment as the store holds it; `nil` while the store lacks its data.
        @MainActor
        public var wrappedValue: F? { observer.data }

        /// The observer: `data`, `error`, `recordID`.
        @MainActor
        public var projectedValue: FragmentObserver<F> { observer }

        /// Called by SwiftUI before each `body`: hands the reference and the client to the observer.
        public func update() {
            guard let reference = self.reference else { return }
            let (observer, client, variables) = (self.observer, self.client, self.variables)
            MainActor.assumeIsolated { observer.load(reference, client: client, variables: variables) }
        }
    }
#endif
