#if canImport(SwiftUI)
    import BatonAPI
    import SwiftUI

    /// A paginated fragment in a view (Relay.swift's `@PaginationFragment`): the fragment with
    /// every page loaded so far, kept live; `$name.loadNext(_:)`, `hasNext`, `isLoadingNext` and
    /// `refetch(_:)` on the ``PaginationObserver`` the view owns. The client is the environment's.
    ///
    /// ```swift
    /// struct TodoList: View {
    ///     @PaginationFragment<TodoListPagination_user> var user: TodoListPagination_user?
    ///
    ///     init(viewer: PaginatedTodosQuery.Data.Viewer) { _user = PaginationFragment(viewer) }
    ///
    ///     var body: some View {
    ///         List {
    ///             ForEach(user?.todos.edges?.compactMap { $0?.node } ?? [], id: \.id) { todo in
    ///                 TodoText(todo.fragments.todoDetails)
    ///             }
    ///             if $user.hasNext {
    ///                 Button($user.isLoadingNext ? "Loading…" : "More") {
    ///                     Task { try? await $user.loadNext(10) }
    ///                 }
    ///             }
    ///         }
    ///     }
    /// }
    /// ```
    @propertyWrapper
    public struct PaginationFragment<F: PaginatedFragment>: DynamicProperty {
        @Environment(\.batonClient) private var client
        @State private var observer: PaginationObserver<F>
        private let reference: any SelectionSet
        private let variables: F.Variables?

        /// Follows the fragment on the object `reference` stands for, with `variables` (`nil`:
        /// the fragment's defaults; the values the spread gave with `@arguments` when they differ).
        @MainActor
        public init(_ reference: some SelectionSet, variables: F.Variables? = nil) {
            self.reference = reference
            self.variables = variables
            _observer = State(initialValue: PaginationObserver())
        }

        /// The fragment with every page loaded so far; `nil` while the store lacks its data.
        @MainActor
        public var wrappedValue: F? { observer.data }

        /// The observer: `loadNext(_:)`, `loadPrevious(_:)`, `hasNext`, `isLoadingNext`, `refetch(_:)`.
        @MainActor
        public var projectedValue: PaginationObserver<F> { observer }

        /// Called by SwiftUI before each `body`: hands the reference and the client to the observer.
        public func update() {
            let (observer, client, reference, variables) = (self.observer, self.client, self.reference, self.variables)
            MainActor.assumeIsolated { observer.load(reference, client: client, variables: variables) }
        }
    }
#endif
