import CLibcrypto

/// PBKDF2 with HMAC-SHA1 (RFC 8018 section 5.2), as wpa_supplicant turns a
/// passphrase into its key: OpenSSL's libcrypto, opened only when `tock
/// setup` needs a key (the package depends on it; the image has it for
/// wpa_supplicant too).
public enum PBKDF2 {
    public static let library = "libcrypto.so.3"

    /// Why a key could not be made: the library's own words, and the fix.
    public struct Unavailable: Error, Equatable, Sendable {
        public let reason: String
        public var fix: String { "install the libssl3 package (libssl3t64 on Debian 13), which provides \(PBKDF2.library)" }
    }

    public static func sha1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int,
                            library: String = library) throws(Unavailable) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        var error = [CChar](repeating: 0, count: 256)
        let rc = out.withUnsafeMutableBufferPointer { o in
            tock_pbkdf2_hmac_sha1(library, password, Int32(password.count), salt, Int32(salt.count),
                                  Int32(iterations), Int32(length), o.baseAddress, &error, error.count)
        }
        guard rc == 0 else {
            throw Unavailable(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return out
    }
}
