import CSleepDSP
import Foundation

/// The weights of an `sa_event_net` as Swift arrays: one array per convolution and per dense layer.
struct EventNetworkWeights {
    var convolutionWeights: [[Float]]
    var convolutionBiases: [[Float]]
    var patchMean: [Float]
    var patchStd: [Float]
    var denseSizes: [Int32]
    var denseWeights: [[Float]]
    var denseBiases: [[Float]]
    var statMean: [Float]
    var statStd: [Float]
}

/// Calls `sa_event_net_init` with `shape` and `weights` (which it copies), and returns its status and network.
func makeEventNetwork(shape: sa_event_net_shape, weights: EventNetworkWeights) -> (sa_status, OpaquePointer?) {
    var shape = shape
    var network: OpaquePointer?
    let status = withFloatPointers(weights.convolutionWeights) { convW in
        withFloatPointers(weights.convolutionBiases) { convB in
            withFloatPointers(weights.denseWeights) { denseW in
                withFloatPointers(weights.denseBiases) { denseB in
                    weights.denseSizes.withUnsafeBufferPointer { sizes -> sa_status in
                        shape.dense_sizes = sizes.baseAddress
                        var (cw, cb, dw, db) = (convW, convB, denseW, denseB)
                        return sa_event_net_init(
                            &network, &shape, &cw, &cb, weights.patchMean, weights.patchStd, &dw, &db,
                            weights.statMean.isEmpty ? nil : weights.statMean,
                            weights.statStd.isEmpty ? nil : weights.statStd)
                    }
                }
            }
        }
    }
    return (status, network)
}

/// Runs `body` with stable pointers to copies of `arrays`, freed afterwards.
private func withFloatPointers<R>(_ arrays: [[Float]], _ body: ([UnsafePointer<Float>?]) -> R) -> R {
    let copies = arrays.map { array -> UnsafeMutablePointer<Float> in
        let pointer = UnsafeMutablePointer<Float>.allocate(capacity: max(array.count, 1))
        pointer.initialize(from: array, count: array.count)
        return pointer
    }
    defer { copies.forEach { $0.deallocate() } }
    return body(copies.map { UnsafePointer($0) })
}
