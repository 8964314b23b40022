struct TodoConnection: ObjectValue {
    static let typename = "TodoConnection"
    let edges: [TodoEdge]
    let pageInfo: PageInfo
}

struct TodoEdge: ObjectValue {
    static let typename = "TodoEdge"
    let cursor: String
    let node: Todo

    init(_ todo: Todo) {
        cursor = Cursor.make("todo:", todo.id)
        node = todo
    }
}

struct AddTodoPayload: ObjectValue {
    static let typename = "AddTodoPayload"
    let todoEdge: TodoEdge
    let todo: Todo
    let user: User
    let clientMutationId: String?
}

struct RemoveTodoPayload: ObjectValue {
    static let typename = "RemoveTodoPayload"
    let deletedTodoID: String
    let user: User
    let clientMutationId: String?
}

struct ChangeTodoStatusPayload: ObjectValue {
    static let typename = "ChangeTodoStatusPayload"
    let todo: Todo
    let user: User
    let clientMutationId: String?
}

/// Resolvers of the Relay-style todo list and of `node(id:)`.
enum TodoResolvers {
    static var table: ResolverTable {
        var table = ResolverTable()
        table.field("Query", "viewer") { call in call.context.state.users.user(id: UserStore.viewerID) }
        table.field("Query", "user") { call in call.context.state.users.user(id: try call.required("id") { $0.string }) }
        table.field("Query", "node") { call in node(id: try call.required("id") { $0.string }, users: call.context.state.users) }

        table.field("User", "todos") { call in
            let todos = call.context.state.users.todos(of: try call.source(as: User.self).id)
            return try connection(
                todos, first: call.int("first"), after: call.string("after"), last: call.int("last"), before: call.string("before")
            )
        }
        table.field("User", "totalCount") { call in
            call.context.state.users.todos(of: try call.source(as: User.self).id).count
        }
        table.field("User", "completedCount") { call in
            call.context.state.users.todos(of: try call.source(as: User.self).id).filter(\.complete).count
        }

        table.field("Mutation", "addTodo") { call in
            let input = try call.input("input")
            let users = call.context.state.users
            let userID = UserStore.userID(try input.requiredString("userId"))
            let todo = try users.addTodo(text: try input.requiredString("text"), userID: userID)
            return AddTodoPayload(
                todoEdge: TodoEdge(todo), todo: todo, user: try user(userID, in: users),
                clientMutationId: input.string("clientMutationId")
            )
        }
        table.field("Mutation", "removeTodo") { call in
            let input = try call.input("input")
            let users = call.context.state.users
            let (id, userID) = (try input.requiredString("id"), UserStore.userID(try input.requiredString("userId")))
            try users.removeTodo(id: id, userID: userID)
            return RemoveTodoPayload(
                deletedTodoID: id, user: try user(userID, in: users), clientMutationId: input.string("clientMutationId")
            )
        }
        table.field("Mutation", "changeTodoStatus") { call in
            let input = try call.input("input")
            let users = call.context.state.users
            let userID = UserStore.userID(try input.requiredString("userId"))
            let todo = try users.changeTodoStatus(
                id: try input.requiredString("id"), userID: userID, complete: try input.requiredBool("complete")
            )
            call.context.state.todoChanges.send(todo)
            return ChangeTodoStatusPayload(
                todo: todo, user: try user(userID, in: users), clientMutationId: input.string("clientMutationId")
            )
        }
        table.events("Subscription", "todoChanged") { call in call.context.state.todoChanges.events() }
        table.field("Subscription", "todoChanged") { call in call.source }
        return table
    }

    /// The user, todo or launch with the globally unique `id`; nil when there is none.
    static func node(id: String, users: UserStore) -> (any ObjectValue)? {
        if id.hasPrefix("User:") { return users.user(id: id) }
        if id.hasPrefix("Todo:") { return users.todo(id: id) }
        return LaunchCatalog.launch(id: id)
    }

    private static func user(_ id: String, in users: UserStore) throws -> User {
        guard let user = users.user(id: id) else { throw ResolverError("No user with id \(id)") }
        return user
    }

    /// A Relay connection over `todos`: `after`/`before` cut at a cursor, then `first`/`last` keep
    /// that many from the start/end. The page info tells whether todos exist before and after the page.
    static func connection(_ todos: [Todo], first: Int?, after: String?, last: Int?, before: String?) throws -> TodoConnection {
        func index(of cursor: String) throws -> Int {
            guard let id = Cursor.value(of: cursor, prefix: "todo:"), let index = todos.firstIndex(where: { $0.id == id }) else {
                throw ResolverError("Invalid cursor: \(cursor)")
            }
            return index
        }
        var lower = 0
        var upper = todos.count
        if let after { lower = try index(of: after) + 1 }
        if let before { upper = max(lower, try index(of: before)) }
        if let first {
            guard first >= 0 else { throw ResolverError("first must not be negative") }
            upper = min(upper, lower + first)
        }
        if let last {
            guard last >= 0 else { throw ResolverError("last must not be negative") }
            lower = max(lower, upper - last)
        }
        let edges = todos[lower..<upper].map(TodoEdge.init)
        return TodoConnection(
            edges: edges,
            pageInfo: PageInfo(
                startCursor: edges.first?.cursor,
                endCursor: edges.last?.cursor,
                hasNextPage: upper < todos.count,
                hasPreviousPage: lower > 0
            )
        )
    }
}
