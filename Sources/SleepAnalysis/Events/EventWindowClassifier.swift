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
    private var pool: OpaquePointer?
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
        var poolHandle: OpaquePointer?
        try Self.check(sa_event_pool_init(&poolHandle, Int32(melBandCount), Int32(model.windowFrames), model.logFloor))
        pool = poolHandle
        guard Int(sa_event_pool_feature_count(poolHandle)) == model.featureCount else {
            sa_event_pool_destroy(&pool)
            throw SleepCycleSdkError.modelIntegrityCheckFailed(
                "events: model expects \(model.featureCount) features, front end gives \(sa_event_pool_feature_count(poolHandle))")
        }
        var networkHandle: OpaquePointer?
        let sizes = model.layerSizes.map { Int32($0) }
        let status = Self.withPointers(model.weights) { weights in
            Self.withPointers(model.biases) { biases in
                sa_mlp_init(&networkHandle, Int32(sizes.count - 1), sizes, weights, biases, model.featureMean,
                            model.featureStd)
            }
        }
        do {
            try Self.check(status)
        } catch {
            sa_event_pool_destroy(&pool)
            throw error
        }
        network = networkHandle
    }

    deinit {
        sa_event_pool_destroy(&pool)
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
            let pooled = sa_event_pool_compute(pool, logMel, dbfs, Int32(frames), featureBuffer.baseAddress)
            precondition(pooled == SA_OK, "window size is checked by the caller")
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
