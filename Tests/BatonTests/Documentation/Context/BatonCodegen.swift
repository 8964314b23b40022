// BatonCodegen.md: the library's entry point, as the command line calls it.
import BatonCodegen

// MARK: snippet
func snippet() throws {
    /* snippet */
}
