import GraphQL

/// Options of generated test mocks.
public struct TestMockOptions: Sendable, Hashable {
    /// The module of the generated operations and schema types, imported by the mocks; `nil` when
    /// they are compiled into that module.
    public var apiModule: String?

    /// Mocks importing `apiModule`.
    public init(apiModule: String? = nil) {
        self.apiModule = apiModule
    }
}

/// Renders test mocks for `BatonTesting`: for every object type the documents can select, a
/// `MockObject` with the fields they select (`Mock<Droid>` in a test), and a `Mock` initializer
/// taking those fields. Interface and union fields take any mock (`any AnyMock`): the concrete
/// mock's type is the object's `__typename`.
struct MockRenderer {
    let index: SchemaIndex
    let names: TypeNames
    let options: TestMockOptions

    /// One file per mocked object type, `Droid+Mock.swift`, in name order.
    func files(for scopes: [SelectionScope]) -> [GeneratedFile] {
        var fields: [String: [String: SchemaIndex.FieldInfo]] = [:]
        var visited: Set<ObjectIdentifier> = []
        func visit(_ scope: SelectionScope) {
            guard visited.insert(ObjectIdentifier(scope)).inserted else { return }
            let objects = index.possibleTypes(of: scope.typeName)
            for object in objects where fields[object] == nil { fields[object] = [:] }
            // `__typename` and `__id` are the mock's own; introspection fields (`__schema`) are set like any other.
            for case .field(let field) in scope.selections where field.name != "__typename" && field.name != "__id" {
                for object in objects {
                    if let info = index.field(field.name, on: object) { fields[object]?[field.name] = info }
                }
            }
            for child in scope.children { visit(child) }
        }
        for scope in scopes { visit(scope) }

        var prelude = GeneratedFile.header + "\nimport BatonAPI\nimport BatonTesting\n"
        if let module = options.apiModule { prelude += "import \(module)\n" }
        return fields.keys.sorted().map { object in
            var writer = SwiftWriter()
            render(object, fields: (fields[object] ?? [:]).values.sorted { $0.name < $1.name }, into: &writer)
            return GeneratedFile(relativePath: "\(object)+Mock.swift", contents: prelude + "\n" + writer.text)
        }
    }

    func render(_ object: String, fields: [SchemaIndex.FieldInfo], into w: inout SwiftWriter) {
        let name = SwiftNaming.identifier(object)
        w.line("/// The `\(object)` object type for test mocks: `BatonTesting.Mock<\(object)>`.")
        w.block("public enum \(name): BatonTesting.MockObject") { t in
            t.line("public static let __typename = \(SwiftNaming.stringLiteral(object))")
            t.line("public static let _mockFields = MockFields()")
            t.line()
            t.line("/// The fields of `\(object)` a mock sets, as the documents select them.")
            t.block("public struct MockFields: Swift.Sendable") { f in
                for field in fields {
                    f.raw(SwiftNaming.docComment(field.description, indent: f.indentation))
                    f.line("public let \(SwiftNaming.identifier(field.name)) = BatonTesting.MockField<\(mockType(field.type))>(\(SwiftNaming.stringLiteral(field.name)))")
                }
            }
        }
        w.line()
        w.block("extension BatonTesting.Mock where O == \(name)") { e in
            e.line("/// A mock `\(object)` with these fields set; the others stay unset.")
            let parameters = fields.map { "\(SwiftNaming.identifier($0.name)): \(optional(mockType($0.type))) = nil" }
            e.block("public init(\(parameters.joined(separator: ", ")))") { b in
                b.line("self.init()")
                for field in fields {
                    let identifier = SwiftNaming.identifier(field.name)
                    b.line("self.\(identifier) = \(identifier)")
                }
            }
        }
    }

    func optional(_ type: String) -> String {
        type.hasPrefix("any ") ? "(\(type))?" : type + "?"
    }

    /// A field's value in a mock: lists keep their elements' nullability, the field itself is
    /// optional (unset) in the mock.
    func mockType(_ type: any GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return mockType(nonNull.ofType) }
        if let list = type as? GraphQLList {
            let element = list.ofType
            if let nonNull = element as? GraphQLNonNull { return "[" + mockType(nonNull.ofType) + "]" }
            return "[" + optional(mockType(element)) + "]"
        }
        guard let named = type as? any GraphQLNamedType else { return "BatonAPI.JSONValue" }
        switch named {
        case is GraphQLObjectType: return "BatonTesting.Mock<\(SwiftNaming.identifier(named.name))>"
        case is GraphQLInterfaceType, is GraphQLUnionType: return "any BatonTesting.AnyMock"
        default: return names.leaf(named)
        }
    }
}
