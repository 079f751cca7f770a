/// A command line the parser or a command rejected: what is wrong, and the usage text of the command. Tools
/// answer it with the message, the usage (or a pointer to it) and exit status 64 (`EX_USAGE`).
package struct ArgumentUsageError: Error, Equatable, CustomStringConvertible {
    /// The exit status of a usage error (BSD `sysexits.h`, `EX_USAGE`).
    package static let exitStatus: Int32 = 64

    /// What is wrong with the command line (`unknown option --formt`).
    package var message: String
    /// The command's usage text, when known.
    package var usage: String?

    /// A usage error.
    ///
    /// - Parameters:
    ///   - message: What is wrong with the command line.
    ///   - usage: The command's usage text, when known.
    package init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }

    /// The message.
    package var description: String { message }
}
