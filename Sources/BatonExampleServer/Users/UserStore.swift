import Foundation

struct User: ObjectValue {
    static let typename = "User"
    let id: String
    let email: String
}

struct Todo: ObjectValue {
    static let typename = "Todo"
    let id: String
    let text: String
    let complete: Bool
    let userID: String
}

/// The users of one server, with their booked trips and their todos.
///
/// The viewer of the todo list, "User:1" ("me@example.com"), exists from the start with three
/// todos, "Todo:1" to "Todo:3". Logging in with a new email creates "User:2", "User:3", …
final class UserStore: Sendable {
    static let viewerID = "User:1"

    /// A `userId` argument as given: "me" (Relay.swift's to-do example) is the viewer.
    static func userID(_ given: String) -> String { given == "me" ? viewerID : given }

    private struct State {
        var users: [User] = [User(id: UserStore.viewerID, email: "me@example.com")]
        var trips: [String: [String]] = [:]
        var todos: [Todo] = [
            Todo(id: "Todo:1", text: "Taste JavaScript", complete: true, userID: UserStore.viewerID),
            Todo(id: "Todo:2", text: "Buy a unicorn", complete: false, userID: UserStore.viewerID),
            Todo(id: "Todo:3", text: "Learn Relay", complete: false, userID: UserStore.viewerID),
        ]
        var nextUserNumber = 2
        var nextTodoNumber = 4
    }

    private let state = Locked(State())

    // MARK: Users and tokens

    func user(id: String) -> User? {
        state.withLock { state in state.users.first { $0.id == id } }
    }

    /// Finds or creates the user with `email`; returns the token to send as `Authorization`.
    func login(email: String) throws -> String {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.isValid(email: email) else {
            throw ResolverError("Invalid email: \"\(email)\"")
        }
        state.withLock { state in
            if !state.users.contains(where: { $0.email == email }) {
                state.users.append(User(id: "User:\(state.nextUserNumber)", email: email))
                state.nextUserNumber += 1
            }
        }
        return Data(email.utf8).base64EncodedString()
    }

    /// The user of an `Authorization` header value: a token from `login`, alone or after "Bearer ".
    func user(authorization: String?) -> User? {
        guard var token = authorization?.trimmingCharacters(in: .whitespaces), !token.isEmpty else { return nil }
        if token.lowercased().hasPrefix("bearer ") {
            token = token.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        }
        guard let data = Data(base64Encoded: token), let email = String(data: data, encoding: .utf8) else {
            return nil
        }
        return state.withLock { state in state.users.first { $0.email == email } }
    }

    private static func isValid(email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !email.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }

    // MARK: Trips

    /// The launch ids `userID` booked, in booking order.
    func trips(of userID: String) -> [String] {
        state.withLock { $0.trips[userID] ?? [] }
    }

    /// Books `launchIDs` for `userID`; a launch already booked stays booked once.
    func book(_ launchIDs: [String], for userID: String) {
        state.withLock { state in
            for id in launchIDs where !(state.trips[userID] ?? []).contains(id) {
                state.trips[userID, default: []].append(id)
            }
        }
    }

    /// Cancels the trip `launchID` of `userID`; false when it was not booked.
    func cancel(_ launchID: String, for userID: String) -> Bool {
        state.withLock { state in
            guard let index = state.trips[userID]?.firstIndex(of: launchID) else { return false }
            state.trips[userID]?.remove(at: index)
            return true
        }
    }

    // MARK: Todos

    /// The todos of `userID`, oldest first.
    func todos(of userID: String) -> [Todo] {
        state.withLock { state in state.todos.filter { $0.userID == userID } }
    }

    func todo(id: String) -> Todo? {
        state.withLock { state in state.todos.first { $0.id == id } }
    }

    func addTodo(text: String, userID: String) throws -> Todo {
        try state.withLock { state in
            guard state.users.contains(where: { $0.id == userID }) else { throw ResolverError("No user with id \(userID)") }
            let todo = Todo(id: "Todo:\(state.nextTodoNumber)", text: text, complete: false, userID: userID)
            state.nextTodoNumber += 1
            state.todos.append(todo)
            return todo
        }
    }

    func removeTodo(id: String, userID: String) throws {
        try state.withLock { state in
            guard let index = state.todos.firstIndex(where: { $0.id == id && $0.userID == userID }) else {
                throw ResolverError("User \(userID) has no todo with id \(id)")
            }
            state.todos.remove(at: index)
        }
    }

    func changeTodoStatus(id: String, userID: String, complete: Bool) throws -> Todo {
        try state.withLock { state in
            guard let index = state.todos.firstIndex(where: { $0.id == id && $0.userID == userID }) else {
                throw ResolverError("User \(userID) has no todo with id \(id)")
            }
            let todo = state.todos[index]
            state.todos[index] = Todo(id: todo.id, text: todo.text, complete: complete, userID: todo.userID)
            return state.todos[index]
        }
    }
}
