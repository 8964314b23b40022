import BatonTestSupport
import Foundation
import Testing

@testable import BatonCodegen

/// Names real apps give their fragments and operations (issue 28): each failure class found in
/// public apps' GraphQL, reduced to GraphQL of our own, generates Swift that type-checks.
@Suite("Names real apps use", .ownThread)
struct RealAppNameTests {
    static let schema = """
        schema { query: Query }
        type Query { project: Project, projects: [Project!]!, item: Item, items(status: Status, filter: Filter): [Item!]! }
        type Project { id: ID! name: String owner: User project: Project amount: Amount Project: Project }
        type User { id: ID! name: String projects: [Project!] }
        type Amount { value: Float currency: String }
        type Item { id: ID! metadata: Metadata status: Status filter: String }
        scalar Metadata
        enum Status { OPEN CLOSED }
        input Filter { status: Status }
        """

    func generate(_ document: String, namespace: String? = nil) throws -> GeneratedOutput {
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", Self.schema)
        try generation.write("documents.graphql", document)
        return try generation.generate(schemaPaths: [generation.path("schema.graphqls")], options: GenerationOptions(namespace: namespace))
    }

    func file(_ output: GeneratedOutput, _ path: String) -> String {
        output.files.first { $0.relativePath == path }?.contents ?? ""
    }

    /// Apollo Kotlin apps' habit: `project { ...project }`. The fragment's type is reached as
    /// `__project` where a member `project` would hide it.
    @Test func fragmentNamedLikeTheFieldItIsSpreadInto() async throws {
        let output = try generate(
            """
            fragment project on Project { id amount { ...amount } }
            fragment amount on Amount { value currency }
            query Q { project { ...project } }
            """)
        #expect(file(output, "Fragments/project.swift").contains("public typealias __project = project"))
        #expect(file(output, "Operations/QQuery.swift").contains(#".fragment("project", on: __project.__parentType"#))
        try await TypeCheck.generated(output)
    }

    /// A fragment named like a field somewhere else (deeper, in another operation, in the
    /// fragment itself), like a field with other case, or like the members generated types have.
    @Test func fragmentNamedLikeAFieldAtAnotherLevel() async throws {
        let output = try generate(
            """
            fragment owner on User { name projects { ...name } }
            fragment name on Project { name }
            fragment Project on Project { id project { id ...Project_inner } }
            fragment Project_inner on Project { name }
            fragment fragments on Project { id }
            fragment id on Project { id }
            query One { project { owner { ...owner } ...fragments ...id } }
            query Two { projects { Project { ...Project } } }
            """)
        try await TypeCheck.generated(output)
    }

    /// `fragment project` and `fragment Project` spread together: their accessors would both be
    /// `project`; each is its GraphQL name.
    @Test func fragmentsWhoseAccessorsWouldBeTheSame() async throws {
        let output = try generate(
            """
            fragment project on Project { id }
            fragment Project on Project { name }
            query Q { project { ...project ...Project } }
            """)
        let operation = file(output, "Operations/QQuery.swift")
        #expect(operation.contains("public var project: __project { _toFragment() }"))
        #expect(operation.contains("public var Project: __Project { _toFragment() }"))
        try await TypeCheck.generated(output)
    }

    /// A field (aliased or not) named like an operation's or a fragment's Swift type.
    @Test func fieldNamedLikeAGeneratedType() async throws {
        let output = try generate(
            """
            fragment Details on Project { id Details: owner { name } }
            query Three { ThreeQuery: project { id owner { id } ...Details } Details: project { id } }
            """)
        try await TypeCheck.generated(output)
    }

    /// `scalar Metadata` + `fragment Metadata`, `enum Status` + `fragment Status`, an input object
    /// too: the fragment's Swift type is `MetadataFragment`; its `fragmentName` stays `Metadata`.
    @Test func fragmentNamedLikeASchemaScalarEnumOrInputType() async throws {
        let output = try generate(
            """
            fragment Metadata on Item { metadata }
            fragment Status on Item { status }
            fragment Filter on Item { filter }
            query Q($status: Status, $filter: Filter) { item { ...Metadata ...Status ...Filter } items(status: $status, filter: $filter) { id } }
            """)
        let paths = Set(output.files.map(\.relativePath))
        #expect(paths.isSuperset(of: ["Fragments/MetadataFragment.swift", "Fragments/StatusFragment.swift", "Fragments/FilterFragment.swift"]))
        #expect(paths.isSuperset(of: ["Schema/CustomScalars/Metadata.swift", "Schema/Enums/Status.swift", "Schema/InputObjects/Filter.swift"]))
        let fragment = file(output, "Fragments/MetadataFragment.swift")
        #expect(fragment.contains("public struct MetadataFragment: BatonAPI.GraphQLFragment"))
        #expect(fragment.contains(#"public static let fragmentName = "Metadata""#))
        #expect(file(output, "Operations/QQuery.swift").contains("public var metadata: MetadataFragment { _toFragment() }"))
        try await TypeCheck.generated(output)
    }

    /// With a namespace the schema's types live in it: the fragment keeps its name.
    @Test func fragmentNamedLikeASchemaTypeInANamespace() async throws {
        let output = try generate(
            """
            fragment Metadata on Item { metadata status }
            fragment Status on Item { status }
            query Q($status: Status) { item { ...Metadata ...Status } items(status: $status) { id } }
            """, namespace: "API")
        let paths = Set(output.files.map(\.relativePath))
        #expect(paths.isSuperset(of: ["Fragments/Metadata.swift", "Fragments/Status.swift"]))
        try await TypeCheck.generated(output)
    }

    /// Operations and fragments have separate namespaces in GraphQL: `query Project`
    /// (`ProjectQuery`) beside `query ProjectQuery` and `fragment ProjectQuery`, or
    /// `query StatusQuery` beside an enum named the same.
    @Test func operationAndFragmentWithTheSameSwiftName() async throws {
        let schema = Self.schema + "\nenum StatusQuery { A }\n"
        let generation = try Generation()
        defer { generation.remove() }
        try generation.write("schema.graphqls", schema)
        try generation.write(
            "documents.graphql",
            """
            fragment ProjectQuery on Project { id }
            query Project { project { ...ProjectQuery } }
            query ProjectQuery { project { id } }
            query StatusQuery { item { status } }
            fragment StatusQuery on Item { id }
            query UsesStatusQueryFragment { item { ...StatusQuery } }
            """)
        let output = try generation.generate(schemaPaths: [generation.path("schema.graphqls")])
        #expect(file(output, "Operations/ProjectQuery.swift").contains(#"operationName = "ProjectQuery""#))
        #expect(file(output, "Operations/ProjectQueryQuery.swift").contains(#"operationName = "Project""#))
        let paths = Set(output.files.map(\.relativePath))
        #expect(
            paths.isSuperset(of: [
                "Operations/ProjectQuery.swift", "Operations/ProjectQueryQuery.swift", "Operations/StatusQueryQuery.swift",
                "Operations/UsesStatusQueryFragmentQuery.swift",
                "Fragments/ProjectQueryFragment.swift", "Fragments/StatusQueryFragment.swift",
            ]))
        try await TypeCheck.generated(output)
    }

    /// An admin screen's `query EventsIntrospection { __schema { types { … } } }`: the query
    /// root's introspection fields, which no schema declares, are typed like any other (they
    /// were "no field "__schema" on type "Query""); elsewhere they stay an error, as the spec says.
    @Test func introspectionFieldsOnTheQueryRoot() async throws {
        let output = try generate(
            """
            query EventsIntrospection { __schema { queryType { name } types { name kind interfaces { name } description } } }
            query TypeInfo($name: String!) { __type(name: $name) { name kind fields(includeDeprecated: true) { name type { kind ofType { name } } } } }
            """)
        let operation = file(output, "Operations/EventsIntrospectionQuery.swift")
        #expect(operation.contains(#".field("__schema", type: .nonNull(.object("__Schema"))"#))
        #expect(file(output, "Operations/TypeInfoQuery.swift").contains(#".field("__type", type: .object("__Type")"#))
        try await TypeCheck.generated(output)
        #expect(throws: CodegenErrors.self) { try generate("query Q { project { __schema { types { name } } } }") }
    }
}
