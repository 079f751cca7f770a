import CSleepDSP
import Foundation

/// Runs the event model on one window of front-end frames: pools the frames into the feature vector
/// (`sa_event_pool_compute`) and evaluates the network: `sa_event_net_forward` (convolutions over the window's
/// reduced log-mel spectrogram joined with the statistics) for a version-2 model, `sa_mlp_forward` (statistics
/// alone) for a version-1 model. Owns its C state; not shared between threads.
final class EventWindowClassifier {
    /// The model the classifier was built from.
    let model: EventClassifierModel
    /// Mel bands per frame the classifier expects.
    let melBandCount: Int
    private let pooling: EventFeaturePooling
    private var network: OpaquePointer?
    private var convolutionalNetwork: OpaquePointer?
    /// The features of the last classified window.
    private(set) var features: [Float]
    /// The probabilities of the last classified window (one per model output).
    private(set) var probabilities: [Float]

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
        pooling = try EventFeaturePooling(melBandCount: melBandCount, maximumFrames: model.windowFrames,
                                          logFloor: model.logFloor)
        guard pooling.featureCount == model.featureCount else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed(
                "events: the model expects \(model.featureCount) features, pooling gives \(pooling.featureCount)")
        }
        if let convolution = model.convolution {
            guard convolution.melBands == melBandCount else {
                throw SleepCycleSdkError.modelIntegrityCheckFailed(
                    "events: the model expects \(convolution.melBands) mel bands, the front end gives \(melBandCount)")
            }
            convolutionalNetwork = try Self.makeConvolutionalNetwork(model: model, convolution: convolution)
        } else {
            network = try Self.makePerceptron(model: model)
        }
    }

    deinit {
        sa_mlp_destroy(&network)
        sa_event_net_destroy(&convolutionalNetwork)
    }

    /// The C network of a version-1 model: dense layers over the standardised statistics.
    private static func makePerceptron(model: EventClassifierModel) throws -> OpaquePointer? {
        var handle: OpaquePointer?
        let sizes = model.layerSizes.map { Int32($0) }
        let status = withPointers(model.weights) { weights in
            withPointers(model.biases) { biases in
                sa_mlp_init(&handle, Int32(sizes.count - 1), sizes, weights, biases, model.featureMean,
                            model.featureStd)
            }
        }
        try check(status)
        return handle
    }

    /// The C network of a version-2 model: convolutions over the window's patch, joined with the statistics.
    private static func makeConvolutionalNetwork(
        model: EventClassifierModel, convolution: EventClassifierModel.Convolution
    ) throws -> OpaquePointer? {
        guard convolution.channels.count <= Int(SA_EVENT_NET_MAX_CONVS) else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("events: too many convolutions")
        }
        let denseSizes = model.layerSizes.dropFirst().map { Int32($0) }
        var channels = [Int32](repeating: 0, count: Int(SA_EVENT_NET_MAX_CONVS))
        for (index, count) in convolution.channels.enumerated() { channels[index] = Int32(count) }
        var handle: OpaquePointer?
        let status = denseSizes.withUnsafeBufferPointer { sizes in
            var shape = sa_event_net_shape()
            shape.mel_bands = Int32(convolution.melBands)
            shape.window_frames = Int32(model.windowFrames)
            shape.band_group = Int32(convolution.bandGroup)
            shape.frame_group = Int32(convolution.frameGroup)
            shape.log_floor = model.logFloor
            shape.conv_count = Int32(convolution.channels.count)
            withUnsafeMutableBytes(of: &shape.conv_channels) { raw in
                channels.withUnsafeBytes { raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(raw.count))) }
            }
            shape.stat_count = Int32(model.featureCount)
            shape.dense_count = Int32(sizes.count)
            shape.dense_sizes = sizes.baseAddress
            return withPointers(convolution.weights) { convWeights in
                withPointers(convolution.biases) { convBiases in
                    withPointers(model.weights) { denseWeights in
                        withPointers(model.biases) { denseBiases in
                            sa_event_net_init(&handle, &shape, convWeights, convBiases, convolution.patchMean,
                                              convolution.patchStd, denseWeights, denseBiases, model.featureMean,
                                              model.featureStd)
                        }
                    }
                }
            }
        }
        try check(status)
        return handle
    }

    /// Classifies a window of frames.
    ///
    /// - Parameters:
    ///   - logMel: Frame-major natural-log mel energies, `frames * melBandCount` values.
    ///   - dbfs: One level per frame.
    ///   - frames: Frames in the window, 1...`model.windowFrames`.
    func classify(logMel: UnsafePointer<Float>, dbfs: UnsafePointer<Float>, frames: Int) {
        features.withUnsafeMutableBufferPointer { featureBuffer in
            pooling.pool(logMel: logMel, dbfs: dbfs, frames: frames, into: featureBuffer.baseAddress!)
            probabilities.withUnsafeMutableBufferPointer { output in
                let evaluated = if let convolutionalNetwork {
                    sa_event_net_forward(convolutionalNetwork, logMel, Int32(frames), featureBuffer.baseAddress,
                                         output.baseAddress)
                } else {
                    sa_mlp_forward(network, featureBuffer.baseAddress, output.baseAddress)
                }
                precondition(evaluated == SA_OK, "network state is valid after init")
            }
        }
    }

    /// Runs the network alone on the model's reference input (for the check against the training tool): the
    /// statistics `model.referenceInput` and, for a convolutional model, the log-mel window
    /// `referenceLogMel`.
    ///
    /// - Returns: The softmax output.
    func evaluateReference() -> [Float] {
        var output = [Float](repeating: 0, count: model.outputNames.count)
        if let convolutionalNetwork, let convolution = model.convolution {
            _ = sa_event_net_forward(convolutionalNetwork, convolution.referenceLogMel, Int32(model.windowFrames),
                                     model.referenceInput, &output)
        } else {
            _ = sa_mlp_forward(network, model.referenceInput, &output)
        }
        return output
    }

    /// The one place where this component's C status codes become Swift errors.
    private static func check(_ status: sa_status) throws {
        guard status == SA_OK else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("events: \(String(cString: sa_status_message(status)))")
        }
    }

    private static func withPointers<R>(
        _ arrays: [[Float]], _ body: ([UnsafePointer<Float>?]) -> R
    ) -> R {
        var pointers: [UnsafePointer<Float>?] = []
        func recurse(_ index: Int) -> R {
            if index == arrays.count { return body(pointers) }
            return arrays[index].withUnsafeBufferPointer { buffer in
                pointers.append(buffer.baseAddress)
                return recurse(index + 1)
            }
        }
        return recurse(0)
    }
}
