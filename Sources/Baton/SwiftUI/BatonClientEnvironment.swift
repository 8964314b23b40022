#if canImport(SwiftUI)
    import SwiftUI

    /// Where the environment keeps the client Baton's property wrappers use.
    private struct BatonClientKey: EnvironmentKey {
        static let defaultValue: BatonClient? = nil
    }

    extension EnvironmentValues {
        /// The client `@Query`, `@Mutation`, `@Fragment`, `@RefetchableFragment` and
        /// `@PaginationFragment` use; set it with ``SwiftUI/View/batonClient(_:)``.
        public var batonClient: BatonClient? {
            get { self[BatonClientKey.self] }
            set { self[BatonClientKey.self] = newValue }
        }
    }

    extension View {
        /// Gives this view and its descendants `client` for Baton's property wrappers.
        ///
        /// ```swift
        /// @main struct TodoApp: App {
        ///     let client = BatonClient(url: URL(string: "https://example.com/graphql")!)
        ///     var body: some Scene {
        ///         WindowGroup { TodoListView().batonClient(client) }
        ///     }
        /// }
        /// ```
        public func batonClient(_ client: BatonClient) -> some View {
            environment(\.batonClient, client)
        }
    }
#endif
