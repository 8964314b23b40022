import BatonDigest
import Foundation
import GraphQL

/// Renders an operation type: document, identifier, variables and its `Data`.
struct OperationRenderer {
    let selectionSets: SelectionSetRenderer
    let fragments: [String: FragmentDefinition]
    let arguments: FragmentArgumentTable
    /// The documents as a server sees them (client-only fields left out); `nil`: as written.
    var stripper: ClientFieldStripper?
    var names: TypeNames { selectionSets.names }
    var index: SchemaIndex { selectionSets.index }

    /// The operation's minimal document as sent: the operation, then the fragments it uses,
    /// client-only fields left out.
    func document(_ operation: OperationDefinition) -> String {
        guard let stripper, let rootType = index.rootTypeNames[GraphQLOperationType(operation.operation)] else {
            return DocumentPrinter.document(operation, fragments: fragments, arguments: arguments)
        }
        return DocumentPrinter.document(
            stripper.operation(operation, rootType: rootType), fragments: stripper.fragments, arguments: arguments)
    }

    /// Whether the operation selects only client-only fields: it is never sent, so it has no
    /// place in the operation manifest.
    func isClientOnly(_ operation: OperationDefinition) -> Bool {
        guard let stripper, let rootType = index.rootTypeNames[GraphQLOperationType(operation.operation)] else { return false }
        return stripper.isClientOnly(operation, rootType: rootType)
    }

    /// The SHA-256 of `text`'s UTF-8 bytes, in lowercase hexadecimal: an operation's identifier.
    static func sha256(_ text: String) -> String {
        SHA256.hexDigest(text)
    }

    /// A multi-line string literal's body line: backslashes and `"""` escaped.
    static func multilineLiteralLine(_ line: String) -> String {
        line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
    }

    func render(_ operation: OperationDefinition, typeName: String, scope: SelectionScope, into writer: inout SwiftWriter) throws(CodegenError) {
        let type = GraphQLOperationType(operation.operation)
        let protocolName: String
        switch type {
        case _ where operation.directives.contains { $0.name.value == ClientDirectives.localCacheMutation }:
            protocolName = "BatonAPI.LocalCacheMutation"
        case .query: protocolName = "BatonAPI.GraphQLQuery"
        case .mutation: protocolName = "BatonAPI.GraphQLMutation"
        case .subscription: protocolName = "BatonAPI.GraphQLSubscription"
        }
        let document = document(operation)
        var variables: [Variable] = []
        for definition in operation.variableDefinitions { variables.append(try variable(definition)) }
        // Relay's provided variables: the value of a provider mapped to a Swift type, else a
        // parameter of the operation named after the provider.
        var providedEntries: [(key: String, expression: String)] = []
        for provided in DocumentPrinter.providedVariables(operation, fragments: fragments, arguments: arguments) {
            guard let inputType = inputType(provided.type) else {
                throw CodegenError("unknown type \(provided.typeText) of the provided variable \(provided.provider)", at: .of(operation))
            }
            let swiftType = names.input(inputType)
            if let providerType = names.providedVariables[provided.provider] {
                providedEntries.append((provided.variableName, "(\(providerType).value as \(swiftType))"))
            } else {
                let parameter = SwiftNaming.lowerCamel(String(provided.variableName.dropFirst("__relay_internal__pv__".count)))
                variables.append((parameter, swiftType, inputType is GraphQLNonNull ? nil : "nil"))
                providedEntries.append((provided.variableName, SwiftNaming.identifier(parameter)))
            }
        }

        // A mutation without variables is made with `init()`: a mutator's `commit()`.
        let conformance = protocolName == "BatonAPI.GraphQLMutation" && variables.isEmpty
            ? "BatonAPI.GraphQLMutationWithoutVariables" : protocolName
        writer.block("public struct \(typeName): \(conformance)") { w in
            w.line("public static let operationName = \(SwiftNaming.stringLiteral(operation.name?.value ?? ""))")
            w.line("public static let operationDocument = \"\"\"")
            w.indent()
            for line in document.split(separator: "\n") { w.line(Self.multilineLiteralLine(String(line))) }
            w.line("\"\"\"")
            w.outdent()
            w.line("public static let operationIdentifier = \"\(Self.sha256(document))\"")
            w.line()
            if variables.isEmpty {
                w.line("public init() {}")
                if !providedEntries.isEmpty {
                    w.line()
                    let entries = providedEntries.map { "\(SwiftNaming.stringLiteral($0.key)): \($0.expression)" }
                    w.line("public var variables: BatonAPI.GraphQLVariables? { [\(entries.joined(separator: ", "))] }")
                }
            } else {
                Self.renderProperties(variables, into: &w)
                w.line()
                let entries = variables.filter { variable in !providedEntries.contains { $0.expression == SwiftNaming.identifier(variable.name) } }
                    .map { "\(SwiftNaming.stringLiteral($0.name)): \(SwiftNaming.identifier($0.name))" }
                    + providedEntries.map { "\(SwiftNaming.stringLiteral($0.key)): \($0.expression)" }
                w.line("public var variables: BatonAPI.GraphQLVariables? { [\(entries.joined(separator: ", "))] }")
            }
            w.line()
            selectionSets.render(scope, into: &w)
        }
    }

    /// A variable as generated code declares it: its name, its Swift type, and its default value
    /// as Swift (`nil` for an optional without one).
    typealias Variable = (name: String, type: String, defaultValue: String?)

    /// The Swift form of a variable definition.
    func variable(_ definition: VariableDefinition) throws(CodegenError) -> Variable {
        guard let inputType = inputType(definition.type) else {
            throw CodegenError("unknown type of variable $\(definition.variable.name.value)", at: .of(definition))
        }
        var defaultValue = definition.defaultValue.flatMap { ValueRenderer.defaultValue($0, type: inputType, names: names, index: index) }
        if defaultValue == nil, !(inputType is GraphQLNonNull) { defaultValue = "nil" }
        return (definition.variable.name.value, names.input(inputType), defaultValue)
    }

    /// A stored property per variable, then the memberwise initializer with the defaults.
    static func renderProperties(_ variables: [Variable], into w: inout SwiftWriter) {
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
    }

    func inputType(_ type: any GraphQL.`Type`) -> (any GraphQLType)? {
        switch type {
        case let named as NamedType: return index.schema.getType(name: named.name.value)
        case let list as ListType: return inputType(list.type).map { GraphQLList($0) }
        case let nonNull as NonNullType: return inputType(nonNull.type).flatMap { try? GraphQLNonNull($0) }
        default: return nil
        }
    }
}
