import CZlib
import Foundation

/// An 8-bit RGB or RGBA PNG picture (what Chromium's `--screenshot` writes), decoded with zlib into pixels.
struct PNGImage {
    /// One pixel's colour.
    struct Colour: Equatable {
        var red: Int
        var green: Int
        var blue: Int

        /// The largest difference of one channel from `other`'s.
        func distance(to other: Colour) -> Int {
            max(abs(red - other.red), abs(green - other.green), abs(blue - other.blue))
        }

        /// `#e4572e`.
        init(hex: String) {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            self.init(red: value >> 16 & 0xff, green: value >> 8 & 0xff, blue: value & 0xff)
        }

        init(red: Int, green: Int, blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// This colour at `opacity` over white, as a browser paints it.
        func over(white opacity: Double) -> Colour {
            func blend(_ channel: Int) -> Int { Int((Double(channel) * opacity + 255 * (1 - opacity)).rounded()) }
            return Colour(red: blend(red), green: blend(green), blue: blend(blue))
        }
    }

    /// What went wrong reading a file.
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    let width: Int
    let height: Int
    private let channels: Int
    private let pixels: [UInt8]

    /// Decodes `data`.
    ///
    /// - Throws: `FormatError` for anything but a non-interlaced 8-bit RGB or RGBA PNG.
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) else {
            throw FormatError(description: "not a PNG file")
        }
        var offset = 8
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw FormatError(description: "truncated \(type)") }
            let body = bytes[offset + 8..<offset + 8 + length]
            if type == "IHDR" { header = Array(body) }
            if type == "IDAT" { compressed += body }
            offset += 12 + length
        }
        guard header.count == 13 else { throw FormatError(description: "no IHDR chunk") }
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard header[8] == 8, header[9] == 2 || header[9] == 6, header[12] == 0 else {
            throw FormatError(description: "depth \(header[8]), colour type \(header[9]), interlace \(header[12])")
        }
        channels = header[9] == 6 ? 4 : 3
        pixels = try Self.unfilter(
            Self.inflate(compressed, size: height * (1 + width * channels)), width: width, height: height,
            channels: channels)
    }

    /// The colour at column `x`, row `y`.
    subscript(x: Int, y: Int) -> Colour {
        let index = (y * width + x) * channels
        return Colour(red: Int(pixels[index]), green: Int(pixels[index + 1]), blue: Int(pixels[index + 2]))
    }

    /// Where each colour was painted: the bounding box of the pixels within `tolerance` of it (nil for none), by
    /// the colour's name, in one pass over the picture.
    func boundingBoxes(of colours: [String: Colour], tolerance: Int = 6) -> [String: Box] {
        var boxes: [String: Box] = [:]
        let targets = Array(colours)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = self[x, y]
                for (name, colour) in targets where pixel.distance(to: colour) <= tolerance {
                    boxes[name, default: Box(top: y, bottom: y, left: x, right: x)].include(x: x, y: y)
                }
            }
        }
        return boxes
    }

    /// A rectangle of pixels, edges included.
    struct Box: Equatable {
        var top: Int
        var bottom: Int
        var left: Int
        var right: Int

        mutating func include(x: Int, y: Int) {
            top = min(top, y)
            bottom = max(bottom, y)
            left = min(left, x)
            right = max(right, x)
        }
    }

    private static func inflate(_ compressed: [UInt8], size: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size)
        var length = uLongf(size)
        let status = output.withUnsafeMutableBufferPointer { destination in
            compressed.withUnsafeBufferPointer { source in
                uncompress(destination.baseAddress, &length, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(length) == size else {
            throw FormatError(description: "zlib status \(status), \(length) of \(size) bytes")
        }
        return output
    }

    /// Undoes the per-row filters (none, sub, up, average, Paeth) of the inflated scanlines.
    private static func unfilter(_ data: [UInt8], width: Int, height: Int, channels: Int) throws -> [UInt8] {
        let stride = width * channels
        var pixels = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = data[y * (stride + 1)]
            for i in 0..<stride {
                let raw = Int(data[y * (stride + 1) + 1 + i])
                let left = i >= channels ? Int(pixels[y * stride + i - channels]) : 0
                let up = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let upLeft = y > 0 && i >= channels ? Int(pixels[(y - 1) * stride + i - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = a <= b && a <= c ? left : b <= c ? up : upLeft
                default: throw FormatError(description: "row \(y): filter \(filter)")
                }
                pixels[y * stride + i] = UInt8((raw + predicted) & 0xff)
            }
        }
        return pixels
    }
}
