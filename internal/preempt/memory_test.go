package preempt

import (
	"bytes"
	"testing"
)

// TestCopyIsMemmove: Copy gives what the built-in copy gives, for sizes
// around a piece and for overlapping slices either way.
func TestCopyIsMemmove(t *testing.T) {
	for _, n := range []int{0, 1, Piece - 1, Piece, Piece + 1, 3*Piece + 17} {
		for _, shift := range []int{0, -1, 1, -Piece - 3, Piece + 3, 2*Piece + 1} {
			buf := make([]byte, n+5*Piece)
			for i := range buf {
				buf[i] = byte(i*7 + i>>10)
			}
			want := bytes.Clone(buf)
			from, to := 2*Piece+4, 2*Piece+4+shift // dst shifted against src inside one buffer
			copy(want[to:to+n], want[from:from+n])
			if got := Copy(buf[to:to+n], buf[from:from+n]); got != n {
				t.Errorf("Copy of %d bytes shifted %d returned %d", n, shift, got)
			}
			if !bytes.Equal(buf, want) {
				t.Errorf("Copy of %d bytes shifted %d differs from the built-in copy", n, shift)
			}
		}
	}
	if got := Copy(make([]byte, 3), make([]byte, Piece+5)); got != 3 {
		t.Errorf("Copy into 3 bytes returned %d", got)
	}
}

func TestClear(t *testing.T) {
	for _, n := range []int{0, 1, Piece, 2*Piece + 9} {
		buf := bytes.Repeat([]byte{0xAB}, n+2)
		Clear(buf[1 : n+1])
		if buf[0] != 0xAB || buf[n+1] != 0xAB || bytes.Count(buf[1:n+1], []byte{0}) != n {
			t.Errorf("Clear of %d bytes: not exactly those bytes zero", n)
		}
	}
}
