import Foundation

/// The trained event classifier: feature standardisation, a small neural network, detection thresholds and
/// the snore-signature projection, read from a model file (`Models/events.bin`).
///
/// File layout: the 8-byte magic `SAEVTMDL`, a little-endian `UInt32` version and `UInt32` header length, a JSON
/// header (classes, sizes, thresholds, tensor table, payload checksum) and the float32 tensors it lists.
/// Version 1 is a multilayer perceptron over the pooled window statistics; version 2 adds a convolutional front
/// over the window's reduced log-mel spectrogram (`sa_event_net`), whose summary joins the statistics. A file may
/// hold several networks (an ensemble, header `members`), whose convolutional fronts may differ (header
/// `memberConvolutions`): the classifier averages their outputs, on every window or, with a cascade gate (header
/// `cascadeGate`), only where the first network hears an event, and per type over all members or over the set the
/// header's `memberTypes` lists for it.
package final class EventClassifierModel: Sendable {
    /// The file's magic bytes.
    static let magic = Array("SAEVTMDL".utf8)
    /// The file versions this build reads (1: perceptron over the statistics, 2: with the convolutional front).
    static let supportedVersions: ClosedRange<UInt32> = 1...2
    /// The sizes a model file may declare (features, frames, hidden units, bands, channels, signature values):
    /// far above any trained model, and low enough that the products of three of them cannot overflow.
    static let sizeLimit = 1...(1 << 16)

    /// The convolutional front of a version-2 model's network.
    struct Convolution: Sendable {
        /// Mel bands per input frame, and the band and frame groups averaged into one input value.
        let melBands: Int
        let bandGroup: Int
        let frameGroup: Int
        /// Output channels per convolution.
        let channels: [Int]
        /// Whether the convolutions run over band and time (3 x 3 kernels, the patch as one input channel) rather
        /// than over time (kernel 3, the patch's bands as input channels).
        let bandTime: Bool
        /// Per input band standardisation of the patch.
        let patchMean: [Float]
        let patchStd: [Float]
        /// A window of log-mel frames (`windowFrames` x `melBands`) the training tool classified: with
        /// `referenceInput` (its statistics) it gives `referenceOutput`.
        let referenceLogMel: [Float]

        /// Whether a network with this front reads the same input as one with `other` (same patch reduction and
        /// standardisation), so that the two can share it.
        func readsTheSameInput(as other: Convolution) -> Bool {
            melBands == other.melBands && bandGroup == other.bandGroup && frameGroup == other.frameGroup
                && patchMean == other.patchMean && patchStd == other.patchStd
        }
    }

    /// The weights of one network of the ensemble.
    struct Member: Sendable {
        /// The network's convolutional front (nil for a version-1 model).
        let convolution: Convolution?
        /// Dense layer sizes, input first (the statistics, after the convolution summary when there is one).
        let layerSizes: [Int]
        /// Weights (output x input x 3 along time, or output x input x 3 along band x 3 along time) and biases per
        /// convolution, batch normalisation folded in (empty for a version-1 model).
        let convolutionWeights: [[Float]]
        let convolutionBiases: [[Float]]
        /// Dense weights (rows = output units) and biases per layer.
        let weights: [[Float]]
        let biases: [[Float]]
    }

    /// Classifier outputs in order; index 0 is "no event", the others are `EventType` raw values.
    let outputNames: [String]
    /// The event type of each output (nil for "no event").
    let outputTypes: [EventType?]
    /// Length of the pooled feature vector.
    let featureCount: Int
    /// Frames per analysis window and frames between window starts.
    let windowFrames: Int
    let windowHopFrames: Int
    /// Log-mel values are clamped to this before pooling.
    let logFloor: Float
    /// The first network's convolutional front, if the model has one.
    var convolution: Convolution? { members[0].convolution }
    /// The first network's dense layer sizes, input first.
    var layerSizes: [Int] { members[0].layerSizes }
    /// The networks whose outputs are averaged (at least one).
    let members: [Member]
    /// For each output, which members' outputs are averaged into it (every member, unless the file's
    /// `memberTypes` lists the output's type; member 0 is always among them). With a cascade gate, only the
    /// listed members that ran count.
    let outputMembers: [[Int]]
    /// When set, the members after the first run only on windows where the first member's highest event
    /// probability is at least this value (elsewhere the first member's output is the model's); nil: all members
    /// run on every window.
    let cascadeGate: Float?
    /// Input standardisation.
    let featureMean: [Float]
    let featureStd: [Float]
    /// Per-type thresholds to open and to keep an event open.
    let onThreshold: [EventType: Float]
    let offThreshold: [EventType: Float]
    /// Events of a type shorter than its minimum duration are dropped (seconds; every type has one).
    let minDuration: [EventType: Double]
    /// Gaps shorter than this between two events of one type merge them (seconds).
    let mergeGap: Double
    /// Snore signature: mean and projection (rows = signature values) of standardised features.
    let signatureMean: [Float]
    let signatureProjection: [[Float]]
    /// A feature vector and the classifier output the training tool computed for it.
    let referenceInput: [Float]
    let referenceOutput: [Float]

    /// The event types this model can report (those with an output).
    package var detectableTypes: Set<EventType> { Set(outputTypes.compactMap { $0 }) }

    /// Loads a model file.
    ///
    /// - Parameter url: The file (`events.bin`).
    /// - Returns: The model.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` when the file cannot be read,
    ///   `.modelIntegrityCheckFailed` when it is truncated, corrupt or of another version.
    package static func load(from url: URL) throws -> EventClassifierModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = error.localizedDescription
            throw SleepCycleSdkError.modelUnavailable("events (\(url.path): \(reason))")
        }
        return try EventClassifierModel(data: data, name: url.lastPathComponent)
    }

    /// The model shipped in the package's `Models/` folder.
    ///
    /// - Returns: The bundled model.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` when the build has no bundled model,
    ///   `.modelIntegrityCheckFailed` when it is corrupt.
    package static func bundled() throws -> EventClassifierModel {
        try load(from: try BundledResources.model("events.bin"))
    }

    /// The name of the model for band-limited audio (`Models/events-band-limited.bin`).
    static let bandLimitedName = "events-band-limited"

    /// The model for band-limited audio shipped in the package's `Models/` folder: the same outputs and windows as
    /// `bundled()`, trained also on 8-kHz and 4-kHz copies of every clip. Sessions run it instead of the full-band
    /// model when their first seconds of sound hold nothing above 4 kHz.
    ///
    /// - Returns: The bundled band-limited model.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` when the build has no bundled model,
    ///   `.modelIntegrityCheckFailed` when it is corrupt.
    package static func bundledBandLimited() throws -> EventClassifierModel {
        try load(from: try BundledResources.model("\(bandLimitedName).bin"))
    }

    /// Parses a model file's bytes.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - name: The name used in error messages.
    /// - Throws: `SleepCycleSdkError.modelIntegrityCheckFailed` when the bytes are not a valid model.
    init(data: Data, name: String = "events") throws {
        let file = try EventModelFile(data: data, name: name)
        let header = file.header
        func fail(_ why: String) -> SleepCycleSdkError { .modelIntegrityCheckFailed("\(name): \(why)") }
        guard header.classes.count >= 2, Set(header.classes).count == header.classes.count else {
            throw fail("classes must be \"no event\" and at least one event type, each named once")
        }
        outputNames = header.classes
        outputTypes = header.classes.enumerated().map { $0.offset == 0 ? nil : EventType(rawValue: $0.element) }
        guard outputTypes.dropFirst().allSatisfy({ $0 != nil }) else { throw fail("unknown class name") }
        featureCount = header.featureCount
        windowFrames = header.windowFrames
        windowHopFrames = header.windowHopFrames
        logFloor = header.logFloor
        let sizes = [featureCount, windowFrames, windowHopFrames, header.convolution?.melBands ?? 1] + header.hidden
        guard sizes.allSatisfy(Self.sizeLimit.contains), (0...Self.sizeLimit.upperBound).contains(header.signatureDim),
            windowHopFrames <= windowFrames
        else {
            throw fail("invalid sizes")
        }
        let memberCount = header.members ?? 1
        guard (1...8).contains(memberCount) else { throw fail("invalid member count \(memberCount)") }
        if let gate = header.cascadeGate {
            guard memberCount > 1, gate.isFinite, gate > 0, gate < 1 else {
                throw fail("invalid cascade gate \(gate) for \(memberCount) member(s)")
            }
        }
        cascadeGate = header.cascadeGate
        func prefix(_ member: Int) -> String { member == 0 ? "" : "member\(member)." }
        let specs: [EventModelHeader.Convolution?]
        if let perMember = header.memberConvolutions {
            guard perMember.count == memberCount, perMember.first == header.convolution else {
                throw fail("memberConvolutions must list every member, the first being `convolution`")
            }
            specs = perMember
        } else {
            specs = Array(repeating: header.convolution, count: memberCount)
        }
        let referenceLogMel =
            header.convolution == nil
            ? [] : try file.tensor("referenceLogMel", count: windowFrames * (header.convolution?.melBands ?? 0))
        var members: [Member] = []
        for (member, spec) in specs.enumerated() {
            var front: Convolution?
            var convolutionWeights: [[Float]] = []
            var convolutionBiases: [[Float]] = []
            var layerSizes = [featureCount] + header.hidden + [header.classes.count]
            if let spec {
                guard file.version >= 2 else { throw fail("a convolution needs file version 2") }
                let specSizes = [spec.melBands, spec.bandGroup, spec.frameGroup] + spec.channels
                guard specSizes.allSatisfy(Self.sizeLimit.contains) else { throw fail("invalid convolution sizes") }
                let inputBands = spec.melBands / spec.bandGroup
                guard inputBands > 0, spec.melBands % spec.bandGroup == 0,
                    spec.melBands == header.convolution?.melBands,
                    windowFrames % spec.frameGroup == 0, !spec.channels.isEmpty, spec.channels.allSatisfy({ $0 > 0 })
                else { throw fail("invalid convolution sizes") }
                let bandTime = spec.bandTime ?? false
                let taps = bandTime ? 9 : 3
                for (layer, channels) in spec.channels.enumerated() {
                    let inputs = layer == 0 ? (bandTime ? 1 : inputBands) : spec.channels[layer - 1]
                    convolutionWeights.append(
                        try file.tensor("\(prefix(member))conv\(layer).weight", count: channels * inputs * taps))
                    convolutionBiases.append(try file.tensor("\(prefix(member))conv\(layer).bias", count: channels))
                }
                // A member's own patch standardisation, else the file's (members with one front share it).
                let patchPrefix = file.contains("\(prefix(member))patchMean") ? prefix(member) : ""
                let patchStd = try file.tensor("\(patchPrefix)patchStd", count: inputBands)
                guard patchStd.allSatisfy({ $0 > 0 }) else { throw fail("invalid patch standardisation") }
                front = Convolution(
                    melBands: spec.melBands, bandGroup: spec.bandGroup, frameGroup: spec.frameGroup,
                    channels: spec.channels, bandTime: bandTime,
                    patchMean: try file.tensor("\(patchPrefix)patchMean", count: inputBands), patchStd: patchStd,
                    referenceLogMel: referenceLogMel)
                layerSizes[0] = 2 * spec.channels[spec.channels.count - 1] + featureCount
            }
            var weights: [[Float]] = []
            var biases: [[Float]] = []
            for layer in 0..<(layerSizes.count - 1) {
                weights.append(
                    try file.tensor(
                        "\(prefix(member))dense\(layer).weight",
                        count: layerSizes[layer + 1] * layerSizes[layer]))
                biases.append(try file.tensor("\(prefix(member))dense\(layer).bias", count: layerSizes[layer + 1]))
            }
            members.append(
                Member(
                    convolution: front, layerSizes: layerSizes, convolutionWeights: convolutionWeights,
                    convolutionBiases: convolutionBiases, weights: weights, biases: biases))
        }
        self.members = members
        var outputMembers = [[Int]](repeating: Array(0..<memberCount), count: header.classes.count)
        for (typeName, listed) in header.memberTypes ?? [:] {
            guard let output = header.classes.firstIndex(of: typeName), output > 0 else {
                throw fail("memberTypes names an unknown type \(typeName)")
            }
            let chosen = Array(Set(listed)).sorted()
            guard chosen.first == 0, chosen.allSatisfy({ $0 < memberCount }) else {
                throw fail("memberTypes for \(typeName) must hold member 0 and existing members only")
            }
            outputMembers[output] = chosen
        }
        self.outputMembers = outputMembers
        featureMean = try file.tensor("featureMean", count: featureCount)
        featureStd = try file.tensor("featureStd", count: featureCount)
        guard featureStd.allSatisfy({ $0 > 0 && $0.isFinite }) else { throw fail("invalid standardisation") }
        var on: [EventType: Float] = [:]
        var off: [EventType: Float] = [:]
        for type in outputTypes.compactMap({ $0 }) {
            guard let onValue = header.onThreshold[type.rawValue], let offValue = header.offThreshold[type.rawValue],
                offValue <= onValue, onValue > 0, onValue <= 1
            else { throw fail("missing or invalid thresholds for \(type)") }
            on[type] = onValue
            off[type] = offValue
        }
        onThreshold = on
        offThreshold = off
        let byType = header.minDurationSecondsByType ?? [:]
        guard header.minDurationSeconds >= 0, byType.values.allSatisfy({ $0 >= 0 && $0.isFinite }),
            byType.keys.allSatisfy({ EventType(rawValue: $0) != nil })
        else { throw fail("invalid minimum durations") }
        minDuration = Dictionary(
            uniqueKeysWithValues: outputTypes.compactMap { $0 }.map {
                ($0, byType[$0.rawValue] ?? header.minDurationSeconds)
            })
        mergeGap = header.mergeGapSeconds
        signatureMean = try file.tensor("signatureMean", count: featureCount)
        let projection = try file.tensor("signatureProjection", count: header.signatureDim * featureCount)
        let width = featureCount
        signatureProjection = (0..<header.signatureDim).map { Array(projection[($0 * width)..<(($0 + 1) * width)]) }
        referenceInput = try file.tensor("referenceInput", count: featureCount)
        referenceOutput = try file.tensor("referenceOutput", count: header.classes.count)
    }
}
