import BatonTestSupport
import Foundation
import Testing

/// Baton's SwiftUI wrappers (Sources/Baton/SwiftUI, under `#if canImport(SwiftUI)`) and seed 001's
/// view compiled on Linux: against a `SwiftUI` module built from the stand-in in
/// Tests/BatonTests/SwiftUIStandIn (SwiftUI's declarations the wrappers use, with Apple's
/// signatures), the whole Baton module is compiled again with the wrappers in, and the view is
/// type-checked against that module.
@Suite("SwiftUI wrappers against a SwiftUI stand-in", .ownThread)
struct SwiftUIStandInTests {
    /// A folder holding the stand-in `SwiftUI` module and a `Baton` module compiled with the
    /// wrappers; built once for the suite's tests. Detached, so that it does not inherit the first
    /// test's `ownThreads` slot marker (see `DocumentationCodeBlockTests.myAPI`).
    static let modules = Task<URL, any Error>.detached {
        let folder = try BuiltModules.temporaryFolder("swiftui")
        let standIn = BuiltModules.packageRoot.appendingPathComponent("Tests/BatonTests/SwiftUIStandIn/SwiftUI.swift")
        let swiftUI = try await BuiltModules.swiftc([
            "-parse-as-library", "-emit-module", "-module-name", "SwiftUI",
            "-emit-module-path", folder.appendingPathComponent("SwiftUI.swiftmodule").path, standIn.path,
        ])
        guard swiftUI.status == 0 else { throw StandInFailure(step: "the SwiftUI stand-in", errors: swiftUI.errors) }
        let sources = BuiltModules.packageRoot.appendingPathComponent("Sources/Baton")
        var files: [String] = []
        let walk = FileManager.default.enumerator(atPath: sources.path)
        while let relative = walk?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(sources.appendingPathComponent(relative).path) }
        }
        let baton = try await BuiltModules.swiftc(
            ["-parse-as-library", "-emit-module", "-module-name", "Baton", "-package-name", BuiltModules.packageName,
             "-emit-module-path", folder.appendingPathComponent("Baton.swiftmodule").path] + files,
            firstSearchPaths: [folder])
        guard baton.status == 0 else { throw StandInFailure(step: "Baton with its SwiftUI wrappers", errors: baton.errors) }
        return folder
    }

    struct StandInFailure: Error, CustomStringConvertible {
        let step: String
        let errors: String
        var description: String { "\(step) did not compile:\n\(errors)" }
    }

    @Test("The wrappers (Query, Mutation, Fragment, RefetchableFragment, PaginationFragment, batonClient) compile against the stand-in")
    func wrappersCompile() async throws {
        let folder = try await Self.modules.value
        let result = try await BuiltModules.typecheck(
            """
            import Baton
            import BatonExampleAPI
            import SwiftUI

            struct Screen: View {
                @Query<HeroNameQuery> var hero: QueryObserver<HeroNameQuery>.State
                @Mutation<ChangeTodoStatusWithCountsMutation> var change: Mutator<ChangeTodoStatusWithCountsMutation>
                @Fragment<TodoDetails> var todo: TodoDetails?
                @RefetchableFragment<TodoListPagination_user> var user: TodoListPagination_user?
                @PaginationFragment<TodoListBackward_user> var backward: TodoListBackward_user?

                var body: some View {
                    Text(todo?.text ?? "").disabled(change.isInFlight || $user.isRefetching || $backward.hasPrevious)
                }
            }

            func install(_ client: BatonClient) -> some View { EmptyView().batonClient(client) }
            """, firstSearchPaths: [folder])
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test("001 @Mutation: struct ToDoItem: View { @Fragment<ToDoItem_item> var item; @Mutation<ChangeTodoStatusMutation> var changeStatus … }")
    func seed001ToDoItemView() async throws {
        let folder = try await Self.modules.value
        // Seed 001's ToDoItem.swift as written (`import RelaySwiftUI` → `import Baton`; the fragment
        // literal is in BatonExampleAPI/Seeds/ToDoItem.swift, where the generator reads it). The
        // seed's `.init(id:complete:)` leaves out the input's `userId` (the page's other snippet
        // passes `userId: "me"`): the stand-in initializer supplies it.
        let result = try await BuiltModules.typecheck(
            """
            import BatonExampleAPI

            extension ChangeTodoStatusInput {
                init(id: String, complete: Bool) { self.init(complete: complete, id: id, userId: "me") }
            }

            // ToDoItem.swift

            import SwiftUI
            import Baton

            struct ToDoItem: View {
                @Fragment<ToDoItem_item> var item
                @Mutation<ChangeTodoStatusMutation> var changeStatus

                var body: some View {
                    if let item = item {
                        HStack {
                            Button {
                                changeStatus.commit(variables: .init(
                                    input: .init(id: item.id, complete: !item.complete)
                                ))
                            } label: {
                                Image(systemName: item.complete ? "checkmark.square" : "square")
                            }
                            .disabled(changeStatus.isInFlight)

                            Text("\\(item.text)")
                        }
                    }
                }
            }
            """, firstSearchPaths: [folder])
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test("001 @Mutation: the convenience extension on Mutation.Mutator with a [String: Any] optimistic response, and its call from the view")
    func seed001ConvenienceExtension() async throws {
        let folder = try await Self.modules.value
        let result = try await BuiltModules.typecheck(
            """
            import BatonExampleAPI
            import SwiftUI
            import Baton

            extension Mutation.Mutator where Operation == ChangeTodoStatusMutation {
                func commit(id: String, complete: Bool) {
                    commit(
                        variables: .init(input: .init(
                            complete: complete,
                            id: id,
                            userId: "me"
                        )),
                        optimisticResponse: [
                            "changeTodoStatus": [
                                "todo": [
                                    "id": id,
                                    "complete": complete,
                                ]
                            ]
                        ]
                    )
                }
            }

            struct ToDoRow: View {
                @Fragment<ToDoItem_item> var item
                @Mutation<ChangeTodoStatusMutation> var changeStatus

                var body: some View {
                    if let todo = item {
                        let id = todo.id
                        Button {
                            changeStatus.commit(
                                id: id,
                                complete: !todo.complete
                            )
                        } label: {
                            Text(todo.text)
                        }
                    }
                }
            }
            """, firstSearchPaths: [folder])
        #expect(result.status == 0, "\(result.errors)")
    }

}
