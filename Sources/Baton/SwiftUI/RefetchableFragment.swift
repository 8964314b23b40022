#if canImport(SwiftUI)
    import BatonAPI
    import SwiftUI

    /// A `@refetchable` fragment in a view (Relay.swift's `@RefetchableFragment`): the fragment kept
    /// live, and `$name.refetch(…)` with typed variables. The state lives in a ``RefetchObserver`` the view owns; the client is
    /// the environment's.
    ///
    /// ```swift
    /// struct TodoSummary: View {
    ///     @RefetchableFragment<TodoListPagination_user> var user: TodoListPagination_user?
    ///
    ///     init(viewer: PaginatedTodosQuery.Data.Viewer) { _user = RefetchableFragment(viewer) }
    ///
    ///     var body: some View {
    ///         Text("\(user?.todos.edges?.count ?? 0) todos")
    ///         Button("Show five") { Task { try? await $user.refetch(.init(count: 5)) } }
    ///             .disabled($user.isRefetching)
    ///     }
    /// }
    /// ```
    @propertyWrapper
    public struct RefetchableFragment<F: BatonAPI.GraphQLRefetchableFragment>: DynamicProperty {
        @Environment(\.batonClient) private var client
        @State private var observer: RefetchObserver<F>
        private let reference: any SelectionSet
        private let variables: F.Variables?

        /// Follows the fragment on the object `reference` stands for, with `variables` (`nil`:
        /// the fragment's defaults).
        @MainActor
        public init(_ reference: some SelectionSet, variables: F.Variables? = nil) {
            self.reference = reference
            self.variables = variables
            _observer = State(initialValue: RefetchObserver())
        }

        /// The fragment as the store holds it; `nil` while the store lacks its data.
        @MainActor
        public var wrappedValue: F? { observer.data }

        /// The observer: `refetch(_:)`, `isRefetching`, `error`.
        @MainActor
        public var projectedValue: RefetchObserver<F> { observer }

        /// Called by SwiftUI before each `body`: hands the reference and the client to the observer.
        public func update() {
            let (observer, client, reference, variables) = (self.observer, self.client, self.reference, self.variables)
            MainActor.assumeIsolated { observer.load(reference, client: client, variables: variables) }
        }
    }
#endif
