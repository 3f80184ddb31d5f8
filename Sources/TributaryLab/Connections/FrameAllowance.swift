/// The frames a sender may still send at once, given back at `perSecond` a second up to a
/// second's worth: one connection's (``WebSocketFrames``) and one block of addresses'
/// (``ConnectionGuard/Count``) allowance, worked out the same way.
struct FrameAllowance: Sendable {
    let perSecond: Int
    private var left: Double
    /// When ``left`` was last worked out, in nanoseconds of uptime; nil before the first frame.
    private var time: UInt64?

    /// A full allowance, less the frames already `spent` before it was set.
    init(perSecond: Int, spent: Int = 0) {
        self.perSecond = perSecond
        left = Double(perSecond - spent)
    }

    /// Whether more frames were spent before the allowance was set than it gives.
    var isOverdrawn: Bool { left < 0 }

    /// Takes `frames` sent `now`; false, taking none, when fewer are left.
    mutating func take(_ frames: Int, at now: UInt64) -> Bool {
        let capacity = Double(perSecond)
        if let then = time, now > then { left = min(capacity, left + Double(now - then) / 1e9 * capacity) }
        time = max(time ?? now, now)
        guard left >= Double(frames) else { return false }
        left -= Double(frames)
        return true
    }
}
