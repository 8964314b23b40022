/// Where generated test mocks go (`"testMocks"` in `baton.json`): a `Mock<Type>` per object type
/// the documents select, with the fields they select. The mocks import `BatonTesting`, so they are
/// written to a folder of their own: the sources of a test-support target that depends on
/// `BatonTesting` and on the target with the operations (`apiModule`).
public struct TestMocksConfiguration: Sendable, Hashable {
    /// The folder the mock files are written to (relative to `baton.json` there).
    public var outputDirectory: String
    /// The module of the generated operations and schema types, imported by the mocks; `nil` when
    /// the mocks are compiled into that module itself.
    public var apiModule: String?

    /// Mocks written to `outputDirectory`, importing `apiModule`.
    public init(outputDirectory: String, apiModule: String? = nil) {
        self.outputDirectory = outputDirectory
        self.apiModule = apiModule
    }

    /// Reads the `baton.json` value: `{ "output": "…", "apiModule": "MyAPI" }`.
    static func parse(_ value: LocatedJSON, path: String, resolve: (String) -> String) throws(CodegenError) -> TestMocksConfiguration {
        guard case .object(let members) = value.value else {
            throw CodegenError("\"testMocks\" must be an object with \"output\" (and \"apiModule\"), not \(value.kindDescription)", at: value.location(in: path))
        }
        var output: String?
        var apiModule: String?
        for (key, member) in members {
            guard let string = member.stringValue else {
                throw CodegenError("\"testMocks.\(key)\" must be a string, not \(member.kindDescription)", at: member.location(in: path))
            }
            switch key {
            case "output": output = resolve(string)
            case "apiModule": apiModule = string
            default: throw CodegenError("unknown key \"testMocks.\(key)\" (expected output, apiModule)", at: member.location(in: path))
            }
        }
        guard let output else { throw CodegenError("\"testMocks\" needs \"output\": the folder the mocks are written to", at: value.location(in: path)) }
        return TestMocksConfiguration(outputDirectory: output, apiModule: apiModule)
    }
}
