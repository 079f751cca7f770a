import Foundation

/// The unit of an accelerometer CSV file's x, y, z columns. Readings are always delivered in g.
public enum AccelerationUnit: String, Sendable, Hashable, CaseIterable {
    /// Standard gravities (1 g = 9.80665 m/s²).
    case g
    /// Metres per second squared.
    case metersPerSecondSquared = "m/s^2"

    /// Standard gravity in m/s².
    static let standardGravity = 9.80665

    /// Multiply a value in this unit by this to get g.
    var toG: Double {
        switch self {
        case .g: 1
        case .metersPerSecondSquared: 1 / Self.standardGravity
        }
    }

    /// Recognises a unit as written in a file: `g`, `gravity`, `m/s^2`, `m/s2`, `m/s²`, `ms2`, `mps2`, `m s-2`.
    init?(spelling: String) {
        let compact = spelling.lowercased().filter { !$0.isWhitespace }
        switch compact {
        case "g", "gravity", "gs", "g0":
            self = .g
        case "m/s^2", "m/s2", "m/s²", "ms2", "ms^2", "mps2", "ms-2", "m/s/s", "m_s2", "meterspersecondsquared":
            self = .metersPerSecondSquared
        default:
            return nil
        }
    }

    /// The unit a column name states with a suffix (`x_g`, `x_ms2`, `accel_x_mps2`, `x (m/s^2)`), or nil.
    init?(columnName: String) {
        let name = columnName.lowercased().trimmingCharacters(in: .whitespaces)
        if let open = name.lastIndex(of: "("), name.hasSuffix(")") {
            let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
            self.init(spelling: String(inside))
            return
        }
        for suffix in ["_ms2", "_mps2", "_m_s2", "_m/s^2", "_m/s2"] where name.hasSuffix(suffix) {
            self = .metersPerSecondSquared
            return
        }
        if name.hasSuffix("_g") {
            self = .g
            return
        }
        return nil
    }
}
