import Foundation

/// What `baton generate` reads and writes: from command-line flags or from a `baton.json`.
public struct CodegenConfiguration: Sendable, Hashable {
    /// How generated code is split into files.
    public enum FileLayout: String, Sendable, Hashable {
        /// One file per operation, fragment and schema type (`Operations/HeroQuery.swift`).
        case perDefinition = "per-definition"
        /// One file per input document (`Name.graphql` → `Name.graphql.swift`) and one
        /// `SchemaTypes.swift`: file names known before generation, as a build plugin needs.
        case perDocument = "per-document"
        /// Operations, fragments and schema types spread over a few files (``GroupedLayout``:
        /// ~40 definitions a file, a definition's file chosen by a hash of its name), the default:
        /// what a large app's module type-checks fastest in, since every frontend job of a debug
        /// build parses every file of the module (a file per definition made a 1,000-definition
        /// app's type-check take 1.2 to 1.4 times the CPU time).
        case grouped
    }

    /// Schema files: SDL (`.graphqls`, `.graphql`) or an introspection result (`.json`). Several
    /// SDL files are read as one schema (a schema and its extensions).
    public var schemaPaths: [String]
    /// Globs of `.graphql` (or `.gql`) documents and of `.swift` files with `graphql("""…""")`
    /// literals. Empty when a `baton.json` names none (the build plugin gives its own). Type
    /// system definitions among the documents (`extend type User { isSelected: Boolean }`) are
    /// client schema extensions, as Relay reads them (see `ClientSchemaExtension`).
    public var documentGlobs: [String]
    /// The folder the Swift files are written to.
    public var outputDirectory: String
    /// When set, schema types are nested in `public enum <namespace>`.
    public var namespace: String?
    /// Where to write the persisted-query manifest, if anywhere.
    public var operationManifestPath: String?
    /// Custom scalars mapped to Swift types conforming to `CustomScalarType`, by GraphQL name.
    public var customScalars: [String: String]
    /// Relay's provided variables (`@argumentDefinitions(x: {type: "Boolean!", provider: "Name"})`)
    /// mapped to Swift types with a `static var value` of the variable's Swift type, by provider name.
    public var providedVariables: [String: String] = [:]
    /// How the generated code is split into files.
    public var fileLayout: FileLayout
    /// Under the `grouped` layout, how many files to write (`nil`: as many as the definitions need).
    public var groupedFileCount: Int?
    /// Which selection sets get memberwise initializers.
    public var selectionSetInitializers: SelectionSetInitializers = .default
    /// Whether and where to write test mocks (`Mock<Type>`, for `BatonTesting`).
    public var testMocks: TestMocksConfiguration?

    /// A configuration; the command line's flags and `baton.json` both make one.
    public init(
        schemaPaths: [String], documentGlobs: [String], outputDirectory: String, namespace: String? = nil,
        operationManifestPath: String? = nil, customScalars: [String: String] = [:],
        fileLayout: FileLayout = .grouped
    ) {
        self.schemaPaths = schemaPaths
        self.documentGlobs = documentGlobs
        self.outputDirectory = outputDirectory
        self.namespace = namespace
        self.operationManifestPath = operationManifestPath
        self.customScalars = customScalars
        self.fileLayout = fileLayout
    }

    /// Reads a `baton.json`. Relative paths in it are relative to the file's folder:
    ///
    /// ```json
    /// { "schema": "schema.graphqls", "documents": ["**/*.graphql"], "output": "Generated",
    ///   "namespace": "API", "operationManifest": "manifest.json", "customScalars": { "Date": "Foundation.Date" } }
    /// ```
    public static func load(path: String) throws(CodegenError) -> CodegenConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CodegenError("cannot read the configuration file: \(error.localizedDescription)", at: SourceLocation(path: path, line: 1, column: 1))
        }
        return try parse(text, path: path)
    }

    /// Parses the text of a `baton.json` found at `path`.
    public static func parse(_ text: String, path: String) throws(CodegenError) -> CodegenConfiguration {
        let json = try LocatedJSON.parse(text, path: path)
        guard case .object(let members) = json.value else {
            throw CodegenError("the configuration must be a JSON object", at: json.location(in: path))
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        func resolve(_ relative: String) -> String {
            relative.hasPrefix("/") ? relative : (base as NSString).appendingPathComponent(relative)
        }
        func strings(_ value: LocatedJSON, _ key: String) throws(CodegenError) -> [String] {
            if let string = value.stringValue { return [string] }
            guard let array = value.arrayValue else {
                throw CodegenError("\"\(key)\" must be a string or an array of strings, not \(value.kindDescription)", at: value.location(in: path))
            }
            var result: [String] = []
            for element in array {
                guard let string = element.stringValue else {
                    throw CodegenError("\"\(key)\" must hold strings, not \(element.kindDescription)", at: element.location(in: path))
                }
                result.append(string)
            }
            return result
        }
        func string(_ value: LocatedJSON, _ key: String) throws(CodegenError) -> String {
            guard let string = value.stringValue else {
                throw CodegenError("\"\(key)\" must be a string, not \(value.kindDescription)", at: value.location(in: path))
            }
            return string
        }
        var schema: [String]?
        var documents: [String]?
        var output: String?
        var configuration = CodegenConfiguration(schemaPaths: [], documentGlobs: [], outputDirectory: "")
        for (key, value) in members {
            switch key {
            case "schema": schema = try strings(value, key).map(resolve)
            case "documents": documents = try strings(value, key).map(resolve)
            case "output": output = resolve(try string(value, key))
            case "namespace": configuration.namespace = try string(value, key)
            case "operationManifest": configuration.operationManifestPath = resolve(try string(value, key))
            case "layout":
                let raw = try string(value, key)
                guard let layout = FileLayout(rawValue: raw) else {
                    throw CodegenError(
                        "\"layout\" must be \"per-definition\", \"per-document\" or \"grouped\", not \"\(raw)\"", at: value.location(in: path))
                }
                configuration.fileLayout = layout
            case "customScalars":
                guard case .object(let scalars) = value.value else {
                    throw CodegenError("\"customScalars\" must be an object of GraphQL names to Swift types", at: value.location(in: path))
                }
                for (name, swiftType) in scalars {
                    configuration.customScalars[name] = try string(swiftType, "customScalars.\(name)")
                }
            case "providedVariables":
                guard case .object(let providers) = value.value else {
                    throw CodegenError("\"providedVariables\" must be an object of provider names to Swift types", at: value.location(in: path))
                }
                for (name, swiftType) in providers {
                    configuration.providedVariables[name] = try string(swiftType, "providedVariables.\(name)")
                }
            case "selectionSetInitializers":
                configuration.selectionSetInitializers = try SelectionSetInitializers.parse(value, path: path)
            case "testMocks":
                configuration.testMocks = try TestMocksConfiguration.parse(value, path: path, resolve: resolve)
            default:
                throw CodegenError(
                    "unknown key \"\(key)\" (expected schema, documents, output, namespace, operationManifest, customScalars, providedVariables, layout, selectionSetInitializers, testMocks)",
                    at: value.location(in: path))
            }
        }
        guard let schema, !schema.isEmpty else { throw CodegenError("the configuration needs \"schema\"", at: json.location(in: path)) }
        // No "documents" is fine when they come from elsewhere: the build plugin passes its own,
        // as `--documents` does on the command line.
        configuration.schemaPaths = schema
        configuration.documentGlobs = documents ?? []
        configuration.outputDirectory = output ?? base
        return configuration
    }
}
