//go:build purego || !(amd64 || arm64)

package vec

import "unsafe"

// prefetch does nothing where Go has no instruction for it.
func prefetch(p unsafe.Pointer, n uintptr) {}
