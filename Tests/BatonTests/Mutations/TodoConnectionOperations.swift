import BatonAPI
import BatonExampleAPI
import BatonDigest
import Foundation

// Operations with Baton's client directives (`@connection`, the mutation directives, `__id`),
// written in the generator's shape: the document sent to the server has the client-only parts
// removed, the metadata keeps them.

/// Selections for a test operation, so one generic `Data` type serves several operations.
protocol TestSelections: Sendable {
    static var parentType: TypeCondition { get }
    static var selections: [Selection] { get }
}

struct TestData<S: TestSelections>: RootSelectionSet {
    let __data: DataDict
    init(_dataDict: DataDict) { __data = _dataDict }
    static var __parentType: TypeCondition { S.parentType }
    static var __selections: [Selection] { S.selections }
    static var __schema: SchemaMetadata? { BatonExampleAPI.schemaMetadata }
}

func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
}

private let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))

let todoNodeSelections: [Selection] = [
    typename,
    .field("id", type: .nonNull(.scalar("ID"))),
    .field("text", type: .nonNull(.scalar("String"))),
    .field("complete", type: .nonNull(.scalar("Boolean"))),
]

let todoEdgeSelections: [Selection] = [
    typename,
    .field("cursor", type: .nonNull(.scalar("String"))),
    .field("node", type: .object("Todo"), selections: todoNodeSelections),
]

/// `query TodoConnection { viewer { todos(…) @connection(key: "TodoList_todos") { __id edges … pageInfo … } } }`
struct TodoConnectionQuery: GraphQLQuery {
    typealias Data = TestData<Selections>
    static let operationName = "TodoConnection"
    static let operationDocument =
        "query TodoConnection($first: Int, $after: String, $last: Int, $before: String) { viewer { __typename id todos(first: $first, after: $after, last: $last, before: $before) { __typename edges { __typename cursor node { __typename id text complete } } pageInfo { __typename endCursor hasNextPage startCursor hasPreviousPage } } } }"
    static var operationIdentifier: String { sha256Hex(operationDocument) }

    var first: GraphQLNullable<Int> = nil
    var after: GraphQLNullable<String> = nil
    var last: GraphQLNullable<Int> = nil
    var before: GraphQLNullable<String> = nil

    var variables: GraphQLVariables? { ["first": first, "after": after, "last": last, "before": before] }

    enum Selections: TestSelections {
        static let parentType = TypeCondition("Query")
        static let selections: [Selection] = [
            .field(
                "viewer", type: .object("User"),
                selections: [
                    typename,
                    .field("id", type: .nonNull(.scalar("ID"))),
                    .field(
                        "todos", type: .nonNull(.object("TodoConnection")),
                        arguments: ["first": .variable("first"), "after": .variable("after"), "last": .variable("last"), "before": .variable("before")],
                        directives: [.connection(key: "TodoList_todos", filters: nil)],
                        selections: [
                            typename,
                            .field("__id", type: .nonNull(.scalar("ID"))),
                            .field("edges", type: .list(.object("TodoEdge")), selections: todoEdgeSelections),
                            .field(
                                "pageInfo", type: .nonNull(.object("PageInfo")),
                                selections: [
                                    typename,
                                    .field("endCursor", type: .scalar("String")),
                                    .field("hasNextPage", type: .nonNull(.scalar("Boolean"))),
                                    .field("startCursor", type: .scalar("String")),
                                    .field("hasPreviousPage", type: .nonNull(.scalar("Boolean"))),
                                ]),
                        ]),
                ])
        ]
    }
}

extension TestData where S == TodoConnectionQuery.Selections {
    var connection: JSONValue? { jsonObject["viewer"]?["todos"] }
    var connectionID: String? { connection?["__id"]?.stringValue }
    var texts: [String] { connection?["edges"]?.listValue?.compactMap { $0["node"]?["text"]?.stringValue } ?? [] }
    var ids: [String] { connection?["edges"]?.listValue?.compactMap { $0["node"]?["id"]?.stringValue } ?? [] }
    var endCursor: String? { connection?["pageInfo"]?["endCursor"]?.stringValue }
    var startCursor: String? { connection?["pageInfo"]?["startCursor"]?.stringValue }
    var hasNextPage: Bool? { connection?["pageInfo"]?["hasNextPage"]?.boolValue }
}

/// A mutation whose payload field carries one client directive; the document is sent without it.
protocol TodoDirective: TestSelections {
    static var name: String { get }
    static var document: String { get }
}

struct TodoDirectiveMutation<Directive: TodoDirective>: GraphQLMutation {
    typealias Data = TestData<Directive>
    static var operationName: String { Directive.name }
    static var operationDocument: String { Directive.document }
    static var operationIdentifier: String { sha256Hex(operationDocument) }

    let input: JSONValue
    let connections: [String]

    var variables: GraphQLVariables? { ["input": input, "connections": connections] }
}

private let connectionsArgument = InputValue.variable("connections")
private let addTodoEdgeDocument =
    "mutation AddTodoEdge($input: AddTodoInput!) { addTodo(input: $input) { __typename todoEdge { __typename cursor node { __typename id text complete } } } }"
private let addTodoNodeDocument =
    "mutation AddTodoNode($input: AddTodoInput!) { addTodo(input: $input) { __typename todo { __typename id text complete } } }"
private let removeTodoDocument = "mutation RemoveTodoID($input: RemoveTodoInput!) { removeTodo(input: $input) { __typename deletedTodoID } }"

private func addTodo(_ field: Selection) -> [Selection] {
    [.field("addTodo", type: .object("AddTodoPayload"), arguments: ["input": .variable("input")], selections: [typename, field])]
}

private func removeTodo(_ directive: ClientDirective) -> [Selection] {
    [
        .field(
            "removeTodo", type: .object("RemoveTodoPayload"), arguments: ["input": .variable("input")],
            selections: [typename, .field("deletedTodoID", type: .nonNull(.scalar("ID")), directives: [directive])])
    ]
}

enum AppendEdge: TodoDirective {
    static let name = "AddTodoEdge"
    static let document = addTodoEdgeDocument
    static let parentType = TypeCondition("Mutation")
    static let selections = addTodo(
        .field("todoEdge", type: .nonNull(.object("TodoEdge")), directives: [.appendEdge(connections: connectionsArgument)], selections: todoEdgeSelections))
}

enum PrependEdge: TodoDirective {
    static let name = "AddTodoEdge"
    static let document = addTodoEdgeDocument
    static let parentType = TypeCondition("Mutation")
    static let selections = addTodo(
        .field("todoEdge", type: .nonNull(.object("TodoEdge")), directives: [.prependEdge(connections: connectionsArgument)], selections: todoEdgeSelections))
}

enum AppendNode: TodoDirective {
    static let name = "AddTodoNode"
    static let document = addTodoNodeDocument
    static let parentType = TypeCondition("Mutation")
    static let selections = addTodo(
        .field(
            "todo", type: .nonNull(.object("Todo")), directives: [.appendNode(connections: connectionsArgument, edgeTypeName: "TodoEdge")],
            selections: todoNodeSelections))
}

enum PrependNode: TodoDirective {
    static let name = "AddTodoNode"
    static let document = addTodoNodeDocument
    static let parentType = TypeCondition("Mutation")
    static let selections = addTodo(
        .field(
            "todo", type: .nonNull(.object("Todo")), directives: [.prependNode(connections: connectionsArgument, edgeTypeName: "TodoEdge")],
            selections: todoNodeSelections))
}

enum DeleteEdge: TodoDirective {
    static let name = "RemoveTodoID"
    static let document = removeTodoDocument
    static let parentType = TypeCondition("Mutation")
    static let selections = removeTodo(.deleteEdge(connections: connectionsArgument))
}

enum DeleteRecord: TodoDirective {
    static let name = "RemoveTodoID"
    static let document = removeTodoDocument
    static let parentType = TypeCondition("Mutation")
    static let selections = removeTodo(.deleteRecord)
}
