import GraphQL

/// Renders a `@refetchable` fragment's `Variables`: a struct with a typed property per variable of
/// its refetch query (but `$id`, which a `node(id:)` refetch takes from the object, and Relay's
/// provided variables, which their providers give), so `refetch` and pagination take typed values.
struct FragmentVariablesRenderer {
    let operations: OperationRenderer

    func render(_ refetchable: RefetchableFragment, query: OperationDefinition, into writer: inout SwiftWriter) throws(CodegenError) {
        var variables: [OperationRenderer.Variable] = []
        for definition in query.variableDefinitions {
            let name = definition.variable.name.value
            if refetchable.root == .node && name == "id" { continue }
            if name.hasPrefix("__relay_internal__pv__") { continue }
            variables.append(try operations.variable(definition))
        }
        writer.block("extension \(operations.names.fragmentType(refetchable.fragmentName))") { w in
            w.line("/// The values of \(refetchable.fragmentName)'s variables, for `refetch` and pagination.")
            w.block("public struct Variables: BatonAPI.FragmentVariables") { w in
                OperationRenderer.renderProperties(variables, into: &w)
                w.line()
                let entries = variables.map { "\(SwiftNaming.stringLiteral($0.name)): \(SwiftNaming.identifier($0.name))" }
                w.line("public var variables: BatonAPI.GraphQLVariables { [\(entries.isEmpty ? ":" : entries.joined(separator: ", "))] }")
            }
        }
    }
}
