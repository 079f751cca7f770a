/// The k-th smallest value of an array without sorting it whole, for percentiles taken on a hot path (Hoare's
/// quickselect with a median-of-three pivot: linear on average). It gives the value a sort would put at index k.
enum OrderStatistic {
    /// Reorders `values` so that `values[k]` holds what a sort would put there, nothing before it larger and nothing
    /// after it smaller, and returns that value.
    ///
    /// - Parameters:
    ///   - k: The rank, from 0 (the smallest).
    ///   - values: The values (without NaN), reordered in place.
    /// - Returns: The k-th smallest value, or nil when `k` is not an index of `values`.
    static func select<Value: Comparable>(_ k: Int, in values: inout [Value]) -> Value? {
        guard values.indices.contains(k) else { return nil }
        var low = 0
        var high = values.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            if values[middle] < values[low] { values.swapAt(middle, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[middle] { values.swapAt(high, middle) }
            let pivot = values[middle]
            var left = low
            var right = high
            while left <= right {
                while values[left] < pivot { left += 1 }
                while pivot < values[right] { right -= 1 }
                if left <= right {
                    values.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            // Now values[low...right] <= pivot, values[left...high] >= pivot, and any index between equals it.
            if k <= right {
                high = right
            } else if k >= left {
                low = left
            } else {
                break
            }
        }
        return values[k]
    }
}
