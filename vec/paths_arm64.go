//go:build !purego

package vec

// Every arm64 CPU has NEON (Advanced SIMD is part of the architecture): the
// NEON path is the one in use, the pure-Go one beside it for the tests. The
// 8- and 16-bit integer sums, 64-bit integer products and extremes, and the
// tile kernel of SqDists have no NEON kernel yet and take the pure-Go ones.
func init() { use(pathNEON) }
