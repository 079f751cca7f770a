import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The machine model and OS version telemetry events carry, read once. Nothing identifying is read: not the
/// host name (`uname` nodename), `/etc/machine-id`, serial numbers or network addresses.
struct MachineDescription: Sendable, Hashable {
    /// The DMI product name (`/sys/devices/virtual/dmi/id/product_name`), else the CPU architecture.
    let model: String
    /// `PRETTY_NAME` from `/etc/os-release` and the kernel release, e.g. `Debian GNU/Linux 12 (bookworm); Linux 6.1.0`.
    let osVersion: String

    /// The description of this machine.
    static let current = MachineDescription(
        model: readDMIProductName() ?? unameField(\.machine) ?? "unknown",
        osVersion: osDescription())

    private static func readDMIProductName() -> String? {
        guard let text = try? String(contentsOfFile: "/sys/devices/virtual/dmi/id/product_name", encoding: .utf8)
        else { return nil }
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    private static func osDescription() -> String {
        var parts: [String] = []
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                parts.append(
                    String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(
                        in: CharacterSet(charactersIn: "\"'")))
            }
        }
        if let release = unameField(\.release) { parts.append("Linux \(release)") }
        return parts.isEmpty ? ProcessInfo.processInfo.operatingSystemVersionString : parts.joined(separator: "; ")
    }

    /// One field of `uname(2)`, as a string.
    private static func unameField<Field>(_ field: KeyPath<utsname, Field>) -> String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        var value = names[keyPath: field]
        let text = withUnsafeBytes(of: &value) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }
}
