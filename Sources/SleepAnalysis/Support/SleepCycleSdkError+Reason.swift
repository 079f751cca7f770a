import Foundation

extension SleepCycleSdkError {
    /// What went wrong: the message a person reads and, where the failure came from a lower layer, its typed
    /// ``Cause`` for code to switch on.
    ///
    /// Where only the message matters, the cases are made from a string
    /// (`throw SleepCycleSdkError.invalidInput("night.csv line 4: …")`); with ``init(_:cause:)`` where the lower
    /// layer's code is known (`.storageFailure(Reason(message, cause: .sqlite(resultCode: 11)))`).
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// The message: file, line, value and what to do, as far as known.
        public var message: String
        /// The lower layer's code, when the failure came from one.
        public var cause: Cause?

        /// A reason with a typed cause.
        ///
        /// - Parameters:
        ///   - message: The message a person reads.
        ///   - cause: The lower layer's code.
        public init(_ message: String, cause: Cause? = nil) {
            self.message = message
            self.cause = cause
        }

        /// The message.
        public var description: String { message }
    }

    /// The lower layer's code behind a failure.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// A SQLite result code (the primary code, `SQLITE_CORRUPT` is 11).
        case sqlite(resultCode: Int32)
        /// An operating-system call failed with this `errno` (`ENOSPC` is 28).
        case system(errno: Int32)
        /// Memory could not be allocated (the DSP core's `SA_ERR_OUT_OF_MEMORY`, SQLite's `SQLITE_NOMEM`).
        case outOfMemory
        /// The DSP core (`CSleepDSP`) returned this `sa_status`.
        case dsp(status: UInt32)
        /// An HTTP server answered with this status.
        case httpStatus(Int)
        /// PostgreSQL reported this SQLSTATE (`57P01`: the server is shutting down).
        case postgres(sqlState: String)

        /// For example "SQLite result code 11".
        public var description: String {
            switch self {
            case .sqlite(let code): "SQLite result code \(code)"
            case .system(let code): "errno \(code) (\(String(cString: strerror(code))))"
            case .outOfMemory: "out of memory"
            case .dsp(let status): "DSP status \(status)"
            case .httpStatus(let status): "HTTP status \(status)"
            case .postgres(let state): "SQLSTATE \(state)"
            }
        }

        /// Whether the same work may succeed when tried again later, unchanged: memory, a busy or locked
        /// database, a full disk, a server's 408, 429 or 5xx, a lost PostgreSQL connection or an overloaded or
        /// restarting server. A damaged file, a refused request or bad data is not.
        public var isTransient: Bool {
            switch self {
            case .outOfMemory: true
            // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_IOERR, SQLITE_FULL
            case .sqlite(let code): [5, 6, 7, 10, 13].contains(code & 0xff)
            case .system(let code): [ENOMEM, EAGAIN, EINTR, ENOSPC, EBUSY, ETIMEDOUT, ECONNRESET].contains(code)
            case .dsp: false
            case .httpStatus(let status): status == 408 || status == 429 || (500...599).contains(status)
            // 08: connection exception; 53: insufficient resources; 57P0x: shutdown; 40001/40P01: retry the
            // transaction.
            case .postgres(let state):
                state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P0")
                    || ["40001", "40P01"].contains(state)
            }
        }
    }

    /// A data source failure with a message only.
    ///
    /// - Parameter message: What failed.
    /// - Returns: `.dataSourceFailure` without a cause.
    public static func dataSourceFailure(_ message: String) -> SleepCycleSdkError {
        .dataSourceFailure(Reason(message))
    }

    /// Malformed input, with a message only.
    ///
    /// - Parameter message: File, line and reason.
    /// - Returns: `.invalidInput` without a cause.
    public static func invalidInput(_ message: String) -> SleepCycleSdkError { .invalidInput(Reason(message)) }

    /// A storage failure with a message only.
    ///
    /// - Parameter message: What could not be read or written.
    /// - Returns: `.storageFailure` without a cause.
    public static func storageFailure(_ message: String) -> SleepCycleSdkError { .storageFailure(Reason(message)) }

    /// A failed model download with a message only.
    ///
    /// - Parameter message: Why.
    /// - Returns: `.resourceDownloadFailed` without a cause.
    public static func resourceDownloadFailed(_ message: String) -> SleepCycleSdkError {
        .resourceDownloadFailed(Reason(message))
    }

    /// The typed cause behind this error, when a lower layer's code is known.
    public var cause: Cause? {
        switch self {
        case .dataSourceFailure(let reason), .invalidInput(let reason), .storageFailure(let reason),
            .resourceDownloadFailed(let reason):
            reason.cause
        default: nil
        }
    }

    /// Whether trying the same work again later may succeed (``Cause/isTransient``); false without a cause.
    public var isTransient: Bool { cause?.isTransient ?? false }
}
