extension Array where Element == [Float] {
    /// Calls `body` with a pointer to the first value of each inner array (a network's per-layer weights or
    /// biases, as the C core's `const float *const *` arguments take them), valid only during the call.
    func withLayerPointers<R>(_ body: ([UnsafePointer<Float>?]) -> R) -> R {
        var pointers: [UnsafePointer<Float>?] = []
        pointers.reserveCapacity(count)
        func nest(_ index: Int) -> R {
            guard index < count else { return body(pointers) }
            return self[index].withUnsafeBufferPointer { layer in
                pointers.append(layer.baseAddress)
                return nest(index + 1)
            }
        }
        return nest(0)
    }
}
