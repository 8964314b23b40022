/// The `grouped` file layout: every generated definition (operation, fragment, schema type) goes
/// into one of a fixed number of files, chosen by a hash of its name.
///
/// Why: a debug build type-checks a module in frontend jobs of at most 25 files each, and every
/// job parses the whole module again. A file per definition makes a large app's module
/// (~1,300 files) cost ~54 jobs' parsing; ~40 definitions a file makes it a few jobs.
/// A definition's file depends only on its own name and the file count, so adding or editing a
/// definition rewrites one file and leaves the others (and their compiled form) as they were;
/// only a change of the file count (the definition count passing a multiple of
/// ``definitionsPerFile``) moves definitions between files.
public enum GroupedLayout {
    /// How many definitions a file holds on average.
    public static let definitionsPerFile = 40

    /// The number of files for `definitions` definitions: at least 1.
    public static func fileCount(definitions: Int) -> Int {
        max(1, (definitions + definitionsPerFile - 1) / definitionsPerFile)
    }

    /// The name of file `index` (from 0) of `count`: `GraphQLDefinitions07.swift`.
    public static func fileName(_ index: Int, of count: Int) -> String {
        let digits = max(2, String(count - 1).count)
        let number = String(index)
        return "GraphQLDefinitions" + String(repeating: "0", count: digits - number.count) + number + ".swift"
    }

    /// The file (from 0) that the definition generated at `path` (`Operations/HeroQuery.swift`)
    /// goes into: the 64-bit FNV-1a hash of the path's UTF-8 bytes, modulo `count`.
    public static func fileIndex(of path: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(max(1, count)))
    }
}
