/// SHA-1 (FIPS 180-4 section 6.1), only as the hash under the HMAC of
/// PBKDF2 that turns a Wi-Fi passphrase into its pairwise master key
/// (IEEE 802.11i-2004 annex H.4): the key wpa_passphrase prints and
/// wpa_supplicant derives itself from `psk="..."`. Nothing here is a
/// signature or a password store; the vectors of FIPS 180-4's examples,
/// RFC 2202 and RFC 6070 check it (SHA1Tests).
struct SHA1 {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)
    private(set) var h: State = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var block: [UInt8] = []  // less than one block, waiting for more
    private var length: UInt64 = 0

    static let blockSize = 64

    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var s = SHA1()
        s.update(bytes)
        return s.finish()
    }

    mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        var i = 0
        if !block.isEmpty {
            let n = min(Self.blockSize - block.count, bytes.count)
            block += bytes[0..<n]
            i = n
            guard block.count == Self.blockSize else { return }
            block.withUnsafeBytes { Self.compress(&h, $0) }
            block.removeAll(keepingCapacity: true)
        }
        // Whole blocks straight from the input, the rest kept for later.
        bytes.withUnsafeBytes { all in
            while bytes.count - i >= Self.blockSize {
                Self.compress(&h, UnsafeRawBufferPointer(rebasing: all[i..<(i + Self.blockSize)]))
                i += Self.blockSize
            }
        }
        block += bytes[i...]
    }

    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (block.count + tail.count) % Self.blockSize != 56 { tail.append(0) }
        for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        let saved = length
        update(tail)
        length = saved
        var out = [UInt8](repeating: 0, count: 20)
        out.withUnsafeMutableBytes { Self.store(h, $0) }
        return out
    }

    /// The digest's 20 bytes, big-endian, at the start of `out`.
    static func store(_ h: State, _ out: UnsafeMutableRawBufferPointer) {
        for (n, word) in [h.0, h.1, h.2, h.3, h.4].enumerated() {
            out.storeBytes(of: word.bigEndian, toByteOffset: 4 * n, as: UInt32.self)
        }
    }

    static func compress(_ h: inout State, _ m: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for t in 0..<16 {
                w[t] = UInt32(m[4 * t]) << 24 | UInt32(m[4 * t + 1]) << 16 | UInt32(m[4 * t + 2]) << 8 | UInt32(m[4 * t + 3])
            }
            for t in 16..<80 { w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var (a, b, c, d, e) = h
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                if t < 20 { (f, k) = ((b & c) | (~b & d), 0x5A82_7999) }
                else if t < 40 { (f, k) = (b ^ c ^ d, 0x6ED9_EBA1) }
                else if t < 60 { (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC) }
                else { (f, k) = (b ^ c ^ d, 0xCA62_C1D6) }
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[t]
                (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
    }

    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}

/// HMAC (RFC 2104) over SHA-1, with the key's inner and outer pads hashed
/// once: PBKDF2 calls it 8,192 times with one key.
struct HMACSHA1 {
    let inner: SHA1
    let outer: SHA1

    init(key: [UInt8]) {
        var k = key.count > SHA1.blockSize ? SHA1.hash(key) : key
        k += [UInt8](repeating: 0, count: SHA1.blockSize - k.count)
        var i = SHA1(), o = SHA1()
        i.update(k.map { $0 ^ 0x36 })
        o.update(k.map { $0 ^ 0x5C })
        inner = i
        outer = o
    }

    func mac(_ message: [UInt8]) -> [UInt8] {
        var i = inner
        i.update(message)
        var o = outer
        o.update(i.finish())
        return o.finish()
    }
}

/// PBKDF2 (RFC 8018 section 5.2) with HMAC-SHA1.
enum PBKDF2 {
    static func sha1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        let prf = HMACSHA1(key: password)
        var out: [UInt8] = []
        var index: UInt32 = 1
        while out.count < length {
            var u = prf.mac(salt + [UInt8(index >> 24), UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF)])
            var t = u
            // Every later round MACs a 20-byte digest: both hashes are one
            // padded block each (FIPS 180-4 5.1.1), built once and refilled,
            // from the pads' states the HMAC computed once.
            var block = [UInt8](repeating: 0, count: SHA1.blockSize)
            block[20] = 0x80
            block[62] = 0x02  // (64 + 20) * 8 = 672 bits = 0x02A0
            block[63] = 0xA0
            block.withUnsafeMutableBytes { m in
                m.copyBytes(from: u)
                for _ in 1..<max(iterations, 1) {
                    var hi = prf.inner.h
                    SHA1.compress(&hi, UnsafeRawBufferPointer(m))
                    SHA1.store(hi, m)
                    var ho = prf.outer.h
                    SHA1.compress(&ho, UnsafeRawBufferPointer(m))
                    SHA1.store(ho, m)
                    for j in 0..<t.count { t[j] ^= m[j] }
                }
            }
            u = []
            out += t
            index += 1
        }
        return Array(out.prefix(length))
    }
}
