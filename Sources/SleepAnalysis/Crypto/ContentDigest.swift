import Foundation
import Synchronization

/// A fast 64-bit streaming digest of a byte stream: what a replay's inputs are fingerprinted with while they are
/// read, so that a resume can prove it continues the same content.
///
/// Four 64-bit lanes each take every fourth 8-byte word of 32-byte stripes (multiply, rotate, multiply), and the
/// lanes, the byte count and the last partial stripe are folded together at the end. The digest depends on the
/// bytes only, never on how they were split into `update` calls. It tells accidental differences apart (another
/// file, an edited one); it is not a cryptographic hash and does not resist a forger.
struct ContentDigest: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63

    private var lanes = SIMD4<UInt64>(
        0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89)
    /// The bytes of a stripe not yet complete (at most 31), in the low bytes first.
    private var pending = SIMD32<UInt8>()
    private var pendingCount = 0
    /// Bytes taken so far.
    private(set) var byteCount: UInt64 = 0

    /// An empty digest.
    init() {}

    /// Takes `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        byteCount &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            while pendingCount < 32, offset < bytes.count {
                pending[pendingCount] = bytes[offset]
                pendingCount += 1
                offset += 1
            }
            guard pendingCount == 32 else { return }
            let stripe = pending
            withUnsafeBytes(of: stripe) { mix($0.baseAddress!) }
            pendingCount = 0
        }
        while bytes.count - offset >= 32 {
            mix(base + offset)
            offset += 32
        }
        while offset < bytes.count {
            pending[pendingCount] = bytes[offset]
            pendingCount += 1
            offset += 1
        }
    }

    /// Takes the bytes of `values` (floats as their IEEE bit patterns, in the machine's order).
    mutating func update<Value: BitwiseCopyable>(_ values: [Value]) {
        values.withUnsafeBytes { update($0) }
    }

    private mutating func mix(_ stripe: UnsafeRawPointer) {
        let words = SIMD4<UInt64>(
            UInt64(littleEndian: stripe.loadUnaligned(as: UInt64.self)),
            UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
            UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
        var mixed = lanes &+ words &* Self.prime2
        mixed = (mixed &<< 31) | (mixed &>> 33)
        lanes = mixed &* Self.prime1
    }

    /// The digest of everything taken so far, as 16 lower-case hex digits (the digest can go on taking bytes).
    var hex: String {
        var value = byteCount &* Self.prime4
        for lane in 0..<4 {
            value ^= lanes[lane] &* Self.prime2
            value = ((value &<< 27) | (value &>> 37)) &* Self.prime1 &+ Self.prime4
        }
        for index in 0..<pendingCount {
            value ^= UInt64(pending[index]) &* Self.prime3
            value = ((value &<< 11) | (value &>> 53)) &* Self.prime1
        }
        value ^= value >> 33
        value = value &* Self.prime2
        value ^= value >> 29
        value = value &* Self.prime3
        value ^= value >> 32
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The content of each input of a replay read so far: its length (in the input's own unit) and its digest,
/// published by the reading thread and taken by the thread that journals it.
final class ContentTally: Sendable {
    /// One input's content so far.
    struct Entry: Sendable, Hashable {
        /// How much was read, in `unit`s.
        var length: Int64
        /// `frames` for audio, `bytes` for a text file.
        var unit: String
        /// The digest of what was read (`ContentDigest.hex`).
        var digest: String
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// An empty tally.
    init() {}

    /// Records that `name` has been read up to `length` frames (audio) or bytes (any other input), with `digest`.
    func publish(_ name: String, length: Int64, digest: String) {
        let unit = name == "audio" ? "frames" : "bytes"
        entries.withLock { $0[name] = Entry(length: length, unit: unit, digest: digest) }
    }

    /// Forgets everything (a replay that starts again from the beginning).
    func reset() {
        entries.withLock { $0.removeAll() }
    }

    /// Each input's content so far.
    var snapshot: [String: Entry] {
        entries.withLock { $0 }
    }
}
