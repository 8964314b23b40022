import Foundation

/// Writes generated files, leaving files whose contents did not change untouched (so
/// incremental builds stay fast) and removing generated files that are no longer produced.
public enum OutputWriter {
    /// What a write did.
    public struct Summary: Sendable, Hashable {
        /// Files written because they are new or changed.
        public var written: [String] = []
        /// Files left alone because their contents were already right.
        public var unchanged: [String] = []
        /// Generated files removed because nothing produces them any more.
        public var removed: [String] = []
        /// What the generation warns about (an unmapped custom scalar); nothing failed.
        public var warnings: [String] = []
    }

    /// Writes `files` under `directory`, touching only what changed.
    public static func write(_ files: [GeneratedFile], to directory: String) throws(CodegenError) -> Summary {
        let fileManager = FileManager.default
        var summary = Summary()
        let expected = Set(files.map(\.relativePath))
        do {
            try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var createdFolders: Set<String> = [directory]
            for file in files {
                let path = (directory as NSString).appendingPathComponent(file.relativePath)
                let data = Data(file.contents.utf8)
                if let existing = fileManager.contents(atPath: path), existing == data {
                    summary.unchanged.append(file.relativePath)
                    continue
                }
                let folder = (path as NSString).deletingLastPathComponent
                if createdFolders.insert(folder).inserted {
                    try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                }
                try replace(path, with: data)
                summary.written.append(file.relativePath)
            }
            if let enumerator = fileManager.enumerator(atPath: directory) {
                while let relative = enumerator.nextObject() as? String {
                    guard relative.hasSuffix(".swift"), !expected.contains(relative) else { continue }
                    let path = (directory as NSString).appendingPathComponent(relative)
                    guard let data = fileManager.contents(atPath: path),
                        String(decoding: data.prefix(GeneratedFile.header.utf8.count), as: UTF8.self) == GeneratedFile.header
                    else { continue }
                    try fileManager.removeItem(atPath: path)
                    summary.removed.append(relative)
                }
            }
        } catch {
            throw CodegenError("cannot write to \(directory): \(error.localizedDescription)")
        }
        return summary
    }

    /// Writes one file unless it already has these contents.
    public static func writeIfChanged(_ contents: String, to path: String) throws(CodegenError) {
        let data = Data(contents.utf8)
        if FileManager.default.contents(atPath: path) == data { return }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try replace(path, with: data)
        } catch {
            throw CodegenError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Replaces the file at `path` in one rename, so a build never reads half a file. It does
    /// not fsync (`Data.write(to:)` does, even without `.atomic`): generated files are rebuilt
    /// from their sources after a crash, and the fsyncs were 5–7% of a large app's generation.
    static func replace(_ path: String, with data: Data) throws {
        let temporary = path + ".baton-tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = writeBytes(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let closed = close(descriptor) == 0
        guard written, closed, rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}

/// `write(2)`, named so because `OutputWriter.write` hides the C function inside the enum.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
