/// The values of a `@refetchable` fragment's variables, as codegen writes them: a struct with a
/// typed property per variable of the fragment's refetch query (its `@argumentDefinitions` and the
/// operation variables it uses; never the `id` a `node(id:)` refetch takes from the object),
/// whose initializer defaults are the fragment's own defaults.
///
/// ```swift
/// try await todos.refetch(TodoList_user.Variables(count: 5))   // a PaginationObserver
/// ```
public protocol FragmentVariables: Sendable {
    /// The values by variable name; absent ones are left out.
    var variables: GraphQLVariables { get }
}

extension FragmentVariables {
    /// The values as sent on the wire, absent ones left out.
    public var variablesJSON: JSONObject { variables.jsonObject }
}
