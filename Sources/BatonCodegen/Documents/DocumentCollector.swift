import Foundation

/// Reads the documents named by globs: `.graphql`/`.gql` files whole, `.swift` files for their
/// `graphql("""…""")` literals.
public enum DocumentCollector {
    /// The documents the globs match, each file once; a named file that does not exist, or one
    /// that cannot be read, is an error (all of them are thrown together).
    public static func collect(globs: [String]) throws(CodegenErrors) -> [DocumentSource] {
        var sources: [DocumentSource] = []
        var errors: [CodegenError] = []
        var seen: Set<String> = []
        for glob in globs {
            let paths: [String]
            do throws(CodegenError) {
                paths = try Glob.expand(glob)
            } catch {
                errors.append(error)
                continue
            }
            for path in paths where seen.insert(path).inserted {
                do throws(CodegenError) {
                    if let source = try read(path: path) { sources.append(source) }
                } catch {
                    errors.append(error)
                }
            }
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }
        return sources
    }

    /// The document in one file; an empty document for a Swift file without literals.
    public static func read(path: String) throws(CodegenError) -> DocumentSource? {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CodegenError("cannot read the document: \(error.localizedDescription)", at: SourceLocation(path: path, line: 1, column: 1))
        }
        if path.hasSuffix(".swift") {
            return DocumentSource(path: path, text: try SwiftLiteralExtractor.extract(from: text, path: path) ?? "")
        }
        if path.hasSuffix(".graphql") || path.hasSuffix(".gql") {
            return DocumentSource(path: path, text: text)
        }
        throw CodegenError("not a document (expected .graphql, .gql or .swift)", at: SourceLocation(path: path, line: 1, column: 1))
    }
}
