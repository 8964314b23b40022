import GraphQL

/// Renders a `@refetchable` fragment's `Variables`: a struct with a typed property per variable of
/// its refetch query (but `$id`, which a `node(id:)` refetch takes from the object, and Relay's
/// provided variables, which their providers give), so `refetch` and pagination take typed values.
struct FragmentVariablesRenderer {
    let operations: OperationRenderer

    func render(_ refetchable: RefetchableFragment, query: OperationDefinition, into writer: inout SwiftWriter) throws(CodegenError) {
        var variables: [(name: String, type: String, defaultValue: String?)] = []
        for definition in query.variableDefinitions {
            let name = definition.variable.name.value
            if refetchable.root == .node && name == "id" { continue }
            if name.hasPrefix("__relay_internal__pv__") { continue }
            guard let inputType = operations.inputType(definition.type) else {
                throw CodegenError("unknown type of variable $\(name)", at: .of(definition))
            }
            var defaultValue: String?
            if let value = definition.defaultValue {
                defaultValue = ValueRenderer.defaultValue(value, type: inputType, names: operations.names, index: operations.index)
            }
            if defaultValue == nil, !(inputType is GraphQLNonNull) { defaultValue = "nil" }
            variables.append((name, operations.names.input(inputType), defaultValue))
        }
        writer.block("extension \(refetchable.fragmentName)") { w in
            w.line("/// The values of \(refetchable.fragmentName)'s variables, for `refetch` and pagination.")
            w.block("public struct Variables: BatonAPI.FragmentVariables") { w in
                for variable in variables {
                    w.line("public var \(SwiftNaming.identifier(variable.name)): \(variable.type)")
                }
                if !variables.isEmpty { w.line() }
                let parameters = variables.map { variable in
                    "\(SwiftNaming.identifier(variable.name)): \(variable.type)" + (variable.defaultValue.map { " = \($0)" } ?? "")
                }
                w.block("public init(\(parameters.joined(separator: ", ")))") { body in
                    for variable in variables {
                        body.line("self.\(SwiftNaming.identifier(variable.name)) = \(SwiftNaming.identifier(variable.name))")
                    }
                }
                w.line()
                let entries = variables.map { "\(SwiftNaming.stringLiteral($0.name)): \(SwiftNaming.identifier($0.name))" }
                w.line("public var variables: BatonAPI.GraphQLVariables { [\(entries.isEmpty ? ":" : entries.joined(separator: ", "))] }")
            }
        }
    }
}
