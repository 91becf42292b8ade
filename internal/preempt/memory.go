package preempt

import "unsafe"

// Piece is the most bytes [Copy] and [Clear] move in one call of the
// runtime's memmove or memclr, about 25 us: what the runtime's own clear of
// a large allocation takes between two chances to be preempted.
const Piece = 256 << 10

// Copy is the built-in copy for byte slices of any size, as a memmove
// (overlapping slices are fine), moved in pieces of [Piece] bytes, each by a
// call the runtime can preempt the goroutine at as it enters. The built-in
// runs in assembly, which the runtime cannot preempt: a garbage collection,
// and with it every goroutine that allocates (every call into Go from
// another Python thread), would wait for the whole copy, 170 ms for 64 MiB
// of fresh memory on a busy 2-core machine.
func Copy(dst, src []byte) int {
	n := min(len(dst), len(src))
	if n <= Piece {
		return copy(dst, src)
	}
	dst, src = dst[:n], src[:n]
	if d, s := uintptr(unsafe.Pointer(&dst[0])), uintptr(unsafe.Pointer(&src[0])); d > s && d < s+uintptr(n) {
		for hi := n; hi > 0; hi -= Piece { // dst starts inside src: the last piece first, as memmove goes
			lo := max(hi-Piece, 0)
			copyPiece(dst[lo:hi], src[lo:hi])
		}
		return n
	}
	for lo := 0; lo < n; lo += Piece {
		hi := min(lo+Piece, n)
		copyPiece(dst[lo:hi], src[lo:hi])
	}
	return n
}

// Clear is the built-in clear for byte slices of any size, in pieces of
// [Piece] bytes, each cleared by a call the runtime can preempt at (see
// [Copy]).
func Clear(b []byte) {
	for lo := 0; lo < len(b); lo += Piece {
		clearPiece(b[lo:min(lo+Piece, len(b))])
	}
}

// copyPiece and clearPiece are calls, never inlined, so that each piece
// starts with the stack check at which the runtime preempts a goroutine it
// asked to stop: a loop of inlined copies has no such point, and the signal
// that preempts Go code elsewhere mostly lands in the assembly, where it is
// ignored.
//
//go:noinline
func copyPiece(dst, src []byte) { copy(dst, src) }

//go:noinline
func clearPiece(b []byte) { clear(b) }
