import Foundation

// The seed samples' listener and clip receiver guard their state with a lock, and the seed-sample tests read that
// state while the analysis thread writes it. Listeners are `sending`, so a listener the caller keeps using must be
// `Sendable`; these declarations say so for the two classes, whose file (the seed's samples, kept unchanged) does
// not. `@unchecked`: the compiler cannot see the lock.

extension MyAudioListener: @unchecked Sendable {}

extension MyAudioHandler: @unchecked Sendable {}
