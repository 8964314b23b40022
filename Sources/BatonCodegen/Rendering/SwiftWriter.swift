/// Accumulates Swift source with four-space indentation.
struct SwiftWriter {
    private(set) var text = ""
    private var level = 0

    var indentation: String { String(repeating: "    ", count: level) }

    mutating func line(_ content: String = "") {
        text += content.isEmpty ? "\n" : indentation + content + "\n"
    }

    /// Lines that already carry their own prefix (doc comments from `SwiftNaming.docComment`).
    mutating func raw(_ content: String) {
        text += content
    }

    mutating func indent() { level += 1 }
    mutating func outdent() { level = max(0, level - 1) }

    /// `header {`, the body indented, `}`.
    mutating func block(_ header: String, _ body: (inout SwiftWriter) -> Void) {
        line(header + " {")
        indent()
        body(&self)
        outdent()
        line("}")
    }
}
