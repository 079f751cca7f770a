import CSleepDSP
import Foundation
import XCTest

/// The event network with convolutions over band and time (`sa_event_net` with `band_time = 1`), checked against a
/// direct computation of the same network written here loop by loop.
final class EventBandTimeNetworkTests: XCTestCase {
    /// The sizes of one network under test: reduced bands x steps of the patch and the channels of its two
    /// convolutions; three statistics and four output classes after one dense layer.
    private struct Sizes {
        var bands: Int
        var steps: Int
        var channels: [Int]
        let stats = 3
        let classes = 4
    }

    /// Deterministic values in -scale...scale.
    private func values(_ count: Int, seed: UInt64, scale: Float) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * scale
        }
    }

    /// One 3 x 3 convolution with zero padding and ReLU over `input` (steps x bands x inputs, channel fastest);
    /// weights in the training layout (outputs x inputs x 3 bands x 3 steps).
    private func convolve(
        _ input: [Float], steps: Int, bands: Int, inputs: Int, weights: [Float], bias: [Float]
    )
        -> [Float]
    {
        let outputs = bias.count
        var out = [Float](repeating: 0, count: steps * bands * outputs)
        for t in 0..<steps {
            for b in 0..<bands {
                for o in 0..<outputs {
                    var sum = bias[o]
                    for i in 0..<inputs {
                        for kb in 0..<3 {
                            for kt in 0..<3 {
                                let tt = t + kt - 1
                                let bb = b + kb - 1
                                guard tt >= 0, tt < steps, bb >= 0, bb < bands else { continue }
                                let weight = weights[((o * inputs + i) * 3 + kb) * 3 + kt]
                                sum += weight * input[(tt * bands + bb) * inputs + i]
                            }
                        }
                    }
                    out[(t * bands + b) * outputs + o] = max(sum, 0)
                }
            }
        }
        return out
    }

    /// Max-pooling by 2 x 2 (floor) of steps x bands x channels values.
    private func pool(_ input: [Float], steps: Int, bands: Int, channels: Int) -> [Float] {
        var out = [Float](repeating: -.infinity, count: (steps / 2) * (bands / 2) * channels)
        for t in 0..<(steps / 2) {
            for b in 0..<(bands / 2) {
                for c in 0..<channels {
                    for dt in 0..<2 {
                        for db in 0..<2 {
                            let v = input[((2 * t + dt) * bands + 2 * b + db) * channels + c]
                            let index = (t * (bands / 2) + b) * channels + c
                            out[index] = max(out[index], v)
                        }
                    }
                }
            }
        }
        return out
    }

    /// 14 bands x 25 steps, channels 8 and 28: the direct convolution's paths (the C code takes 4 or 8 bands at
    /// a time, so 14 and, after pooling, 7 leave partial blocks; 28 output channels make a 16-channel block, an
    /// 8-channel block and a scalar remainder of 4).
    func test_bandTimeNetwork_matchesADirectComputation() throws {
        try checkAgainstDirectComputation(Sizes(bands: 14, steps: 25, channels: [8, 28]))
    }

    /// 14 bands x 26 steps, channels 8 and 24: the second convolution (8 in, 24 out: multiples of 8) takes the
    /// Winograd path, on 13 x 7 positions (partial 2 x 2 blocks on both edges) with a 16- and an 8-channel block.
    func test_bandTimeNetwork_winogradLayer_matchesADirectComputation() throws {
        try checkAgainstDirectComputation(Sizes(bands: 14, steps: 26, channels: [8, 24]))
    }

    private func checkAgainstDirectComputation(_ sizes: Sizes) throws {
        let (bands, steps, channels, stats, classes) = (
            sizes.bands, sizes.steps, sizes.channels, sizes.stats, sizes.classes
        )
        let input = values(steps * bands, seed: 1, scale: 2)
        let statistics = values(stats, seed: 2, scale: 1)
        let convWeights = [
            values(channels[0] * 1 * 9, seed: 3, scale: 0.6),
            values(channels[1] * channels[0] * 9, seed: 4, scale: 0.3),
        ]
        let convBiases = [values(channels[0], seed: 5, scale: 0.2), values(channels[1], seed: 6, scale: 0.2)]
        let summaryWidth = 2 * channels[1] + stats
        let denseWeights = values(classes * summaryWidth, seed: 7, scale: 0.5)
        let denseBias = values(classes, seed: 8, scale: 0.1)
        let statMean = values(stats, seed: 9, scale: 0.5)
        let statStd = values(stats, seed: 10, scale: 0.4).map { 1 + $0 }

        // Direct computation.
        var activations = convolve(
            input, steps: steps, bands: bands, inputs: 1, weights: convWeights[0],
            bias: convBiases[0])
        activations = pool(activations, steps: steps, bands: bands, channels: channels[0])
        activations = convolve(
            activations, steps: steps / 2, bands: bands / 2, inputs: channels[0],
            weights: convWeights[1], bias: convBiases[1])
        let positions = (steps / 2) * (bands / 2)
        var summary = [Float](repeating: 0, count: 2 * channels[1])
        for c in 0..<channels[1] {
            let column = (0..<positions).map { activations[$0 * channels[1] + c] }
            summary[c] = column.reduce(0, +) / Float(positions)
            summary[channels[1] + c] = column.max()!
        }
        summary += (0..<stats).map { (statistics[$0] - statMean[$0]) / statStd[$0] }
        let logits = (0..<classes).map { k in
            denseBias[k]
                + (0..<summaryWidth).reduce(Float(0)) { $0 + denseWeights[k * summaryWidth + $1] * summary[$1] }
        }
        let top = logits.max()!
        let exps = logits.map { expf($0 - top) }
        let expected = exps.map { $0 / exps.reduce(0, +) }

        // The C network.
        var shape = sa_event_net_shape()
        shape.mel_bands = Int32(bands)
        shape.window_frames = Int32(steps)
        shape.band_group = 1
        shape.frame_group = 1
        shape.log_floor = -18
        shape.band_time = 1
        shape.conv_count = 2
        shape.conv_channels.0 = Int32(channels[0])
        shape.conv_channels.1 = Int32(channels[1])
        shape.stat_count = Int32(stats)
        shape.dense_count = 1
        let weights = EventNetworkWeights(
            convolutionWeights: convWeights, convolutionBiases: convBiases,
            patchMean: [Float](repeating: 0, count: bands), patchStd: [Float](repeating: 1, count: bands),
            denseSizes: [Int32(classes)], denseWeights: [denseWeights], denseBiases: [denseBias], statMean: statMean,
            statStd: statStd)
        var (status, network) = makeEventNetwork(shape: shape, weights: weights)
        XCTAssertEqual(status, SA_OK)
        defer { sa_event_net_destroy(&network) }
        XCTAssertEqual(sa_event_net_input_size(network), Int32(steps * bands))
        var output = [Float](repeating: .nan, count: classes)
        XCTAssertEqual(sa_event_net_forward_input(network, input, statistics, &output), SA_OK)
        for k in 0..<classes { XCTAssertEqual(output[k], expected[k], accuracy: 1e-5, "class \(k)") }
        XCTAssertGreaterThan(expected.max()! - expected.min()!, 0.05, "the test network must not be uniform")
    }

    func test_init_rejectsABandTimeNetworkWithTooFewBandsForItsPooling() {
        var shape = sa_event_net_shape()
        shape.mel_bands = 2
        shape.window_frames = 100
        shape.band_group = 1
        shape.frame_group = 4
        shape.band_time = 1
        shape.conv_count = 3
        shape.conv_channels = (8, 8, 8, 0, 0, 0)
        shape.dense_count = 1
        let kernel = [Float](repeating: 0, count: 8 * 8 * 9)
        let weights = EventNetworkWeights(
            convolutionWeights: [kernel, kernel, kernel], convolutionBiases: [kernel, kernel, kernel],
            patchMean: [0, 0], patchStd: [1, 1], denseSizes: [3], denseWeights: [kernel], denseBiases: [kernel],
            statMean: [], statStd: [])
        let (status, handle) = makeEventNetwork(shape: shape, weights: weights)
        XCTAssertEqual(status, SA_ERR_INVALID_ARGUMENT, "2 bands pooled twice by 2 leave none")
        XCTAssertNil(handle)
    }
}
