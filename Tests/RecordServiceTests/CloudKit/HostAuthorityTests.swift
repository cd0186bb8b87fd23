import Testing

@testable import RecordService

@Suite("The Host header an answer's URLs may carry")
struct HostAuthorityTests {
    @Test(arguments: [
        "localhost", "shop.example", "shop.example:8443", "127.0.0.1", "127.0.0.1:1", "127.0.0.1:65535", "my_host-2.local:80",
        "[::1]", "[::1]:8080", "[2001:DB8::a]:443", "[::ffff:127.0.0.1]",
    ])
    func acceptsAHostAndAnOptionalPort(host: String) {
        #expect(HostAuthority.isValid(host))
    }

    @Test(arguments: [
        "", "a b", "evil/path", "x@y", "é.example", ":80", "host:", "host:0", "host:65536", "127.0.0.1:99999", "host:123456",
        "host:8a", "host:80:81", "a:b", "[]", "[::1", "[::g]", "[::1]:", "[::1]x", "[::1]:65536", "::1",
    ])
    func refusesWhatIsNotAHostAndAPort(value: String) {
        #expect(!HostAuthority.isValid(value))
    }
}
