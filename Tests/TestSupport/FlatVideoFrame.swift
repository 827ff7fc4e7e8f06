import Graphics

/// A decoded frame of one colour for tests of where frames go (the video plane, the views that
/// show them), in I420 planes of its own that it frees when it goes.
public enum FlatVideoFrame {
    public static func make(width: Int, height: Int, y: UInt8 = 128, u: UInt8 = 128, v: UInt8 = 128) -> VideoFrame {
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: width * height + 2 * chroma, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: y, count: width * height)
        (memory + width * height).initializeMemory(as: UInt8.self, repeating: u, count: chroma)
        (memory + width * height + chroma).initializeMemory(as: UInt8.self, repeating: v, count: chroma)
        let address = UInt(bitPattern: memory)
        return VideoFrame(width: width, height: height, layout: .i420,
                          planes: [.init(base: memory, stride: width),
                                   .init(base: memory + width * height, stride: (width + 1) / 2),
                                   .init(base: memory + width * height + chroma, stride: (width + 1) / 2)],
                          matrix: .bt709, fullRange: true) {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }
}
