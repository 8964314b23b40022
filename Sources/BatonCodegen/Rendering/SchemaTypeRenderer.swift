import GraphQL

/// Renders enums, input objects and custom scalars.
struct SchemaTypeRenderer {
    let names: TypeNames
    let index: SchemaIndex

    func renderEnum(_ type: GraphQLEnumType, into writer: inout SwiftWriter) {
        writer.raw(SwiftNaming.docComment(type.description, indent: writer.indentation))
        writer.block("public enum \(SwiftNaming.identifier(type.name)): Swift.String, BatonAPI.EnumType") { w in
            for (name, value) in enumCases(type) {
                var doc = value.description ?? ""
                if let reason = value.deprecationReason {
                    doc += (doc.isEmpty ? "" : "\n\n") + "Deprecated: \(reason)"
                }
                w.raw(SwiftNaming.docComment(doc, indent: w.indentation))
                w.line("case \(SwiftNaming.identifier(name)) = \(SwiftNaming.stringLiteral(value.name))")
            }
        }
    }

    /// Each case's Swift name, as the enum declares it: the camel-case name (`NEW_HOPE` →
    /// `newHope`); where two values have the same one (`BOTTOM` and `bottom`, enum values are
    /// case-sensitive), the value already so spelled keeps it and the other takes its GraphQL name
    /// (`BOTTOM`), numbered if even that is taken.
    private func enumCases(_ type: GraphQLEnumType) -> [(name: String, value: GraphQLEnumValueDefinition)] {
        let preferred = type.values.map { SwiftNaming.safeIdentifierStart(SwiftNaming.enumCase($0.name)) }
        var used = Set(zip(preferred, type.values).filter { $0.0 == $0.1.name }.map(\.0))
        return zip(preferred, type.values).map { preferred, value in
            if preferred == value.name { return (preferred, value) }
            var name = preferred
            if !used.insert(name).inserted {
                let fallback = SwiftNaming.safeIdentifierStart(value.name)
                name = fallback
                var counter = 2
                while !used.insert(name).inserted {
                    name = fallback + String(counter)
                    counter += 1
                }
            }
            return (name, value)
        }
    }

    /// Top-level shorthands so a case is written as it is in Swift wherever an input takes the
    /// enum: `HeroNameQuery(episode: .empire)` for `GraphQLNullable<GraphQLEnum<Episode>>`, and
    /// `.empire` for `GraphQLEnum<Episode>`. A case whose name the wrapper already uses (`none`,
    /// `null`, `some`, `unknown`, …) gets none there: `.some(.case(.none))` still works.
    func renderEnumShorthands(_ type: GraphQLEnumType, into writer: inout SwiftWriter) {
        let swiftType = names.schemaType(type.name)
        let cases = enumCases(type).map(\.name)
        let takenByEnum: Set<String> = ["case", "unknown", "rawValue", "value", "description", "none", "init", "self", "Type"]
        let takenByNullable: Set<String> = ["none", "null", "some", "unwrapped", "init", "self", "Type"]
        let enumShorthands = cases.filter { !takenByEnum.contains($0) }
        let nullableShorthands = cases.filter { !takenByNullable.contains($0) }
        if !enumShorthands.isEmpty {
            writer.line()
            writer.block("extension BatonAPI.GraphQLEnum where T == \(swiftType)") { w in
                for name in enumShorthands {
                    let identifier = SwiftNaming.identifier(name)
                    w.line("public static var \(identifier): Self { .case(.\(identifier)) }")
                }
            }
        }
        if !nullableShorthands.isEmpty {
            writer.line()
            writer.block("extension BatonAPI.GraphQLNullable where Wrapped == BatonAPI.GraphQLEnum<\(swiftType)>") { w in
                for name in nullableShorthands {
                    let identifier = SwiftNaming.identifier(name)
                    w.line("public static var \(identifier): Self { .some(.case(.\(identifier))) }")
                }
            }
        }
    }

    func renderInputObject(_ type: GraphQLInputObjectType, into writer: inout SwiftWriter) {
        let fields: [(name: String, type: String, description: String?, isOptional: Bool)] = ((try? type.fields()) ?? [:]).map { name, field in
            let optional = !(field.type is GraphQLNonNull) || field.defaultValue != nil
            let swiftType = optional ? "BatonAPI.GraphQLNullable<\(names.input((field.type as? GraphQLNonNull)?.ofType ?? field.type).strippingNullable)>" : names.input(field.type)
            return (name, swiftType, field.description, optional)
        }
        writer.raw(SwiftNaming.docComment(type.description, indent: writer.indentation))
        writer.block("public struct \(SwiftNaming.identifier(type.name)): BatonAPI.InputObject") { w in
            w.line("public private(set) var __data: BatonAPI.InputDict")
            w.line()
            w.block("public init(_ data: BatonAPI.InputDict)") { body in
                body.line("__data = data")
            }
            w.line()
            w.line("public init(")
            w.indent()
            for (offset, field) in fields.enumerated() {
                let comma = offset == fields.count - 1 ? "" : ","
                w.line("\(SwiftNaming.identifier(field.name)): \(field.type)\(field.isOptional ? " = nil" : "")\(comma)")
            }
            w.outdent()
            w.block(")") { body in
                body.line("__data = BatonAPI.InputDict([")
                body.indent()
                for field in fields {
                    body.line("\(SwiftNaming.stringLiteral(field.name)): \(SwiftNaming.identifier(field.name)),")
                }
                body.outdent()
                body.line("])")
            }
            for field in fields {
                w.line()
                w.raw(SwiftNaming.docComment(field.description, indent: w.indentation))
                w.block("public var \(SwiftNaming.identifier(field.name)): \(field.type)") { accessor in
                    accessor.line("get { __data[\(SwiftNaming.stringLiteral(field.name))] }")
                    accessor.line("set { __data[\(SwiftNaming.stringLiteral(field.name))] = newValue }")
                }
            }
        }
    }

    func renderCustomScalar(_ type: GraphQLScalarType, into writer: inout SwiftWriter) {
        writer.raw(SwiftNaming.docComment(type.description, indent: writer.indentation))
        writer.line("public typealias \(SwiftNaming.identifier(type.name)) = \(names.customScalars[type.name] ?? "Swift.String")")
    }
}

extension String {
    /// `GraphQLNullable<T>` → `T`.
    var strippingNullable: String {
        if hasPrefix("BatonAPI.GraphQLNullable<"), hasSuffix(">") { return String(dropFirst("BatonAPI.GraphQLNullable<".count).dropLast()) }
        return self
    }
}
