//go:build !godlpack_checkslices

package pymodule

import "unsafe"

// checkSlices is false but in a build with the tag godlpack_checkslices
// (tensor_slicecheck.go): a []T argument is then its tensor's own memory.
const checkSlices = false

func lendSlice(c *call, data unsafe.Pointer, size uintptr, writable bool) unsafe.Pointer { return data }
func revokeSlices(c *call)                                                               {}
