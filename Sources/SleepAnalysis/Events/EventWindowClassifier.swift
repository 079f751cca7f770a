import CSleepDSP
import Foundation

/// Runs the event model on one window of front-end frames: pools the frames into the feature vector
/// (`sa_event_pool_compute`) and evaluates the network (`sa_mlp_forward`). Owns its C state; not shared
/// between threads.
final class EventWindowClassifier {
    /// The model the classifier was built from.
    let model: EventClassifierModel
    /// Mel bands per frame the classifier expects.
    let melBandCount: Int
    private let pooling: EventFeaturePooling
    private var network: OpaquePointer?
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
        var networkHandle: OpaquePointer?
        let sizes = model.layerSizes.map { Int32($0) }
        let status = Self.withPointers(model.weights) { weights in
            Self.withPointers(model.biases) { biases in
                sa_mlp_init(&networkHandle, Int32(sizes.count - 1), sizes, weights, biases, model.featureMean,
                            model.featureStd)
            }
        }
        try Self.check(status)
        network = networkHandle
    }

    deinit {
        sa_mlp_destroy(&network)
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
                let evaluated = sa_mlp_forward(network, featureBuffer.baseAddress, output.baseAddress)
                precondition(evaluated == SA_OK, "network state is valid after init")
            }
        }
    }

    /// Runs the network alone on a feature vector (for the reference check).
    ///
    /// - Parameter input: `model.featureCount` values.
    /// - Returns: The softmax output.
    func evaluateNetwork(_ input: [Float]) -> [Float] {
        var output = [Float](repeating: 0, count: model.outputNames.count)
        _ = sa_mlp_forward(network, input, &output)
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
