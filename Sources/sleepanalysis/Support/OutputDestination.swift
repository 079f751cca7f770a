import Foundation

/// Checks where a command will write its files before it starts the work, so that a night is not analysed for
/// minutes only to find that its report cannot be written: a path that is a folder, a folder that does not exist
/// or cannot be written, or a CSV folder that is a file.
enum OutputDestination {
    /// Checks that `path`, given with `--option`, can be written as a file.
    ///
    /// - Throws: `CommandLineError.usage` naming the option and what is wrong.
    static func checkFile(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw CommandLineError.usage("--\(option) \(path): is a folder; give a file name")
            }
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw CommandLineError.usage("--\(option) \(path): the file cannot be written (permissions)")
            }
            return
        }
        try checkFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path, for: path, option: option)
    }

    /// Checks that `path`, given with `--option`, is a folder that can be written, or can be created.
    ///
    /// - Throws: `CommandLineError.usage` naming the option and what is wrong.
    static func checkFolder(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandLineError.usage("--\(option) \(path): is a file, not a folder")
            }
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw CommandLineError.usage("--\(option) \(path): the folder cannot be written (permissions)")
            }
            return
        }
        // A folder that does not exist yet is created with its parents: the nearest one that exists must be a
        // writable folder.
        var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: ancestor.path), ancestor.path != "/" {
            ancestor.deleteLastPathComponent()
        }
        try checkFolder(ancestor.path, for: path, option: option)
    }

    /// Checks that `folder`, which is to hold `path`, exists and can be written.
    private static func checkFolder(_ folder: String, for path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandLineError.usage("--\(option) \(path): the folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw CommandLineError.usage("--\(option) \(path): the folder \(folder) cannot be written (permissions)")
        }
    }
}
