/// The receiver stages of one recording, in order, with their state (see `Channel.stages`).
package struct ChannelChain: Sendable {
    /// Stages applied to the noise-free signal.
    var signal: [any ChannelStage]
    /// Stages applied to the receiver noise alone.
    var noise: [any ChannelStage]
    /// Stages applied to signal plus receiver noise.
    var received: [any ChannelStage]

    /// The chain of `channel` at `sampleRate`, its randomness from `generator`.
    package init(_ channel: Channel, sampleRate: Double, generator: SeededGenerator) {
        (signal, noise, received) = channel.stages(sampleRate: sampleRate, generator: generator)
    }

    /// Whether there is no stage at all.
    package var isEmpty: Bool { signal.isEmpty && noise.isEmpty && received.isEmpty }

    /// Components the converter's rails cut so far.
    package var clippedComponents: Int {
        received.reduce(0) { $0 + (($1 as? Clipping)?.clipped ?? 0) }
    }

    /// Applies the signal stages to `iq` (first sample `firstSample`).
    mutating func applySignal(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        for index in signal.indices { signal[index].apply(iq, firstSample: firstSample) }
    }

    /// Applies the noise stages to `iq` (the receiver noise alone).
    mutating func applyNoise(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        for index in noise.indices { noise[index].apply(iq, firstSample: firstSample) }
    }

    /// Applies the stages after the receiver noise to `iq`.
    mutating func applyReceived(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        for index in received.indices { received[index].apply(iq, firstSample: firstSample) }
    }
}
