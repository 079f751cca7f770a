import Foundation

/// Tells regular files from the special files that must not be opened as input: reading a FIFO blocks until a
/// writer comes, a device never ends, a directory is not data.
package enum RegularFileCheck {
    /// What the path is when it is not a regular file (after following symbolic links), or nil for a regular
    /// file. A path that cannot be examined (missing, no permission on a parent) also gives nil: opening it
    /// reports that.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: "a directory", "a FIFO (named pipe)", "a character device", "a block device", "a socket", or nil.
    package static func specialKind(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}
