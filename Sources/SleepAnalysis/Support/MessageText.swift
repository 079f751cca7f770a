import Foundation

/// Text from outside (file names, fields of a file) made safe to put in a message: every control character —
/// newline, carriage return, escape, the rest of C0 and C1, and DEL — is written as an escape (`\n`, `\r`, `\t`,
/// `\u{1B}`), so that a file named with a newline or a terminal escape code cannot forge a log line or repaint the
/// terminal. Everything else, non-ASCII letters included, is kept.
package enum MessageText {
    /// `text` with its control characters escaped.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A path for messages: `escaped(path)`.
    package static func path(_ url: URL) -> String {
        escaped(url.path)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
