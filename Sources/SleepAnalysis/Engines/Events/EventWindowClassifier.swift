import Foundation

/// Runs the event model on one window of front-end frames: pools the frames into the feature vector
/// (`EventFeaturePooling`) and evaluates the network: a `DSPEventNetwork` (convolutions over the window's reduced
/// log-mel spectrogram joined with the statistics) per member of a version-2 model, a `DSPPerceptron` (statistics
/// alone) per member of a version-1 model; an ensemble's member outputs are averaged (with a cascade gate, only on
/// windows where the first member hears an event; see `EventClassifierModel.cascadeGate`), per output over the
/// members `EventClassifierModel.outputMembers` lists. Owns its C state; not shared between threads.
final class EventWindowClassifier {
    /// The model the classifier was built from.
    let model: EventClassifierModel
    /// Mel bands per frame the classifier expects.
    let melBandCount: Int
    private let pooling: EventFeaturePooling
    /// One C network per ensemble member: perceptrons (version 1) or convolutional networks (version 2).
    private var perceptrons: [DSPPerceptron] = []
    private var convolutionalNetworks: [DSPEventNetwork] = []
    private var memberOutput: [Float]
    /// The convolutional members' inputs (a window's standardised patch), one per distinct patch layout: members
    /// with the same front and patch standardisation share one.
    private var networkInputs: [[Float]] = []
    /// Which of `networkInputs` each convolutional member reads, and whether it is ready for the current window.
    private var inputOfMember: [Int] = []
    private var inputReady: [Bool] = []
    /// Per member, whether its output enters each model output; per output, 1 / its member count.
    private let memberEntersOutput: [[Bool]]
    private let outputScale: [Float]
    /// The features of the last classified window.
    private(set) var features: [Float]
    /// The probabilities of the last classified window (one per model output).
    private(set) var probabilities: [Float]
    /// Windows classified so far, and those of them on which every member ran (all of them without a cascade
    /// gate): what the benchmark reports as the cascade's pass rate.
    private(set) var windowsClassified = 0
    private(set) var windowsWithEveryMember = 0

    /// Builds the C pooling and network state for a model.
    ///
    /// - Parameters:
    ///   - model: The event model.
    ///   - melBandCount: Mel bands per front-end frame.
    /// - Throws: `SleepCycleSdkError.modelIntegrityCheckFailed` when the model does not fit the front end.
    init(model: EventClassifierModel, melBandCount: Int) throws {
        self.model = model
        self.melBandCount = melBandCount
        features = [Float](repeating: 0, count: model.featureCount)
        probabilities = [Float](repeating: 0, count: model.outputNames.count)
        memberOutput = probabilities
        memberEntersOutput = model.members.indices.map { member in model.outputMembers.map { $0.contains(member) } }
        outputScale = model.outputMembers.map { 1 / Float($0.count) }
        pooling = try EventFeaturePooling(
            melBandCount: melBandCount, maximumFrames: model.windowFrames,
            logFloor: model.logFloor)
        guard pooling.featureCount == model.featureCount else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed(
                "events: the model expects \(model.featureCount) features, pooling gives \(pooling.featureCount)")
        }
        if model.convolution != nil {
            var inputLayouts: [EventClassifierModel.Convolution] = []
            for member in model.members {
                guard let convolution = member.convolution, convolution.melBands == melBandCount else {
                    throw SleepCycleSdkError.modelIntegrityCheckFailed(
                        "events: the model's networks expect \(member.convolution?.melBands ?? 0) mel bands, the front "
                            + "end gives \(melBandCount)")
                }
                let network = try Self.makeConvolutionalNetwork(model: model, convolution: convolution, member: member)
                convolutionalNetworks.append(network)
                if let shared = inputLayouts.firstIndex(where: { $0.readsTheSameInput(as: convolution) }) {
                    inputOfMember.append(shared)
                } else {
                    inputOfMember.append(inputLayouts.count)
                    inputLayouts.append(convolution)
                    networkInputs.append([Float](repeating: 0, count: network.inputSize))
                }
            }
            inputReady = [Bool](repeating: false, count: networkInputs.count)
        } else {
            for member in model.members { perceptrons.append(try Self.makePerceptron(model: model, member: member)) }
        }
    }

    /// The C network of a version-1 model's member: dense layers over the standardised statistics.
    private static func makePerceptron(
        model: EventClassifierModel, member: EventClassifierModel.Member
    ) throws -> DSPPerceptron {
        do throws(DSPError) {
            return try DSPPerceptron(
                layerSizes: member.layerSizes, weights: member.weights, biases: member.biases,
                inputMean: model.featureMean, inputStd: model.featureStd)
        } catch {
            throw integrityError(error)
        }
    }

    /// The C network of a version-2 model's member: convolutions over the window's patch, joined with the
    /// statistics.
    private static func makeConvolutionalNetwork(
        model: EventClassifierModel, convolution: EventClassifierModel.Convolution, member: EventClassifierModel.Member
    ) throws -> DSPEventNetwork {
        guard convolution.channels.count <= DSPEventNetwork.maximumConvolutions else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("events: too many convolutions")
        }
        let shape = DSPEventNetwork.Shape(
            melBands: convolution.melBands, windowFrames: model.windowFrames, bandGroup: convolution.bandGroup,
            frameGroup: convolution.frameGroup, logFloor: model.logFloor, bandTime: convolution.bandTime,
            convolutionChannels: convolution.channels, statisticCount: model.featureCount,
            denseSizes: Array(member.layerSizes.dropFirst()))
        do throws(DSPError) {
            return try DSPEventNetwork(
                shape: shape, convolutionWeights: member.convolutionWeights,
                convolutionBiases: member.convolutionBiases, patchMean: convolution.patchMean,
                patchStd: convolution.patchStd, denseWeights: member.weights, denseBiases: member.biases,
                statisticMean: model.featureMean, statisticStd: model.featureStd)
        } catch {
            throw integrityError(error)
        }
    }

    /// Classifies a window of frames.
    ///
    /// - Parameters:
    ///   - logMel: Frame-major natural-log mel energies, `frames * melBandCount` values.
    ///   - dbfs: One level per frame.
    ///   - frames: Frames in the window, 1...`model.windowFrames`.
    ///   - firstFrame: The number of the window's first frame in the stream (every window classified by one
    ///     classifier must come from one stream), or nil (see `EventFeaturePooling.pool`).
    func classify(logMel: UnsafePointer<Float>, dbfs: UnsafePointer<Float>, frames: Int, firstFrame: Int64? = nil) {
        windowsClassified += 1
        features.withUnsafeMutableBufferPointer { featureBuffer in
            pooling.pool(
                logMel: logMel, dbfs: dbfs, frames: frames, firstFrame: firstFrame,
                into: featureBuffer.baseAddress!)
            let members = probabilities.withUnsafeMutableBufferPointer { output in
                forward(
                    logMel: logMel, frames: frames, statistics: featureBuffer.baseAddress!,
                    into: output.baseAddress!)
            }
            if members == model.members.count { windowsWithEveryMember += 1 }
        }
    }

    /// Runs the network alone on the model's reference input (for the check against the training tool): the
    /// statistics `model.referenceInput` and, for a convolutional model, the log-mel window
    /// `referenceLogMel`.
    ///
    /// - Returns: The softmax output (the members' mean).
    func evaluateReference() -> [Float] {
        var output = [Float](repeating: 0, count: model.outputNames.count)
        let logMel = model.convolution?.referenceLogMel ?? []
        logMel.withUnsafeBufferPointer { window in
            model.referenceInput.withUnsafeBufferPointer { statistics in
                output.withUnsafeMutableBufferPointer { out in
                    _ = forward(
                        logMel: window.baseAddress, frames: model.windowFrames,
                        statistics: statistics.baseAddress!, into: out.baseAddress!)
                }
            }
        }
        return output
    }

    /// Writes the members' mean softmax output for one window (`logMel` is ignored by a version-1 model), or the
    /// first member's output alone when the model's cascade gate holds the others back; an output that
    /// `EventClassifierModel.outputMembers` gives a subset of the members is their mean. Members with the same patch
    /// layout share one network input. Returns how many members ran.
    private func forward(
        logMel: UnsafePointer<Float>?, frames: Int, statistics: UnsafePointer<Float>,
        into output: UnsafeMutablePointer<Float>
    ) -> Int {
        let count = model.outputNames.count
        for slot in inputReady.indices { inputReady[slot] = false }
        run(member: 0, logMel: logMel, frames: frames, statistics: statistics, into: output)
        let memberCount = model.members.count
        guard memberCount > 1 else { return 1 }
        if let gate = model.cascadeGate, Self.highestEvent(output, count: count) < gate { return 1 }
        memberOutput.withUnsafeMutableBufferPointer { member in
            for position in 1..<memberCount {
                run(member: position, logMel: logMel, frames: frames, statistics: statistics, into: member.baseAddress!)
                let enters = memberEntersOutput[position]
                for index in 0..<count where enters[index] { output[index] += member[index] }
            }
        }
        for index in 0..<count { output[index] *= outputScale[index] }
        return memberCount
    }

    /// Runs one member on the window, preparing its network input first if no member before it did.
    private func run(
        member position: Int, logMel: UnsafePointer<Float>?, frames: Int, statistics: UnsafePointer<Float>,
        into target: UnsafeMutablePointer<Float>
    ) {
        do throws(DSPError) {
            if convolutionalNetworks.isEmpty {
                try perceptrons[position].forward(statistics, into: target)
            } else {
                let network = convolutionalNetworks[position]
                let slot = inputOfMember[position]
                try networkInputs[slot].withUnsafeMutableBufferPointer { input throws(DSPError) in
                    if !inputReady[slot] {
                        do throws(DSPError) {
                            try network.input(logMel: logMel, frames: frames, into: input)
                        } catch {
                            preconditionFailure("a window of 1...windowFrames frames")
                        }
                        inputReady[slot] = true
                    }
                    try network.forward(input: UnsafeBufferPointer(input), statistics: statistics, into: target)
                }
            }
        } catch {
            preconditionFailure("network state is valid after init")
        }
    }

    /// The highest probability among the event outputs (every output but the first, "no event").
    private static func highestEvent(_ output: UnsafeMutablePointer<Float>, count: Int) -> Float {
        var highest: Float = 0
        for index in 1..<count where output[index] > highest { highest = output[index] }
        return highest
    }

    /// The error a C network that cannot be built gives: the model does not fit the core.
    private static func integrityError(_ error: DSPError) -> SleepCycleSdkError {
        .modelIntegrityCheckFailed("events: \(error.reason)")
    }
}
