import CSleepDSP
import Foundation
import XCTest

@testable import SleepAnalysis

/// The convolutional event network (`sa_event_net`) and the version-2 model header that describes it.
final class EventNetworkTests: XCTestCase {
    /// A network with one convolution whose weights pick the centre tap of input band 0 for every channel.
    private func makeNetwork(windowFrames: Int = 100) throws -> OpaquePointer? {
        let melBands = 8
        let inputBands = 4
        let channels = 2
        var convWeights = [Float](repeating: 0, count: channels * inputBands * 3)
        for channel in 0..<channels { convWeights[channel * inputBands * 3 + 1] = 1 }
        let convBias = [Float](repeating: 0, count: channels)
        let denseSizes: [Int32] = [3]
        let denseWeights = [Float](repeating: 0, count: 3 * (2 * channels + 1))
        let denseBias: [Float] = [0, 0, 0]
        var shape = sa_event_net_shape()
        shape.mel_bands = Int32(melBands)
        shape.window_frames = Int32(windowFrames)
        shape.band_group = 2
        shape.frame_group = 4
        shape.log_floor = -18
        shape.conv_count = 1
        shape.conv_channels.0 = Int32(channels)
        shape.stat_count = 1
        shape.dense_count = 1
        let weights = EventNetworkWeights(
            convolutionWeights: [convWeights], convolutionBiases: [convBias],
            patchMean: [Float](repeating: 0, count: inputBands), patchStd: [Float](repeating: 1, count: inputBands),
            denseSizes: denseSizes, denseWeights: [denseWeights], denseBiases: [denseBias], statMean: [0],
            statStd: [1])
        let (status, handle) = makeEventNetwork(shape: shape, weights: weights)
        XCTAssertEqual(status, SA_OK)
        return handle
    }

    func test_patch_averagesBandsAndFrames_removesTheMean_andPadsShortWindowsWithTheFloor() throws {
        var network = try makeNetwork()
        defer { sa_event_net_destroy(&network) }
        // 40 frames of 8 bands at 2.0 (with -30, below the floor, in band 7): the other 60 frames are padding.
        var logMel = [Float](repeating: 2, count: 40 * 8)
        for frame in 0..<40 { logMel[frame * 8 + 7] = -30 }
        var patch = [Float](repeating: .nan, count: 25 * 4)
        XCTAssertEqual(sa_event_net_patch(network, logMel, 40, &patch), SA_OK)
        // Steps 0..<10 hold data: bands 0-2 average 2, band 3 averages (2 + -18) / 2 = -8; steps 10..<25 are -18.
        let mean = Float(10 * (3 * 2 + -8) + 15 * 4 * -18) / 100
        XCTAssertEqual(patch[0], 2 - mean, accuracy: 1e-4)
        XCTAssertEqual(patch[3], -8 - mean, accuracy: 1e-4)
        XCTAssertEqual(patch[9 * 4 + 2], 2 - mean, accuracy: 1e-4)
        XCTAssertEqual(patch[10 * 4], -18 - mean, accuracy: 1e-4)
        XCTAssertEqual(patch.reduce(0, +), 0, accuracy: 1e-3)
    }

    func test_forward_isASoftmax_andRejectsAWindowLongerThanTheModel() throws {
        var network = try makeNetwork()
        defer { sa_event_net_destroy(&network) }
        let logMel = (0..<(100 * 8)).map { Float(($0 * 37) % 11) - 5 }
        var output = [Float](repeating: 0, count: 3)
        XCTAssertEqual(sa_event_net_forward(network, logMel, 100, [0.5], &output), SA_OK)
        XCTAssertEqual(output.reduce(0, +), 1, accuracy: 1e-5)
        XCTAssertEqual(output[0], 1.0 / 3, accuracy: 1e-5, "zero dense weights give a uniform output")
        XCTAssertEqual(sa_event_net_forward(network, logMel, 101, [0.5], &output), SA_ERR_INVALID_ARGUMENT)
        XCTAssertEqual(sa_event_net_forward(network, logMel, 0, [0.5], &output), SA_ERR_INVALID_ARGUMENT)
    }

    func test_init_rejectsABandGroupThatDoesNotDivideTheBands() {
        var shape = sa_event_net_shape()
        shape.mel_bands = 64
        shape.window_frames = 100
        shape.band_group = 3
        shape.frame_group = 4
        shape.conv_count = 1
        shape.conv_channels.0 = 4
        shape.dense_count = 1
        var handle: OpaquePointer?
        let sizes: [Int32] = [3]
        let status = sizes.withUnsafeBufferPointer { buffer -> sa_status in
            shape.dense_sizes = buffer.baseAddress
            var none: [UnsafePointer<Float>?] = [nil]
            return sa_event_net_init(&handle, &shape, &none, &none, [1], [1], &none, &none, nil, nil)
        }
        XCTAssertEqual(status, SA_ERR_INVALID_ARGUMENT)
        XCTAssertNil(handle)
    }

    // MARK: - Version-2 header

    /// The bundled model's bytes with its JSON header changed by `edit` (and its file version, when given).
    private func bundledModel(editingHeader edit: (inout [String: Any]) -> Void, version: UInt32? = nil) throws -> Data
    {
        var parts = try EventModelFileParts.bundled()
        edit(&parts.header)
        if let version { parts.version = version }
        return try parts.data()
    }

    func test_bundledModel_isConvolutional() throws {
        let model = try EventClassifierModel.bundled()
        let convolution = try XCTUnwrap(model.convolution)
        XCTAssertEqual(convolution.melBands, 64)
        XCTAssertEqual(model.layerSizes.first, 2 * (convolution.channels.last ?? 0) + model.featureCount)
    }

    func test_load_refusesAConvolutionWhoseBandGroupDoesNotDivideTheBands() throws {
        let data = try bundledModel { header in
            var convolution = header["convolution"] as? [String: Any] ?? [:]
            convolution["bandGroup"] = 3
            header["convolution"] = convolution
        }
        XCTAssertThrowsError(try EventClassifierModel(data: data)) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
        }
    }

    func test_load_refusesAConvolutionInAVersion1File() throws {
        let data = try bundledModel(editingHeader: { _ in }, version: 1)
        XCTAssertThrowsError(try EventClassifierModel(data: data)) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed(let why) = error else {
                return XCTFail("got \(error)")
            }
            XCTAssertTrue(why.contains("version 2"), why)
        }
    }

    func test_load_refusesAFrontEndWithOtherMelBands() throws {
        let model = try EventClassifierModel.bundled()
        XCTAssertThrowsError(try EventWindowClassifier(model: model, melBandCount: 40)) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
        }
    }

    // MARK: - Per-type minimum durations

    func test_load_readsPerTypeMinimumDurations_andFallsBackToTheGlobalOne() throws {
        let data = try bundledModel { header in
            header["minDurationSeconds"] = 0.5
            header["minDurationSecondsByType"] = ["water": 2.0, "wind": 3.0]
        }
        let model = try EventClassifierModel(data: data)
        XCTAssertEqual(model.minDuration[.water], 2.0)
        XCTAssertEqual(model.minDuration[.wind], 3.0)
        XCTAssertEqual(model.minDuration[.snoring], 0.5)
        XCTAssertEqual(Set(model.minDuration.keys), model.detectableTypes)
    }

    func test_load_refusesANegativeOrUnknownTypesMinimumDuration() throws {
        for durations in [["water": -1.0], ["thunder": 1.0]] {
            let data = try bundledModel { $0["minDurationSecondsByType"] = durations }
            XCTAssertThrowsError(try EventClassifierModel(data: data), "\(durations)") { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed(let why) = error else {
                    return XCTFail("got \(error)")
                }
                XCTAssertTrue(why.contains("minimum durations"), why)
            }
        }
    }

    /// The detector applies each type's own minimum: with snoring's raised to 30 s, a 5-s snoring clip in room
    /// tone yields no snoring event, where the shipped model finds it.
    func test_detector_dropsEventsShorterThanTheirTypesMinimum() throws {
        guard let clip = try EventTestSignals.sharedClip("snoring/esc50_snoring_4-180337-A-28.flac") else {
            throw XCTSkip("needs ../shared/data (audio clips)")
        }
        let mixed = EventTestSignals.mix(
            EventTestSignals.scaled(clip, toDbfs: -35),
            into: EventTestSignals.roomTone(seconds: 16, level: -62), at: 6)
        func snoringEvents(_ model: EventClassifierModel) throws -> Int {
            let detector = try EventDetector(model: model, enabledTypes: [.snoring], sessionId: UUID())
            return try EventTestSignals.run(detector, mixed).flatMap(\.ended).filter { $0.type == .snoring }.count
        }
        XCTAssertGreaterThan(try snoringEvents(try EventClassifierModel.bundled()), 0)
        let strict = try EventClassifierModel(
            data: try bundledModel { header in
                var durations = header["minDurationSecondsByType"] as? [String: Double] ?? [:]
                durations["snoring"] = 30
                header["minDurationSecondsByType"] = durations
            })
        XCTAssertEqual(try snoringEvents(strict), 0)
    }
}
