import XCTest

@testable import SleepAnalysis

/// `OrderStatistic.select` gives, for every rank, the value a sort puts there, and partitions around it.
final class OrderStatisticTests: XCTestCase {
    func test_every_rank_of_small_arrays_matches_a_sort() {
        var generator = SplitMix64(seed: 23)
        for count in 1...40 {
            // Few distinct values, so that runs of equal values meet the pivot.
            let values = (0..<count).map { _ in Float(generator.next() % 7) - 3 }
            let sorted = values.sorted()
            for k in 0..<count {
                var work = values
                XCTAssertEqual(OrderStatistic.select(k, in: &work), sorted[k], "rank \(k) of \(count)")
                XCTAssertEqual(work.sorted(), sorted, "the same values, reordered")
                XCTAssertTrue(work[..<k].allSatisfy { $0 <= sorted[k] } && work[k...].allSatisfy { $0 >= sorted[k] })
            }
        }
    }

    func test_a_minute_of_levels_matches_a_sort_and_bad_ranks_give_nil() {
        var generator = SplitMix64(seed: 29)
        for pattern in 0..<3 {
            var values = (0..<6_000).map { _ in -90 + Float(generator.next() % 600_000) / 10_000 }
            if pattern == 1 { values.sort() }  // already in order
            if pattern == 2 { values = values.sorted().reversed() }  // in reverse order
            let sorted = values.sorted()
            for k in [0, 1, 600, 2_999, 5_999] {
                var work = values
                XCTAssertEqual(OrderStatistic.select(k, in: &work), sorted[k], "rank \(k), pattern \(pattern)")
            }
        }
        var empty: [Float] = []
        XCTAssertNil(OrderStatistic.select(0, in: &empty))
        var one: [Float] = [1]
        XCTAssertNil(OrderStatistic.select(1, in: &one))
        XCTAssertNil(OrderStatistic.select(-1, in: &one))
    }
}
