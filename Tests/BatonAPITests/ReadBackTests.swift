import BatonAPI
import BatonExampleAPI
import Testing

/// When a client reads a result back from the store instead of taking the response's data
/// (issue 26: no read back where the executor's data is what the store reads).
@Suite("Reading back from the store")
struct ReadBackTests {
    let todos: [Selection] = [
        .field(
            "edges", type: .list(.object("TodoEdge")),
            selections: [
                .field("cursor", type: .nonNull(.scalar("String"))),
                .field("node", type: .object("Todo"), selections: [.field("id", type: .nonNull(.scalar("ID")))]),
            ])
    ]

    func viewer(cursor: InputValue, inner: [Selection]? = nil) -> [Selection] {
        [
            .field(
                "viewer", type: .object("User"),
                selections: [
                    .field(
                        "todos", type: .nonNull(.object("TodoConnection")), arguments: ["first": .value(2), "after": cursor],
                        directives: [.connection(key: "List_todos", filters: nil)], selections: inner ?? todos)
                ])
        ]
    }

    @Test func aFirstPageIsTakenAsItCame() {
        // No cursor: the page replaces the connection's edges, so the response is what a read gives.
        #expect(!viewer(cursor: .value(.null)).readsBackFromStore(variables: [:]))
        #expect(!viewer(cursor: .variable("cursor")).readsBackFromStore(variables: [:]))
        #expect(!viewer(cursor: .variable("cursor")).readsBackFromStore(variables: ["cursor": nil]))
        #expect(!PaginatedTodosQuery.Data.__selections.readsBackFromStore(variables: ["first": 2]))
    }

    @Test func aLaterPageIsReadBackMerged() {
        #expect(viewer(cursor: .value("c2")).readsBackFromStore(variables: [:]))
        #expect(viewer(cursor: .variable("cursor")).readsBackFromStore(variables: ["cursor": "c2"]))
        #expect(TodoListPaginationQuery.Data.__selections.readsBackFromStore(variables: ["count": 2, "cursor": "c2"]))
        #expect(!TodoListPaginationQuery.Data.__selections.readsBackFromStore(variables: ["count": 2]))
    }

    @Test func recordIDsOfAConnectionOrItsEdgesAreTheStores() {
        // The connection and its edges are the store's client records: their `__id` is read back.
        let connectionID: [Selection] = [.field("__id", type: .nonNull(.scalar("ID")))] + todos
        #expect(viewer(cursor: .value(.null), inner: connectionID).readsBackFromStore(variables: [:]))
        let edgeID: [Selection] = [
            .field("edges", type: .list(.object("TodoEdge")), selections: [.field("__id", type: .nonNull(.scalar("ID")))])
        ]
        #expect(viewer(cursor: .value(.null), inner: edgeID).readsBackFromStore(variables: [:]))
        #expect(ToDoListQuery.Data.__selections.readsBackFromStore(variables: [:]))
        // `__id` elsewhere is filled in by the executor.
        #expect(!HeroRecordIDQuery.Data.__selections.readsBackFromStore(variables: [:]))
    }

    @Test func clientOnlyFieldsAreReadBack() {
        let selections: [Selection] = [.field("isSelected", type: .scalar("Boolean"), isClientOnly: true)]
        #expect(selections.readsBackFromStore(variables: [:]))
    }
}
