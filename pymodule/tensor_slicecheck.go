//go:build godlpack_checkslices

package pymodule

import (
	"sync"
	"syscall"
	"unsafe"
)

// With the build tag godlpack_checkslices, a test build: every []T argument
// is a copy of its tensor's elements in memory mapped for the call alone,
// which is made unreadable when the call returns (and never mapped again),
// so that a Go function that kept the slice and uses it after its call
// fails loudly, at the line that uses it ("unexpected fault address", a
// fatal error of Go's with the goroutine's traceback), rather than reading
// memory its producer may have freed. A writable slice's elements are
// copied back into the tensor before the mapping goes. Two slice arguments
// over the same memory are two copies in such a build.
const checkSlices = true

// A lentSlice is the mapping a []T argument lends, and where its elements came from.
type lentSlice struct {
	mapped   []byte
	from     unsafe.Pointer
	writable bool
}

var (
	lentMu sync.Mutex
	lent   = map[*call][]lentSlice{}
)

// lendSlice returns a copy of the size bytes at data in memory of c's own,
// which revokeSlices takes away when c returns.
func lendSlice(c *call, data unsafe.Pointer, size uintptr, writable bool) unsafe.Pointer {
	if size == 0 {
		return data
	}
	mapped, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		panic("pymodule: godlpack_checkslices cannot map " + err.Error())
	}
	copy(mapped, unsafe.Slice((*byte)(data), size))
	lentMu.Lock()
	lent[c] = append(lent[c], lentSlice{mapped, data, writable})
	lentMu.Unlock()
	return unsafe.Pointer(&mapped[0])
}

// revokeSlices ends c's slices: a writable one's elements go back to its
// tensor, and each mapping is made unreadable, its pages given back.
func revokeSlices(c *call) {
	lentMu.Lock()
	slices := lent[c]
	delete(lent, c)
	lentMu.Unlock()
	for _, s := range slices {
		if s.writable {
			copy(unsafe.Slice((*byte)(s.from), len(s.mapped)), s.mapped)
		}
		_ = syscall.Madvise(s.mapped, syscall.MADV_DONTNEED)
		_ = syscall.Mprotect(s.mapped, syscall.PROT_NONE)
	}
}
