/// The `Host` header's value as the URLs an answer hands out may carry it: `HOST` or
/// `HOST:PORT`, where `HOST` is a name or an IPv4 address (letters, digits, `.`, `_`, `-`) or an
/// IPv6 address in brackets, and `PORT` is 1–65535.
///
/// Checked by a scan of the value's bytes: a `Regex` literal is parsed again each time it is
/// used, and doing that on every `records/query` took a fifth of the server's time.
enum HostAuthority {
    /// Whether `value` is `HOST` or `HOST:PORT`.
    static func isValid(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            guard let hostEnd = hostEnd(in: bytes) else { return false }
            return hostEnd == bytes.count || (bytes[hostEnd] == UInt8(ascii: ":") && isPort(bytes[(hostEnd + 1)...]))
        }
    }

    /// Where the host at the start of `bytes` ends: the index after its `]` for a bracketed IPv6
    /// address, otherwise the first byte a name does not hold; `nil` when there is no host.
    private static func hostEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                bytes[1..<close].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
            return close + 1
        }
        let end = bytes.firstIndex(where: { !isNameByte($0) }) ?? bytes.count
        return end > 0 ? end : nil
    }

    /// Whether `digits` is a port: one to five digits naming 1–65535.
    private static func isPort(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard (1...5).contains(digits.count), digits.allSatisfy(isDigit) else { return false }
        let port = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (1...65_535).contains(port)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
