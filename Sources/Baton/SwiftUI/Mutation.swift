#if canImport(SwiftUI)
    import BatonAPI
    import SwiftUI

    /// A mutation in a view: one ``Mutator`` the view owns (kept in its state, as Relay.swift keeps
    /// a mutation's tracker), so `commit` and `isInFlight` always talk to the same object. Its
    /// client is the environment's; `isInFlight` and completions change and run on the main actor.
    ///
    /// ```swift
    /// struct TodoRow: View {
    ///     @Fragment<TodoDetails> var todo: TodoDetails?
    ///     @Mutation<ChangeTodoStatusWithCountsMutation> var changeStatus: Mutator<ChangeTodoStatusWithCountsMutation>
    ///     let userID: String
    ///
    ///     init(todo: TodoDetails, userID: String) {
    ///         _todo = Fragment(todo)
    ///         self.userID = userID
    ///     }
    ///
    ///     var body: some View {
    ///         Toggle(todo?.text ?? "", isOn: Binding(
    ///             get: { todo?.complete ?? false },
    ///             set: { complete in
    ///                 guard let todo else { return }
    ///                 changeStatus.commit(variables: ChangeTodoStatusWithCountsMutation(
    ///                     input: .init(complete: complete, id: todo.id, userId: userID)))
    ///             }))
    ///         .disabled(changeStatus.isInFlight)
    ///     }
    /// }
    /// ```
    @propertyWrapper
    public struct Mutation<Operation: GraphQLMutation>: DynamicProperty {
        @Environment(\.batonClient) private var client
        @State private var mutator: Mutator

        /// A mutator for the environment's client.
        @MainActor
        public init() {
            _mutator = State(initialValue: Mutator())
        }

        /// The view's mutator: `commit(…)`, `isInFlight`.
        @MainActor
        public var wrappedValue: Mutator { mutator }

        /// Called by SwiftUI before each `body`: hands the environment's client to the mutator.
        public func update() {
            let (mutator, client) = (self.mutator, self.client)
            MainActor.assumeIsolated { mutator.use(client) }
        }
    }
#endif
