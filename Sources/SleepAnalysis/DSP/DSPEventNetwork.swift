import CSleepDSP

/// Owns one `sa_event_net` (the C event network: convolutions over a window's reduced log-mel spectrogram, joined
/// with the window's pooled statistics, then dense layers and a softmax) and frees it when released. Weights are
/// copied and scratch allocated at creation: no allocation per window. Not thread-safe: use one instance from one
/// task.
final class DSPEventNetwork {
    /// The sizes of a network (see `sa_event_net_shape`).
    struct Shape: Sendable, Hashable {
        /// Bands per input frame; a multiple of `bandGroup`.
        var melBands: Int
        /// Frames per window; a multiple of `frameGroup`.
        var windowFrames: Int
        /// Bands averaged into one network input band.
        var bandGroup: Int
        /// Frames averaged into one network input step.
        var frameGroup: Int
        /// Input values are clamped to this.
        var logFloor: Float
        /// Whether the convolutions run over band and time (3 × 3 kernels) rather than over time alone.
        var bandTime: Bool
        /// Output channels of each convolution (1...`maximumConvolutions` of them).
        var convolutionChannels: [Int]
        /// Pooled statistics appended after the convolution summary.
        var statisticCount: Int
        /// The output width of each dense layer, the last one being the softmax.
        var denseSizes: [Int]
    }

    /// The most convolutions a network may have.
    static let maximumConvolutions = Int(SA_EVENT_NET_MAX_CONVS)

    /// Values in a network input (see `input(logMel:frames:into:)`).
    let inputSize: Int
    private var handle: OpaquePointer?

    /// Creates the C network.
    ///
    /// - Parameters:
    ///   - shape: the sizes.
    ///   - convolutionWeights: per convolution, its kernels, row-major (see `sa_event_net_init`).
    ///   - convolutionBiases: per convolution, one value per output channel.
    ///   - patchMean: per reduced band, the patch standardisation's mean.
    ///   - patchStd: per reduced band, its standard deviation (positive).
    ///   - denseWeights: per dense layer, output width × input width values, row-major.
    ///   - denseBiases: per dense layer, output width values.
    ///   - statisticMean: per statistic, the standardisation's mean.
    ///   - statisticStd: per statistic, its standard deviation (positive).
    /// - Throws: `DSPError` ("sa_event_net_init") for sizes that do not fit, or a memory failure.
    init(
        shape: Shape, convolutionWeights: [[Float]], convolutionBiases: [[Float]], patchMean: [Float],
        patchStd: [Float], denseWeights: [[Float]], denseBiases: [[Float]], statisticMean: [Float],
        statisticStd: [Float]
    ) throws(DSPError) {
        guard shape.convolutionChannels.count <= Self.maximumConvolutions else {
            throw DSPError(.invalidArgument, "sa_event_net_init")
        }
        var channels = [Int32](repeating: 0, count: Self.maximumConvolutions)
        for (index, count) in shape.convolutionChannels.enumerated() { channels[index] = Int32(count) }
        let denseSizes = shape.denseSizes.map { Int32($0) }
        var created: OpaquePointer?
        let status = denseSizes.withUnsafeBufferPointer { sizes in
            var cShape = sa_event_net_shape()
            cShape.mel_bands = Int32(shape.melBands)
            cShape.window_frames = Int32(shape.windowFrames)
            cShape.band_group = Int32(shape.bandGroup)
            cShape.frame_group = Int32(shape.frameGroup)
            cShape.log_floor = shape.logFloor
            cShape.band_time = shape.bandTime ? 1 : 0
            cShape.conv_count = Int32(shape.convolutionChannels.count)
            withUnsafeMutableBytes(of: &cShape.conv_channels) { target in
                channels.withUnsafeBytes { source in
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(target.count)))
                }
            }
            cShape.stat_count = Int32(shape.statisticCount)
            cShape.dense_count = Int32(sizes.count)
            cShape.dense_sizes = sizes.baseAddress
            return convolutionWeights.withLayerPointers { convWeights in
                convolutionBiases.withLayerPointers { convBiases in
                    denseWeights.withLayerPointers { weights in
                        denseBiases.withLayerPointers { biases in
                            sa_event_net_init(
                                &created, &cShape, convWeights, convBiases, patchMean, patchStd, weights, biases,
                                statisticMean, statisticStd)
                        }
                    }
                }
            }
        }
        try DSPError.check(status, "sa_event_net_init")
        handle = created
        inputSize = Int(sa_event_net_input_size(created))
    }

    deinit {
        sa_event_net_destroy(&handle)
    }

    /// Writes the network input of a window (its patch, standardised per band), time-major: networks with the
    /// same shape and patch standardisation can share it.
    ///
    /// - Parameters:
    ///   - logMel: frame-major natural-log mel energies, `frames` × mel bands.
    ///   - frames: frames in the window (1...`windowFrames`).
    ///   - input: where the input goes (at least `inputSize` values).
    /// - Throws: `DSPError` ("sa_event_net_input") for a window length out of range.
    func input(
        logMel: UnsafePointer<Float>?, frames: Int, into input: UnsafeMutableBufferPointer<Float>
    ) throws(DSPError) {
        precondition(input.count >= inputSize, "a network input of inputSize values")
        try DSPError.check(sa_event_net_input(handle, logMel, Int32(frames), input.baseAddress), "sa_event_net_input")
    }

    /// Classifies a window from its network input and pooled statistics.
    ///
    /// - Parameters:
    ///   - input: the window's network input (`inputSize` values, from `input(logMel:frames:into:)`).
    ///   - statistics: the pooled statistics (`statisticCount` values).
    ///   - output: where the softmax output goes (the last dense size).
    /// - Throws: `DSPError` ("sa_event_net_forward_input") when the core refuses the call.
    func forward(
        input: UnsafeBufferPointer<Float>, statistics: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>
    ) throws(DSPError) {
        precondition(input.count >= inputSize, "a network input of inputSize values")
        try DSPError.check(
            sa_event_net_forward_input(handle, input.baseAddress, statistics, output), "sa_event_net_forward_input")
    }
}
