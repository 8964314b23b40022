import ArgumentParser
import BatonCodegen
import Foundation

/// `baton fetch-schema`: downloads a schema with the introspection query.
struct FetchSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-schema",
        abstract: "Downloads a server's schema with the introspection query, as introspection JSON or SDL."
    )

    @Option(name: .long, help: "The GraphQL endpoint.")
    var url: String

    @Option(name: .long, help: "Where to write the schema: a .json file gets the introspection result, anything else SDL.")
    var output: String

    @Option(name: [.customShort("H"), .long], help: "A request header, \"Name: value\". Repeatable (for auth).")
    var header: [String] = []

    @Option(name: .long, help: "Seconds to wait for the server.")
    var timeout: Double = 30

    func run() async throws {
        do {
            guard let endpoint = URL(string: url), endpoint.scheme == "http" || endpoint.scheme == "https" else {
                throw CodegenError("--url must be an http or https URL, not \(url)")
            }
            var headers: [(String, String)] = []
            for line in header {
                guard let colon = line.firstIndex(of: ":") else { throw CodegenError("a header is \"Name: value\", not \(line)") }
                headers.append((String(line[..<colon]).trimmingCharacters(in: .whitespaces), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
            let fetcher = SchemaFetcher(url: endpoint, headers: headers, timeout: timeout)
            let result = try await fetcher.fetch()
            let text = output.hasSuffix(".json") ? result.introspectionJSON : try result.sdl()
            try OutputWriter.writeIfChanged(text, to: output)
            print("baton: wrote \(output)")
        } catch let error as CodegenError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        } catch let errors as CodegenErrors {
            FileHandle.standardError.write(Data((errors.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
