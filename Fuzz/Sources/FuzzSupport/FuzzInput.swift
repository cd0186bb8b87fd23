/// The bytes libFuzzer passes to `LLVMFuzzerTestOneInput`, as text.
public enum FuzzInput {
    /// The input decoded as UTF-8 (invalid sequences become U+FFFD, as when a file is read).
    public static func text(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        guard let data, size > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// Stops the process so that libFuzzer keeps the input as a crash: a property the harness
    /// checks does not hold.
    public static func fail(_ message: String, input: String) -> Never {
        fatalError("\(message)\ninput: \(input.debugDescription)")
    }
}
