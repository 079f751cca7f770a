import CSleepDSP

/// Owns one `sa_mlp` (a C multilayer perceptron: standardised input, dense layers with ReLU, softmax output) and
/// frees it when released. Weights are copied at creation; no allocation per call. Not thread-safe: use one
/// instance from one task.
final class DSPPerceptron {
    private var handle: OpaquePointer?

    /// Creates the C network.
    ///
    /// - Parameters:
    ///   - layerSizes: the input width, then each dense layer's output width.
    ///   - weights: per layer, output width × input width values, row-major.
    ///   - biases: per layer, output width values.
    ///   - inputMean: the input is standardised as (x − mean) / std (input width values).
    ///   - inputStd: see `inputMean` (positive).
    /// - Throws: `DSPError` ("sa_mlp_init") for sizes that do not fit, or a memory failure.
    init(
        layerSizes: [Int], weights: [[Float]], biases: [[Float]], inputMean: [Float], inputStd: [Float]
    ) throws(DSPError) {
        let sizes = layerSizes.map { Int32($0) }
        var created: OpaquePointer?
        let status = weights.withLayerPointers { weightPointers in
            biases.withLayerPointers { biasPointers in
                sa_mlp_init(
                    &created, Int32(sizes.count - 1), sizes, weightPointers, biasPointers, inputMean, inputStd)
            }
        }
        try DSPError.check(status, "sa_mlp_init")
        handle = created
    }

    deinit {
        sa_mlp_destroy(&handle)
    }

    /// Runs the network.
    ///
    /// - Parameters:
    ///   - input: the input (its width values).
    ///   - output: where the softmax output goes (the last layer's width values).
    /// - Throws: `DSPError` ("sa_mlp_forward") when the core refuses the call.
    func forward(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) throws(DSPError) {
        try DSPError.check(sa_mlp_forward(handle, input, output), "sa_mlp_forward")
    }
}
